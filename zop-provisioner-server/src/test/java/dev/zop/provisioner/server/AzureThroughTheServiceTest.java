package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.azure.ArmFake;
import dev.zop.provisioner.azure.AzureProvider;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provisioning document's three job bodies on Azure, sent verbatim (invented ids replaced) to the REST
 * service over HTTP, watched through the typed client, against the ARM fake the Azure SDK's own models validate.
 * The space is the spaces document's Azure space: an account and a resource group.
 */
class AzureThroughTheServiceTest {
  private static final String SUBSCRIPTION = "00000000-0000-0000-0000-0000000000c1";
  private static final String GROUP = "acme-platform";
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static ArmFake fake;
  private static ServerFixture fixture;
  private static Provisioner client;
  private static Space space;

  @BeforeAll
  static void start() {
    fake = ArmFake.forTheAzureProvider();
    fake.operationPolls(1);
    fake.resourceGroup(GROUP, "eastus");
    fixture = ServerFixture.withEngine(e -> e.provider(new AzureProvider().withCredential(ArmFake.credential())
        .withHttpClient(fake.httpClient()).pollingEvery(Duration.ofMillis(20))));
    client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(fake.account("acme-azure", SUBSCRIPTION));
    space = client.spaces().create(SpaceRequest.of("azure", "acme-eastus", account.id()).resourceGroup(GROUP));
    // what the document's invented network and subnet ids stand for
    fake.existingNetwork(SUBSCRIPTION, GROUP, "platform-net", "10.1.0.0/16",
        Map.of("platform-net-a", "10.1.0.0/20", "platform-net-b", "10.1.16.0/20"));
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

  /** What the fake holds of a resource type, by lower-cased ARM type. */
  private static long held(String type) {
    return fake.resources().values().stream().filter(r -> r.path("type").asText().equalsIgnoreCase(type)).count();
  }

  @Test
  void theDocumentsKubernetesBodySucceedsOnAzure() throws Exception {
    Job job = submit(ProvisioningDocument.KUBERNETES);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("clusterName", "platform-prod");
    assertThat(held("Microsoft.ContainerService/managedClusters")).isEqualTo(1);
    assertThat(client.jobs().await(client.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    assertThat(held("Microsoft.ContainerService/managedClusters")).isZero();
  }

  @Test
  void theDocumentsDatastoreBodySucceedsOnAzure() throws Exception {
    Job job = submit(ProvisioningDocument.DATASTORE);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsKeys("host", "port", "adminSecretRef");
    assertThat(held("Microsoft.DBforPostgreSQL/flexibleServers")).isEqualTo(1);
    assertThat(client.jobs().await(client.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    assertThat(held("Microsoft.DBforPostgreSQL/flexibleServers")).isZero();
  }

  @Test
  void theDocumentsVmPoolBodySucceedsOnAzure() throws Exception {
    Job job = submit(ProvisioningDocument.VM_POOL);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsKeys("loadBalancerAddress", "dnsName");
    assertThat(held("Microsoft.Compute/virtualMachineScaleSets")).isEqualTo(1);
    assertThat(client.jobs().await(client.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    // only the network the test put there is left
    assertThat(fake.resources().values()).allMatch(r -> r.path("type").asText().startsWith(
        "Microsoft.Network/virtualNetworks") && r.path("id").asText().contains("/platform-net"));
  }

  @Test
  void aBudgetAnAllowedSizeAndARequiredTagGuardThePlanOnAzure() {
    GuardrailsOnTheCloud.check(fixture.baseUrl(), fixture.adminToken, space.id(),
        ProvisioningDocument.KUBERNETES.replace("spc_abc123", space.id().value()), "Standard_D2s_v5");
  }
}
