package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful close on the embedded H2 store, whose file H2 closes under every connection when a thread is
 * interrupted inside a database call: the close interrupts nothing, and a claim it finds under way still ends with
 * every claimed job given back.
 */
class GracefulCloseTest {
  @TempDir Path dir;

  @Test
  void closeLetsAClaimUnderWayFinishAndGivesItsJobsBackWithoutInterruptingIt() throws Exception {
    SimCloud cloud = SimCloud.create();
    try (WatchedDataSource watched = WatchedDataSource.h2(dir)) {
      EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).build();
      Space space = EngineBehaviour.newSpace(zop, "close-sim-east-1");

      WatchedDataSource.Hold claim = watched.holdNextConnectionOf("zop-poller");
      List<Job> jobs = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        jobs.add(zop.jobs().submit(space.id(), EngineBehaviour.network("net-" + i)));
      }
      assertThat(claim.reached.await(30, TimeUnit.SECONDS)).as("the poller asked for a connection").isTrue();

      Thread closer = new Thread(zop::close, "closer");
      closer.start();
      // the worker's close has begun and waits (for the claim, or for runs)
      await().atMost(Duration.ofSeconds(30)).until(() -> waitsIn(closer, "Worker", "close"));
      claim.release.countDown();
      closer.join(TimeUnit.SECONDS.toMillis(60));

      assertThat(closer.isAlive()).as("close returned").isFalse();
      assertThat(claim.interrupted).as("the poller was interrupted inside a database call").isFalse();
      assertThat(leasedJobs(watched.unwatched())).as("jobs still leased after the close").isZero();

      try (EmbeddedProvisioner later = TestEngines.h2(dir, cloud).build()) {
        for (Job job : jobs) {
          assertThat(later.jobs().await(job.id(), Duration.ofSeconds(30)).status()).isEqualTo(JobStatus.SUCCEEDED);
        }
      }
    }
  }

  private static boolean waitsIn(Thread thread, String simpleClassName, String method) {
    Thread.State state = thread.getState();
    return (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
        && Arrays.stream(thread.getStackTrace()).anyMatch(frame -> frame.getMethodName().equals(method)
            && frame.getClassName().endsWith("." + simpleClassName));
  }

  private static long leasedJobs(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM provisioning_jobs WHERE lease_owner IS NOT NULL");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
