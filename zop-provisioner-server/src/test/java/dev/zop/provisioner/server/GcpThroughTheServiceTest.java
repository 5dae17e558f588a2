package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.compute.v1.Network;
import com.google.cloud.compute.v1.Subnetwork;
import com.google.protobuf.Message;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.gcp.GcpFake;
import dev.zop.provisioner.gcp.GcpProvider;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provisioning document's three job bodies on GCP, sent verbatim (invented ids replaced) to the REST service
 * over HTTP, watched through the typed client, against the GCP fake built from Google's API definitions.
 */
class GcpThroughTheServiceTest {
  private static final String PROJECT = "acme-platform";
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static GcpFake fake;
  private static ServerFixture fixture;
  private static Provisioner client;
  private static Space space;

  @BeforeAll
  static void start() {
    TestDatabaseServers.postgres(); // the datastore's server: fails loudly when PostgreSQL is not there
    fake = new GcpFake(GcpFake.COMPUTE, GcpFake.ARTIFACT_REGISTRY, GcpFake.SECRET_MANAGER, GcpFake.CONTAINER,
        GcpFake.REDIS, GcpFake.CLOUD_SQL);
    fake.operationPolls(1);
    fixture = ServerFixture.withEngine(e -> e.provider(new GcpProvider().pollingEvery(Duration.ofMillis(20))));
    client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(fake.account("acme-gcp", PROJECT, "none"));
    space = client.spaces().create(SpaceRequest.of("gcp", "acme-us-central1", account.id()).region("us-central1"));
    // what the document's invented ids stand for: a network with two subnetworks, and the project's default one
    network("default");
    String vpc = network("platform-net");
    for (String subnet : List.of("platform-net-a", "platform-net-b")) {
      String path = "compute/v1/projects/" + PROJECT + "/regions/us-central1/subnetworks/" + subnet;
      fake.put("compute", path, Subnetwork.newBuilder().setName(subnet).setRegion("us-central1").setNetwork(vpc)
          .setIpCidrRange(subnet.endsWith("a") ? "10.1.0.0/20" : "10.1.16.0/20")
          .setSelfLink(fake.endpoints().get("endpoint.compute") + "/" + path).build());
    }
  }

  private static String network(String name) {
    String path = "compute/v1/projects/" + PROJECT + "/global/networks/" + name;
    String selfLink = fake.endpoints().get("endpoint.compute") + "/" + path;
    fake.put("compute", path, Network.newBuilder().setName(name).setAutoCreateSubnetworks(false)
        .setSelfLink(selfLink).build());
    return selfLink;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
    if (fake != null) {
      fake.close();
    }
  }

  private Job submit(String body) throws Exception {
    return ProvisioningDocument.submit(fixture, client, space.id(), body, WAIT);
  }

  @Test
  void theDocumentsKubernetesBodySucceedsOnGcp() throws Exception {
    Job job = submit(ProvisioningDocument.KUBERNETES);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("clusterName", "platform-prod");
    assertThat(client.jobs().await(client.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    assertThat(fake.resources("container")).isEmpty();
  }

  @Test
  void theDocumentsDatastoreBodySucceedsOnGcp() throws Exception {
    Job job = submit(ProvisioningDocument.DATASTORE);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsKeys("host", "port", "adminSecretRef");
    assertThat(client.jobs().await(client.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
  }

  @Test
  void theDocumentsVmPoolBodySucceedsOnGcp() throws Exception {
    Job job = submit(ProvisioningDocument.VM_POOL);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsKey("loadBalancerAddress");
    assertThat(client.jobs().await(client.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    Map<String, Message> left = fake.resources("compute");
    assertThat(left.keySet()).allMatch(path -> path.contains("/networks/") || path.contains("/subnetworks/"));
  }

  @Test
  void aBudgetAnAllowedSizeAndARequiredTagGuardThePlanOnGcp() {
    GuardrailsOnTheCloud.check(fixture.baseUrl(), fixture.adminToken, space.id(),
        ProvisioningDocument.KUBERNETES.replace("spc_abc123", space.id().value()), "n2-standard-2");
  }
}
