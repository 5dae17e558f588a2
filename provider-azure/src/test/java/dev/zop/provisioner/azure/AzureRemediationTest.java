package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remediation on Azure through the engine: approval, the controller's action, and its validation. */
class AzureRemediationTest {
  private static final ArmFake FAKE = ArmFake.forTheAzureProvider();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String SUBSCRIPTION = AzureProviderTckTest.SUBSCRIPTION;
  private static final String GROUP = "batch-rg";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  private EmbeddedProvisioner zop;
  private CloudAccount account;

  @BeforeEach
  void start() {
    FAKE.reset();
    FAKE.operationPolls(1);
    zop = EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false)
        .provider(new AzureProvider().withCredential(ArmFake.credential()).withHttpClient(FAKE.httpClient())
            .pollingEvery(Duration.ofMillis(20)))
        .pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(3, Duration.ofMillis(10), Duration.ofMillis(50))).build();
    account = zop.accounts().create(FAKE.account("fake", SUBSCRIPTION));
  }

  @AfterEach
  void stop() {
    zop.close();
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  private String existing(String type, String name, ObjectNode resource) {
    String id = "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP + "/providers/" + type + "/" + name;
    resource.put("id", id).put("name", name).put("type", type).put("location", "eastus");
    if (!resource.has("properties")) {
      resource.putObject("properties");
    }
    ((ObjectNode) resource.get("properties")).put("provisioningState", "Succeeded");
    FAKE.put(id, resource);
    return id;
  }

  private RemediationJob started(String type, String id, String action) {
    zop.remediations().putRecommendation(new Recommendation("rec-" + type, "azure", account.id(), "eastus", type,
        id, action));
    RemediationJob job = zop.remediations().start("rec-" + type, SubjectType.RESOURCE, id);
    await().atMost(WAIT).until(() -> zop.remediations().get(job.id()).status() == JobStatus.AWAITING_USER);
    return zop.remediations().get(job.id());
  }

  @Test
  void anIdleScaleSetIsDeallocatedAfterApprovalAndStartedAgain() throws Exception {
    ObjectNode set = JSON.createObjectNode();
    set.putObject("sku").put("name", "Standard_D2s_v5").put("capacity", 3);
    String id = existing("Microsoft.Compute/virtualMachineScaleSets", "nightly", set);
    AzureController controller = new AzureController(new AzureClients(AzureProviderTckTest.account(FAKE),
        ArmFake.credential(), FAKE.httpClient()), AzureErrors.CALLS);
    assertThat(controller.observe("vm-scale-set", id)).isEqualTo("running");

    RemediationJob job = started("vm-scale-set", id, "stop");
    assertThat(job.templateId()).isEqualTo("stop-idle-vm");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "idle every night");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.calls()).contains("Microsoft.Compute/virtualMachineScaleSets/deallocate/action");
    assertThat(controller.observe("vm-scale-set", id)).isEqualTo("stopped");

    // the same resource named as <group>/<name>
    controller.start("vm-scale-set", GROUP + "/nightly");
    await().atMost(WAIT).until(() -> controller.observe("vm-scale-set", id).equals("running"));
  }

  @Test
  void aVirtualMachineIsDeallocated() {
    String id = existing("Microsoft.Compute/virtualMachines", "build-agent", JSON.createObjectNode());
    RemediationJob job = started("virtual-machine", id, "stop");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "the agent is idle");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.calls()).contains("Microsoft.Compute/virtualMachines/deallocate/action");
  }

  @Test
  void anIdleFlexibleServerIsStopped() {
    ObjectNode server = JSON.createObjectNode();
    server.putObject("properties").put("state", "Ready").put("version", "16");
    String id = existing("Microsoft.DBforPostgreSQL/flexibleServers", "reports", server);
    RemediationJob job = started("azure-database-server", id, "stop");
    assertThat(job.templateId()).isEqualTo("stop-idle-database");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "nobody reads these reports at night");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.resources().get(id.toLowerCase(Locale.ROOT)).path("properties").path("state").asText())
        .isEqualTo("Stopped");
  }

  @Test
  void pauseTargetsThisBuildCannotActOnAreRefusedWhenStartedNamingTheReason() {
    for (String type : new String[] {"synapse-pool", "data-factory", "cognitive-services", "ml-compute",
        "databricks-cluster"}) {
      String id = "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP + "/providers/Some/thing/" + type;
      zop.remediations().putRecommendation(new Recommendation("rec-" + type, "azure", account.id(), "eastus", type,
          id, "pause"));
      assertThatThrownBy(() -> zop.remediations().start("rec-" + type, SubjectType.RESOURCE, id))
          .as(type).isInstanceOfSatisfying(ProviderException.class, e -> {
            assertThat(e.failure().code()).isEqualTo("unsupported_resource_type");
            assertThat(e.failure().message()).contains(type);
            assertThat(e.failure().fixHint()).isNotBlank();
          });
    }
    assertThat(zop.remediations().list(10, null).items()).isEmpty();
  }
}
