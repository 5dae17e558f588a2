package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.testkit.kube.KubeTestCluster;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalog, install-component and namespaces through the HTTP client, on a server whose engine found
 * provider-helm on its classpath, with the space's cluster a real kube-apiserver on loopback.
 */
class RemoteComponentsTest {
  static EmbeddedProvisioner engine;
  static ProvisionerServer server;
  static Provisioner client;
  static Space space;

  @BeforeAll
  static void start() throws Exception {
    engine = TestEngines.h2(Files.createTempDirectory("zop-remote-helm"), SimCloud.create())
        .discoverProviders(true) // finds provider-helm's installer; the explicit sim provider still wins for sim
        .build();
    AccessStore access = AccessStore.open(engine.dataSource());
    server = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0).start();
    String token = access.createToken("acme", "alice@acme.com", Set.of(Policies.ADMIN), null).token();
    client = dev.zop.provisioner.client.ProvisionerClient.builder().baseUrl("http://127.0.0.1:" + server.port())
        .bearerToken(token).build();
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "remote-helm"));
    space = client.spaces().create(SpaceRequest.of("sim", "remote-helm", account.id()).region("sim-east-1")
        .kubeconfig(KubeTestCluster.shared().kubeconfig()));
  }

  @AfterAll
  static void stop() {
    client.close();
    server.close();
    engine.close();
  }

  @Test
  void theCatalogListsTheCuratedComponentsPinnedToChartVersions() {
    assertThat(client.catalog().components()).extracting(CatalogComponent::id).contains("ingress-nginx",
        "cert-manager", "kube-prometheus-stack", "metrics-server", "external-dns");
    assertThat(client.catalog().components()).isEqualTo(engine.catalog().components());
    assertThat(client.spaces().get(space.id()).config()).containsKey("kubeconfigRef");
  }

  @Test
  void namespacesThroughTheClient() {
    Namespace created = client.spaces().namespaces(space.id()).create("remote-team");
    assertThat(created.managedByZopnight()).isTrue();
    assertThat(client.spaces().namespaces(space.id()).list()).contains(created)
        .anySatisfy(n -> assertThat(n.name()).isEqualTo("kube-system"));
    assertThatThrownBy(() -> client.spaces().namespaces(space.id()).create("remote-team"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("namespace_exists"));
    assertThatThrownBy(() -> client.spaces().namespaces(space.id()).create("Bad_Name"))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void installComponentSubmitsAComponentJob() {
    Job job = client.jobs().installComponent(space.id(), "metrics-server", Map.of("args", "--kubelet-insecure-tls"));
    assertThat(job.kind()).isEqualTo(JobKind.COMPONENT);
    assertThat(job.spec()).isEqualTo(ComponentSpec.of("metrics-server", Map.of("args", "--kubelet-insecure-tls")));
    assertThat(job.steps()).extracting(s -> s.name())
        .containsExactly("resolve-chart", "ensure-namespace", "install-release");
    assertThatThrownBy(() -> client.jobs().installComponent(space.id(), "not-in-catalog", Map.of()))
        .isInstanceOf(ValidationException.class);
  }
}
