package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
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
  static String token;
  static String base;

  @BeforeAll
  static void start() throws Exception {
    engine = TestEngines.h2(Files.createTempDirectory("zop-remote-helm"), SimCloud.create())
        .discoverProviders(true) // finds provider-helm's installer; the explicit sim provider still wins for sim
        .build();
    AccessStore access = AccessStore.open(engine.dataSource());
    server = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0).start();
    token = access.createToken("acme", "alice@acme.com", Set.of(Policies.ADMIN), null).token();
    base = "http://127.0.0.1:" + server.port();
    client = dev.zop.provisioner.client.ProvisionerClient.builder().baseUrl(base)
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
    // the job's config names the chart version it installs: the catalog's pin, as the plan filled it in
    String pinned = client.catalog().components().stream().filter(c -> c.id().equals("metrics-server")).findFirst()
        .orElseThrow().version();
    assertThat(job.spec()).isEqualTo(ComponentSpec.of("metrics-server", Map.of("args", "--kubelet-insecure-tls"))
        .withChartVersion(pinned));
    assertThat(job.steps()).extracting(s -> s.name())
        .containsExactly("resolve-chart", "ensure-namespace", "install-release");
    assertThatThrownBy(() -> client.jobs().installComponent(space.id(), "not-in-catalog", Map.of()))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void theCatalogSaysWhereEachVersionComesFromAndThatIngressNginxIsRetired() throws Exception {
    JsonNode catalog = RawHttp.json(base, "GET", "/catalog/components", token, null).json().get("data");
    JsonNode nginx = find(catalog, "ingress-nginx");
    // the documents' fields, as before
    assertThat(nginx.get("name").asText()).isNotBlank();
    assertThat(nginx.get("category").asText()).isEqualTo("ingress");
    assertThat(nginx.get("version").asText()).isEqualTo("4.15.1");
    assertThat(nginx.get("description").asText()).isNotBlank();
    // and where it comes from, and where its project stands
    assertThat(nginx.get("appVersion").asText()).isEqualTo("1.15.1");
    assertThat(nginx.at("/provenance/sourceRepository").asText()).isEqualTo("github.com/kubernetes/ingress-nginx");
    assertThat(nginx.at("/provenance/releaseTag").asText()).isEqualTo("helm-chart-4.15.1");
    assertThat(nginx.get("status").asText()).isEqualTo("retired");
    assertThat(nginx.get("statusReason").asText()).contains("March 2026");
    assertThat(nginx.get("replacement").asText()).isEqualTo("kong");
    JsonNode kong = find(catalog, "kong");
    assertThat(kong.get("status").asText()).isEqualTo("maintained");
    assertThat(kong.get("category").asText()).isEqualTo("ingress");
    assertThat(kong.at("/provenance/releaseTag").asText()).isEqualTo("kong-3.4.1");
  }

  private static JsonNode find(JsonNode catalog, String id) {
    for (JsonNode c : catalog) {
      if (c.get("id").asText().equals(id)) {
        return c;
      }
    }
    throw new AssertionError("no " + id + " in " + catalog);
  }

  @Test
  void aRetiredComponentsPlanAndInstallWarnThroughRestAndTheZopCommand() throws Exception {
    String component = """
        {"kind": "component", "spaceID": "%s", "config": {"componentID": "ingress-nginx",
         "values": {"controller.service.type": "LoadBalancer"}}}""".formatted(space.id());
    JsonNode plan = RawHttp.json(base, "POST", "/provisioning-jobs/plan", token, component).json().get("data");
    assertThat(plan.get("warnings")).hasSize(1);
    assertThat(plan.at("/warnings/0/code").asText()).isEqualTo("component_retired");
    assertThat(plan.at("/warnings/0/field").asText()).isEqualTo("componentID");
    assertThat(plan.at("/warnings/0/message").asText()).contains("ingress-nginx 4.15.1 is retired upstream")
        .contains("the catalog offers kong instead");

    // the documents' install-component body, verbatim but for the space's id
    RawHttp.Reply installed = RawHttp.json(base, "POST", "/provisioning-jobs/install-component", token, """
        { "spaceID": "%s", "componentID": "ingress-nginx", "values": { "controller.service.type": "LoadBalancer" } }"""
        .formatted(space.id()));
    assertThat(installed.status()).as(installed.body()).isBetween(200, 299);
    String jobId = installed.json().at("/data/id").asText();
    JsonNode events = RawHttp.json(base, "GET", "/provisioning-jobs/" + jobId + "/events?after=0", token, null)
        .json().get("data");
    assertThat(events).anySatisfy(e -> {
      assertThat(e.get("type").asText()).isEqualTo("warning");
      assertThat(e.get("message").asText()).contains("ingress-nginx 4.15.1 is retired upstream");
    });

    java.nio.file.Path file = Files.createTempFile("ingress", ".json");
    Files.writeString(file, component);
    ZopCommandTest.Run planned = ZopCommandTest.zopAt(base, token, "jobs", "plan", "-f", file.toString(), "-o",
        "json");
    assertThat(planned.exit()).as(planned.err()).isZero();
    assertThat(planned.err()).contains("warning: ingress-nginx 4.15.1 is retired upstream").contains("(component_retired)");
    assertThat(planned.json().at("/warnings/0/code").asText()).isEqualTo("component_retired");
    ZopCommandTest.Run submitted = ZopCommandTest.zopAt(base, token, "jobs", "submit", "-f", file.toString(), "-q");
    assertThat(submitted.exit()).as(submitted.err()).isZero();
    assertThat(submitted.out().strip()).startsWith("job_"); // stdout stays the id, for scripts
    assertThat(submitted.err()).contains("warning: ingress-nginx 4.15.1 is retired upstream");
  }
}
