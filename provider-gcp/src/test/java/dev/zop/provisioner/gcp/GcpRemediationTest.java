package dev.zop.provisioner.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.api.services.sqladmin.model.DatabaseInstance;
import com.google.api.services.sqladmin.model.Settings;
import com.google.cloud.compute.v1.Instance;
import com.google.cloud.dataproc.v1.Cluster;
import com.google.cloud.dataproc.v1.ClusterStatus;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remediation workflows acting on GCP resources through its remediation actions, approvals given as a person would. */
class GcpRemediationTest {
  private static final GcpFake FAKE = new GcpFake(GcpFake.COMPUTE, GcpFake.DATAPROC, GcpFake.CLOUD_SQL);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String PROJECT = GcpProviderTckTest.PROJECT;

  @TempDir Path dir;
  private EmbeddedProvisioner zop;
  private CloudAccount account;

  @BeforeEach
  void start() {
    FAKE.reset();
    zop = EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false)
        .provider(new GcpProvider().pollingEvery(Duration.ofMillis(20))).pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(3, Duration.ofMillis(10), Duration.ofMillis(50))).build();
    account = zop.accounts().create(FAKE.account("fake", PROJECT, "none"));
  }

  @AfterEach
  void stop() {
    zop.close();
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  private RemediationJob started(String type, String id, String action) {
    zop.remediations().putRecommendation(new Recommendation("rec-" + type, "gcp", account.id(), "us-central1", type,
        id, action));
    RemediationJob job = zop.remediations().start("rec-" + type, SubjectType.RESOURCE, id);
    await().atMost(WAIT).until(() -> zop.remediations().get(job.id()).status() == JobStatus.AWAITING_USER);
    return zop.remediations().get(job.id());
  }

  @Test
  void anIdleComputeInstanceIsStoppedAfterApproval() throws Exception {
    String path = "compute/v1/projects/" + PROJECT + "/zones/us-central1-a/instances/batch-1";
    FAKE.put("compute", path, Instance.newBuilder().setName("batch-1").setStatus("RUNNING").build());
    RemediationJob job = started("compute-instance", "us-central1-a/batch-1", "stop");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "idle for 14 days");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(Instance.parseFrom(FAKE.get("compute", path).toByteString()).getStatus()).isEqualTo("TERMINATED");
  }

  @Test
  void anIdleCloudSqlInstanceIsStoppedByItsActivationPolicy() throws Exception {
    FAKE.cloudSql().put(PROJECT, new DatabaseInstance().setName("reports").setDatabaseVersion("POSTGRES_16")
        .setSettings(new Settings().setTier("db-custom-2-4096").setActivationPolicy("ALWAYS")));
    RemediationJob job = started("cloudsql-instance", "reports", "stop");
    zop.remediations().approve(job.id(), StepRef.name("approval"), "nobody reads these reports at night");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.cloudSql().instances().get(PROJECT + "/reports").getSettings().getActivationPolicy())
        .isEqualTo("NEVER");
  }

  @Test
  void pausingADataprocClusterDeletesItAndTheTemplateSaysSoBeforeApproval() {
    String path = "v1/projects/" + PROJECT + "/regions/us-central1/clusters/etl";
    FAKE.put("dataproc", path, Cluster.newBuilder().setProjectId(PROJECT).setClusterName("etl")
        .setStatus(ClusterStatus.newBuilder().setState(ClusterStatus.State.RUNNING)).build());
    RemediationJob job = started("dataproc-cluster", "etl", "pause");
    assertThat(job.templateId()).isEqualTo("pause-dataproc");
    assertThat(job.irreversible()).isTrue();
    zop.remediations().approve(job.id(), StepRef.name("approval"), "Cluster is idle; data is in GCS");
    assertThat(zop.remediations().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.resources("dataproc")).isEmpty();
  }
}
