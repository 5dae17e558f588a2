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
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestEngines;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While due jobs queue up, a worker claims more than it has threads for; a job claimed ahead waits, leased, in the
 * pool's queue, and its heartbeats go on. It runs, once, as soon as a thread frees.
 */
class ClaimAheadTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void aJobClaimedAheadRunsOnceThoughItsLeaseWasExtendedWhileItWaited() throws Exception {
    SimCloud cloud = SimCloud.create();
    List<JobId> ids = new ArrayList<>();
    Space space;
    try (EmbeddedProvisioner submitter = TestEngines.h2(dir, cloud).runWorkers(false).build()) {
      CloudAccount account = submitter.accounts().create(CloudAccountRequest.of("sim", "ahead"));
      space = submitter.spaces().create(SpaceRequest.of("sim", "ahead", account.id()).region("sim-east-1"));
      for (int i = 0; i < 3; i++) {
        ids.add(submitter.jobs().submit(space.id(), RegistrySpec.named("team/r" + i)).id());
      }
    }
    // the one thread is held in the first job's cloud call while the second waits in the queue
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean first = new AtomicBoolean(true);
    cloud.onAccepted(operation -> {
      if (first.getAndSet(false)) {
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).workerThreads(1)
        .leaseDuration(Duration.ofSeconds(3)).meterRegistry(registry).build()) {
      // claimed ahead (version 1), then extended twice by heartbeats (every second) while it waits for the thread;
      // a lease of three seconds keeps the held job's own lease safe on a busy machine
      Awaitility.await().atMost(WAIT).until(() -> version(zop, ids.get(1)) >= 3);
      assertThat(zop.jobs().get(ids.get(1)).status()).isEqualTo(JobStatus.PENDING);
      release.countDown();

      for (JobId id : ids) {
        assertThat(zop.jobs().await(id, WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
      }
      // each job claimed once: none had to wait for its lease to run out and be claimed again
      assertThat(registry.get("zop.claims").counter().count()).isEqualTo(3);
    }
  }

  private static long version(EmbeddedProvisioner zop, JobId id) throws Exception {
    try (Connection c = zop.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT version FROM provisioning_jobs WHERE id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }
}
