package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;

/**
 * A worker thread does not wait for a step's success to commit (its job goes on as a new task once it has), yet
 * no step changes anything in the cloud before every step ahead of it is recorded as succeeded: what a crash
 * leaves behind is always a prefix of the job's work.
 */
class StepDurabilityTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void everyCloudChangeFollowsTheDurableSuccessOfTheStepsBeforeIt() throws Exception {
    SimCloud cloud = SimCloud.create();
    List<JobId> ids = new ArrayList<>();
    try (EmbeddedProvisioner submitter = TestEngines.h2(dir, cloud).runWorkers(false).build()) {
      CloudAccount account = submitter.accounts().create(CloudAccountRequest.of("sim", "durable"));
      Space space = submitter.spaces().create(SpaceRequest.of("sim", "durable", account.id()).region("sim-east-1"));
      for (int i = 0; i < 12; i++) {
        ids.add(submitter.jobs().submit(space.id(), NetworkSpec.named("net-" + i).cidr("10.0.0.0/16")
            .subnet("a", "10.0.1.0/24").subnet("b", "10.0.2.0/24").subnet("c", "10.0.3.0/24")).id());
      }
    }
    AtomicReference<EmbeddedProvisioner> engine = new AtomicReference<>();
    AtomicInteger checked = new AtomicInteger();
    Queue<String> early = new ConcurrentLinkedQueue<>();
    // runs on the step's own thread, right after the cloud accepted a change; the engine names the step in the MDC
    cloud.onAccepted(operation -> {
      String job = MDC.get("zop.job");
      String step = MDC.get("zop.step");
      for (String[] row : steps(engine.get(), job)) {
        if (row[0].equals(step)) {
          break;
        }
        if (!row[1].equals("succeeded")) {
          early.add(job + ": " + operation + " in " + step + " while " + row[0] + " is recorded " + row[1]);
        }
      }
      checked.incrementAndGet();
    });
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).workerThreads(4).build()) {
      engine.set(zop);
      for (JobId id : ids) {
        assertThat(zop.jobs().await(id, WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
      }
    }
    assertThat(early).isEmpty();
    assertThat(checked.get()).isEqualTo(12 * 4); // a network and three subnets a job
  }

  /** The job's steps in order: name and status as stored. */
  private static List<String[]> steps(EmbeddedProvisioner zop, String jobId) {
    try (Connection c = zop.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement(
            "SELECT name, status FROM job_steps WHERE job_id = ? ORDER BY phase, step_index")) {
      ps.setString(1, jobId);
      List<String[]> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          rows.add(new String[] {rs.getString(1), rs.getString(2).toLowerCase(java.util.Locale.ROOT)});
        }
      }
      return rows;
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
