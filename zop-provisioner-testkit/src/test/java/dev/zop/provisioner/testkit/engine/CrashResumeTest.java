package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.testkit.EngineCrashes;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine dies in the middle of a step, after the cloud acted and before the engine recorded it. Another
 * engine takes the job over when the lease expires, resumes at that step, adopts what exists and finishes.
 */
class CrashResumeTest {
  @TempDir Path dir;

  @Test
  void anotherEngineFinishesACrashedEnginesJobOnH2() throws Exception {
    SimCloud cloud = SimCloud.create();
    crashAndResume(cloud, () -> TestEngines.h2(dir, cloud).leaseDuration(Duration.ofSeconds(1)));
  }

  @Test
  void anotherEngineFinishesACrashedEnginesJobOnPostgres() throws Exception {
    SimCloud cloud = SimCloud.create();
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      crashAndResume(cloud, () -> TestEngines.jdbc(db.url(), db.user(), db.password(), cloud)
          .leaseDuration(Duration.ofSeconds(1)));
    }
  }

  @Test
  void aWorkerWhoseLeaseWasTakenCannotWriteAndTheJobStillFinishesOnce() throws Exception {
    SimCloud cloud = SimCloud.create();
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).build()) {
      Space space = EngineBehaviour.newSpace(zop, "fenced");
      cloud.latency(Duration.ofMillis(600));
      Job job = zop.jobs().submit(space.id(), EngineBehaviour.cluster("fenced"));
      waitFor(() -> cloud.find("kubernetes-cluster", "fenced") != null);

      // What a takeover by another engine looks like in the row: a new version and someone else's lease.
      try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
          Statement s = c.createStatement()) {
        s.executeUpdate("UPDATE provisioning_jobs SET version = version + 1, lease_owner = 'another-engine',"
            + " lease_until = CURRENT_TIMESTAMP - INTERVAL '1 second' WHERE id = '" + job.id() + "'");
      }
      cloud.latency(Duration.ZERO);
      Job done = zop.jobs().await(job.id(), Duration.ofSeconds(30));

      assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
      // the fenced-out run's result was refused; the step ran again and adopted the cluster
      assertThat(cloud.stepRuns(job.id().value(), "create-cluster")).isEqualTo(2);
      assertThat(cloud.createCount("kubernetes-cluster", "fenced")).isEqualTo(1);
      assertThat(cloud.maxCreateCount()).isEqualTo(1);
    }
  }

  private void crashAndResume(SimCloud cloud, Supplier<EmbeddedProvisionerBuilder> engine) throws Exception {
    EmbeddedProvisioner first = engine.get().instanceId("engine-a").build();
    Space space = EngineBehaviour.newSpace(first, "crashy-space");
    cloud.latency(Duration.ofMillis(400));
    Job job = first.jobs().submit(space.id(), EngineBehaviour.cluster("crashy"));
    // the node group exists in the cloud; engine A is still waiting for the answer of its create call
    waitFor(() -> cloud.find("node-group", "crashy-default") != null);
    EngineCrashes.simulateCrash(first);
    cloud.latency(Duration.ZERO);

    try (EmbeddedProvisioner second = engine.get().instanceId("engine-b").build()) {
      Job before = second.jobs().get(job.id());
      JobStep crashedIn = EngineBehaviour.step(before, JobPhase.CREATE, "create-nodegroup-default");
      assertThat(crashedIn.status()).isEqualTo(StepStatus.RUNNING);
      // its start, and the intent it declared, were written on the job's row alone: the read shows them
      assertThat(crashedIn.attempts()).isEqualTo(1);
      assertThat(crashedIn.startedAt()).isNotNull();
      assertThat(crashedIn.outputs()).containsValue("crashy-default");
      assertThat(EngineBehaviour.step(before, JobPhase.CREATE, "create-cluster").status())
          .isEqualTo(StepStatus.SUCCEEDED);

      Job done = second.jobs().await(job.id(), Duration.ofSeconds(30));

      assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
      String id = job.id().value();
      assertThat(cloud.stepRuns(id, "create-role")).isEqualTo(1);
      assertThat(cloud.stepRuns(id, "create-cluster")).isEqualTo(1);
      assertThat(cloud.stepRuns(id, "await-cluster")).isEqualTo(1);
      assertThat(cloud.stepRuns(id, "create-nodegroup-default")).isEqualTo(2);
      assertThat(done.steps()).extracting(JobStep::attempts).containsExactly(1, 1, 1, 2, 1);
      assertThat(cloud.resources()).hasSize(3);
      assertThat(cloud.maxCreateCount()).isEqualTo(1);
      assertThat(second.jobs().events(job.id(), 0)).extracting(JobEvent::message)
          .contains("adopted existing node-group crashy-default");

      assertThat(second.jobs().await(second.jobs().delete(job.id()).id(), Duration.ofSeconds(30)).status())
          .isEqualTo(JobStatus.DELETED);
      assertThat(cloud.resources()).isEmpty();
    }
  }

  static void waitFor(Callable<Boolean> condition) {
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(2)).until(condition);
  }
}
