package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An engine keeps the views of finished jobs it has read and reuses one only while the job's row is unchanged.
 * Here one engine reads while another, on the same PostgreSQL database, renames, retags, retries and tears down
 * the job it read: after each change the first engine answers what an engine that never read the job answers.
 */
class FinishedViewsTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void aKeptViewNeverHidesAChangeMadeByAnotherEngine() {
    SimCloud cloud = SimCloud.create();
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        EmbeddedProvisioner reader = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).instanceId("reader")
            .build();
        EmbeddedProvisioner writer = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).instanceId("writer")
            .build()) {
      Space space = EngineBehaviour.newSpace(writer, "kept-views");
      Job done = writer.jobs().await(writer.jobs().submit(space.id(), RegistrySpec.named("team/done")).id(), WAIT);
      cloud.deny("registry:CreateRepository");
      Job failed = writer.jobs().await(writer.jobs().submit(space.id(), RegistrySpec.named("team/failing")).id(),
          WAIT);
      assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
      JobQuery page = JobQuery.inSpace(space.id());
      assertSameAsFresh(reader, db, cloud, failed, page);
      assertSameAsFresh(reader, db, cloud, failed, page); // the second read is the kept one

      writer.jobs().update(failed.id(), JobPatch.name("renamed"));
      assertThat(assertSameAsFresh(reader, db, cloud, failed, page).name()).isEqualTo("renamed");

      writer.jobs().update(failed.id(), JobPatch.tags(Map.of("team", "payments")));
      assertThat(assertSameAsFresh(reader, db, cloud, failed, page).tags()).containsEntry("team", "payments");

      // the same status again after a retry: only the version and finish time tell the rows apart
      writer.jobs().retry(failed.id());
      assertThat(writer.jobs().await(failed.id(), WAIT).status()).isEqualTo(JobStatus.FAILED);
      Job failedAgain = assertSameAsFresh(reader, db, cloud, failed, page);
      assertThat(failedAgain.finishedAt()).isAfter(failed.finishedAt());
      assertThat(failedAgain.steps().get(0).startedAt()).isAfter(failed.steps().get(0).startedAt());

      cloud.allow("registry:CreateRepository");
      writer.jobs().retry(failed.id());
      assertThat(writer.jobs().await(failed.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
      Job succeeded = assertSameAsFresh(reader, db, cloud, failed, page);
      assertThat(succeeded.steps()).allMatch(step -> step.status() == StepStatus.SUCCEEDED);
      assertThat(succeeded.outputs()).isNotEmpty();

      writer.jobs().delete(done.id());
      assertThat(writer.jobs().await(done.id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
      Job deleted = assertSameAsFresh(reader, db, cloud, done, page);
      assertThat(deleted.steps()).hasSizeGreaterThan(done.steps().size());
    }
  }

  @Test
  void finishedJobsReadOnceAreListedWithoutReadingTheirSteps() {
    SimCloud cloud = SimCloud.create();
    try (WatchedDataSource watched = WatchedDataSource.h2(dir);
        EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).build()) {
      Space space = EngineBehaviour.newSpace(zop, "kept-sim-east-1");
      for (int i = 0; i < 3; i++) { // awaiting a job reads it until it has finished
        zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("team/listed-" + i)).id(), WAIT);
      }
      String stepsOfJobs = "SELECT id, steps FROM provisioning_jobs";
      watched.countStatements(stepsOfJobs);
      List<Job> listed = zop.jobs().list(JobQuery.inSpace(space.id())).items();
      zop.jobs().get(listed.get(0).id());
      assertThat(watched.statements()).isZero();
      assertThat(listed).hasSize(3).allMatch(job -> job.steps().size() == 1);

      Job renamed = zop.jobs().update(listed.get(1).id(), JobPatch.name("renamed")); // reads it again
      List<Job> after = zop.jobs().list(JobQuery.inSpace(space.id())).items();

      assertThat(watched.statements()).isEqualTo(1);
      assertThat(after).containsExactly(listed.get(0), renamed, listed.get(2));
    }
  }

  /** The reader's get and list of {@code job} equal those of an engine that has never read it; returns the get. */
  private static Job assertSameAsFresh(EmbeddedProvisioner reader, PostgresTestDatabase db, SimCloud cloud, Job job,
      JobQuery page) {
    Job kept = reader.jobs().get(job.id());
    List<Job> listed = reader.jobs().list(page).items();
    try (EmbeddedProvisioner fresh = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud)
        .instanceId("fresh").runWorkers(false).build()) {
      assertThat(kept).isEqualTo(fresh.jobs().get(job.id()));
      assertThat(listed).isEqualTo(fresh.jobs().list(page).items());
    }
    return kept;
  }
}
