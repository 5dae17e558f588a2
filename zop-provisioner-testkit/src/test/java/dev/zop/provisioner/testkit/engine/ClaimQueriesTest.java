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
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A claim is a transaction whether or not it finds a job. With threads to spare, every due job was claimed, so a
 * run that ends has freed a thread nobody waits for: it does not send the poller to claim again.
 */
class ClaimQueriesTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final int JOBS = 20;

  @TempDir Path dir;

  @Test
  void aTrickleOfSubmitsCostsOneClaimAJob() {
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
      // the poller's first look at start-up, then one claim a submit; a claim after each finished run as well
      // would make it about twice as many
      assertThat(registry.get("zop.claim.queries").counter().count()).isBetween((double) JOBS, JOBS + 2.0);
    }
  }
}
