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

/** Remediation on Azure through the engine: approval, the remediation action, and its validation. */
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
    // a child's name is parent/childType/child: its type is the parent's and the child type
    String[] parts = name.split("/");
    String fullType = parts.length == 3 ? type + "/" + parts[1] : type;
    resource.put("id", id).put("name", parts[parts.length - 1]).put("type", fullType).put("location", "eastus");
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
    AzureRemediationActions actions = new AzureRemediationActions(new AzureClients(AzureProviderTckTest.account(FAKE),
        ArmFake.credential(), FAKE.httpClient()), AzureErrors.CALLS);
    assertThat(actions.observe("vm-scale-set", id)).isEqualTo("running");

    RemediationJob job = started("vm-scale-set", id, "stop");
    assertThat(job.templateId()).isEqualTo("stop-idle-vm");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "idle every night");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.calls()).contains("Microsoft.Compute/virtualMachineScaleSets/deallocate/action");
    assertThat(actions.observe("vm-scale-set", id)).isEqualTo("stopped");

    // the same resource named as <group>/<name>
    actions.start("vm-scale-set", GROUP + "/nightly");
    await().atMost(WAIT).until(() -> actions.observe("vm-scale-set", id).equals("running"));
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
  void anIdleMySqlFlexibleServerIsStoppedByItsOwnActions() {
    ObjectNode server = JSON.createObjectNode();
    server.putObject("properties").put("state", "Ready").put("version", "8.0.21");
    String id = existing("Microsoft.DBforMySQL/flexibleServers", "orders", server);
    // named as a PostgreSQL server, it ends at its precondition with the type to use; nothing was stopped
    zop.remediations().putRecommendation(new Recommendation("rec-wrong", "azure", account.id(), "eastus",
        "azure-database-server", id, "stop"));
    RemediationJob wrong = zop.remediations().await(zop.remediations().start("rec-wrong", SubjectType.RESOURCE, id)
        .id(), WAIT);
    assertThat(wrong.status()).isEqualTo(JobStatus.FAILED);
    assertThat(String.valueOf(zop.remediations().audit(wrong.id()))).contains("wrong_resource_type");
    assertThat(FAKE.calls()).doesNotContain("Microsoft.DBforMySQL/flexibleServers/stop/action",
        "Microsoft.DBforPostgreSQL/flexibleServers/stop/action");

    RemediationJob job = started("azure-mysql-server", id, "stop");
    assertThat(job.templateId()).isEqualTo("stop-idle-database");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "the orders replica is idle at night");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.calls()).contains("Microsoft.DBforMySQL/flexibleServers/stop/action");
    assertThat(FAKE.resources().get(id.toLowerCase(Locale.ROOT)).path("properties").path("state").asText())
        .isEqualTo("Stopped");
  }

  /** Pauses through the pause-service template, checks the final state, and resumes through the remediation actions. */
  private void pausedAndResumed(String type, String id, String property, String paused, String resumed) {
    RemediationJob job = started(type, id, "pause");
    assertThat(job.templateId()).isEqualTo("pause-service");
    assertThat(job.irreversible()).isFalse();
    zop.remediations().approve(job.id(), StepRef.name("approval"), "idle outside business hours");
    RemediationJob done = zop.remediations().await(job.id(), WAIT);
    assertThat(done.status()).as(String.valueOf(zop.remediations().audit(job.id()))).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.resources().get(id.toLowerCase(Locale.ROOT)).at(property).asText()).isEqualTo(paused);

    AzureRemediationActions actions = new AzureRemediationActions(new AzureClients(AzureProviderTckTest.account(FAKE),
        ArmFake.credential(), FAKE.httpClient()), AzureErrors.CALLS);
    assertThat(actions.observe(type, id)).isEqualTo("paused");
    actions.start(type, id);
    await().atMost(WAIT).until(() -> actions.observe(type, id).equals("running"));
    assertThat(FAKE.resources().get(id.toLowerCase(Locale.ROOT)).at(property).asText()).isEqualTo(resumed);
  }

  @Test
  void aSynapseSqlPoolIsPausedAndResumed() {
    FAKE.put("/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP
        + "/providers/Microsoft.Synapse/workspaces/analytics", JSON.createObjectNode().put("type",
            "Microsoft.Synapse/workspaces"));
    ObjectNode pool = JSON.createObjectNode();
    pool.putObject("sku").put("name", "DW100c");
    pool.putObject("properties").put("status", "Online");
    String id = existing("Microsoft.Synapse/workspaces", "analytics/sqlPools/warehouse", pool);
    pausedAndResumed("synapse-pool", id, "/properties/status", "Paused", "Online");
    assertThat(FAKE.calls()).contains("Microsoft.Synapse/workspaces/sqlPools/pause/action",
        "Microsoft.Synapse/workspaces/sqlPools/resume/action");
  }

  @Test
  void aDataFactoryTriggerIsStoppedAsItsPauseAndStartedAgain() {
    FAKE.put("/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP
        + "/providers/Microsoft.DataFactory/factories/etl", JSON.createObjectNode().put("type",
            "Microsoft.DataFactory/factories"));
    ObjectNode trigger = JSON.createObjectNode();
    trigger.putObject("properties").put("type", "ScheduleTrigger").put("runtimeState", "Started");
    String id = existing("Microsoft.DataFactory/factories", "etl/triggers/hourly", trigger);
    pausedAndResumed("data-factory", id, "/properties/runtimeState", "Stopped", "Started");
  }

  @Test
  void aCognitiveServicesAccountIsPausedByTurningItsPublicAccessOff() {
    ObjectNode account = JSON.createObjectNode().put("kind", "OpenAI");
    account.putObject("sku").put("name", "S0");
    account.putObject("tags").put("team", "search");
    account.putObject("properties").put("publicNetworkAccess", "Enabled");
    String id = existing("Microsoft.CognitiveServices/accounts", "assistant", account);
    pausedAndResumed("cognitive-services", id, "/properties/publicNetworkAccess", "Disabled", "Enabled");
    // the PATCH touched the one property: the account's tags and kind are as they were
    ObjectNode after = FAKE.resources().get(id.toLowerCase(Locale.ROOT));
    assertThat(after.path("tags").path("team").asText()).isEqualTo("search");
    assertThat(after.path("kind").asText()).isEqualTo("OpenAI");
  }

  @Test
  void pauseTargetsThisBuildCannotActOnAreRefusedWhenStartedNamingTheReason() {
    for (String type : new String[] {"ml-compute", "databricks-cluster"}) {
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
