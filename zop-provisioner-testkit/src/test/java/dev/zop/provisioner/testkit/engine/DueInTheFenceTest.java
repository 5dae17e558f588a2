package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step that waits for the cloud, or a transient failure's backoff, puts its job back in the queue in the fence's
 * own update of the job's row: a park is one version of that row (and its history row), with no second update
 * setting the due time.
 */
class DueInTheFenceTest {
  /** The text of a job's due time set by a statement of its own. */
  private static final String DUE_ALONE = "UPDATE provisioning_jobs SET next_run_at =";

  @TempDir Path dir;

  @Test
  void waitsAndRetriesSetTheDueTimeInTheFence() {
    SimCloud cloud = SimCloud.create().pollInterval(Duration.ofMillis(20))
        .creatingTime("kubernetes-cluster", Duration.ofMillis(200));
    try (WatchedDataSource watched = WatchedDataSource.h2(dir);
        EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).build()) {
      Space space = EngineBehaviour.newSpace(zop, "due-sim-east-1");
      cloud.throttleNext("kubernetes:CreateCluster", 1);
      watched.countStatements(DUE_ALONE);

      Job job = zop.jobs().await(zop.jobs().submit(space.id(), EngineBehaviour.cluster("due")).id(),
          Duration.ofSeconds(30));

      assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(zop.jobs().events(job.id(), 0)).extracting(JobEvent::type)
          .contains(JobEventType.STEP_WAITING, JobEventType.STEP_RETRYING);
      assertThat(watched.statements()).isZero();
    }
  }
}
