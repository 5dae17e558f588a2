package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job submitted where the engine has a thread free is written leased to it and run from what the submit
 * wrote, with no claim; where none is free, it is written unleased, for whichever engine claims it first.
 */
class SubmitLeaseTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int JOBS = 20;

  @TempDir Path dir;

  @Test
  void aTrickleOfSubmitsRunsWithNoClaimTransaction() {
    SimCloud cloud = SimCloud.create();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    // polls far apart, so that every claim in the test is one a submit or a finished run asked for
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).workerThreads(4).pollInterval(Duration.ofMinutes(5))
        .meterRegistry(registry).build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "trickle"));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "trickle", account.id()).region("sim-east-1"));
      for (int i = 0; i < JOBS; i++) {
        JobId id = zop.jobs().submit(space.id(), RegistrySpec.named("team/t" + i)).id();
        assertThat(zop.jobs().await(id, WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
      }
      assertThat(registry.get("zop.claims").counter().count()).isEqualTo(JOBS);
      // the poller's look at start-up (and a second if a run ended while it looked). A claim for each submit, or
      // after each run that ended with threads to spare, would make it twenty or forty more.
      assertThat(registry.get("zop.claim.queries").counter().count()).isBetween(1.0, 2.0);
      assertThat(cloud.maxCreateCount()).isEqualTo(1);
    }
  }

  @Test
  void aJobSubmittedWhereNoThreadIsFreeIsLeftForAnotherEngine() throws Exception {
    SimCloud cloud = SimCloud.create();
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch holding = new CountDownLatch(1);
    AtomicBoolean first = new AtomicBoolean(true);
    cloud.onAccepted(operation -> {
      if (first.getAndSet(false)) {
        holding.countDown();
        try {
          release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    try (PostgresTestDatabase db = PostgresTestDatabase.create();
        EmbeddedProvisioner a = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).instanceId("a")
            .workerThreads(1).build()) {
      Space space = EngineBehaviour.newSpace(a, "busy");
      Job held = a.jobs().submit(space.id(), RegistrySpec.named("team/held"));
      assertThat(holding.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue(); // a's one thread is in its cloud call
      assertThat(leaseOwner(a, held.id())).isEqualTo("a");

      Job waiting = a.jobs().submit(space.id(), RegistrySpec.named("team/waiting"));
      assertThat(leaseOwner(a, waiting.id())).isNull();
      try (EmbeddedProvisioner b = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).instanceId("b")
          .workerThreads(1).build()) {
        // a's only thread is still held: b ran it
        assertThat(b.jobs().await(waiting.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(a.jobs().get(held.id()).status()).isEqualTo(JobStatus.RUNNING);
      } finally {
        release.countDown();
      }
      assertThat(a.jobs().await(held.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(cloud.maxCreateCount()).isEqualTo(1);
      Awaitility.await().atMost(WAIT).until(() -> leaseOwner(a, held.id()) == null);
    }
  }

  private static String leaseOwner(EmbeddedProvisioner zop, JobId id) throws Exception {
    try (Connection c = zop.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT lease_owner FROM provisioning_jobs WHERE id = ?")) {
      ps.setString(1, id.value());
      try (ResultSet rs = ps.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getString(1);
      }
    }
  }
}
