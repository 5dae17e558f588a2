package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's meters in a host's registry, after jobs that succeed, retry and fail. */
class EngineMetricsTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void jobsStepsRetriesAndFailuresAreCounted() {
    SimCloud cloud = SimCloud.create();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).meterRegistry(registry).build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "metrics"));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "metrics", account.id()).region("sim-east-1"));
      assertThat(zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("team/one")).id(), WAIT)
          .status()).isEqualTo(JobStatus.SUCCEEDED);
      cloud.throttleNext("kubernetes:CreateCluster", 1);
      assertThat(zop.jobs().await(zop.jobs().submit(space.id(), KubernetesSpec.named("retried").version("1.30")
          .nodeGroup("default", "m5.large", 1, 2)).id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
      cloud.deny("registry:CreateRepository");
      Job denied = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("team/denied")).id(), WAIT);
      assertThat(denied.status()).isEqualTo(JobStatus.FAILED);

      assertThat(registry.get("zop.steps").tags("provider", "sim", "kind", "registry", "outcome", "succeeded")
          .timer().count()).isPositive();
      assertThat(registry.get("zop.steps").tags("kind", "kubernetes", "step", "create-cluster", "outcome",
          "retrying").timer().count()).isEqualTo(1);
      assertThat(registry.get("zop.step.retries").tags("provider", "sim", "kind", "kubernetes").counter().count())
          .isEqualTo(1);
      assertThat(registry.get("zop.step.failures").tags("category", "user_action").counter().count()).isEqualTo(1);
      assertThat(registry.get("zop.step.failures").tags("category", "transient").counter().count()).isEqualTo(1);
      assertThat(registry.get("zop.claims").counter().count()).isGreaterThanOrEqualTo(3);
      // by kind and status: a registry and a cluster succeeded, a registry failed
      assertThat(registry.get("zop.jobs").tags("kind", "registry", "status", "succeeded").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("zop.jobs").tags("kind", "kubernetes", "status", "succeeded").gauge().value())
          .isEqualTo(1);
      assertThat(registry.get("zop.jobs").tags("kind", "registry", "status", "failed").gauge().value()).isEqualTo(1);
      assertThat(registry.get("zop.jobs").tags("status", "succeeded").gauges().stream()
          .mapToDouble(io.micrometer.core.instrument.Gauge::value).sum()).isEqualTo(2);
      // the engine's own pool reports beside it
      assertThat(registry.get("hikaricp.connections").tags("pool", "zop-provisioner").gauge().value())
          .isPositive();
    }
  }
}
