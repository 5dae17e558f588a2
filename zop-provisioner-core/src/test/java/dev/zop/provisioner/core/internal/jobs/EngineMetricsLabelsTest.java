package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.spec.RegistrySpec;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The step timers' labels stay a bounded set even where a plug-in names its steps after its specs. */
class EngineMetricsLabelsTest {
  @Test
  void stepKindsPastTheLimitAreCountedAsOther() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    EngineMetrics metrics = new EngineMetrics(registry);
    JobRecord job = new JobRecord(JobId.random(), "acme", null, JobType.PROVISIONING, JobKind.REGISTRY, "r",
        Map.of(), "plugin", CloudAccountId.of("ca_1"), "east", RegistrySpec.named("r"), JobStatus.RUNNING,
        JobPhase.CREATE, Map.of(), null, "alice", Instant.now(), Instant.now(), null, 0, null);

    for (int i = 0; i < 1_000; i++) {
      metrics.stepRan(job, "create-" + i, "succeeded", 1_000_000);
    }
    metrics.stepRan(job, "create-7", "succeeded", 1_000_000);

    assertThat(registry.find("zop.steps").timers()).hasSize(EngineMetrics.STEP_LABELS + 1);
    assertThat(registry.get("zop.steps").tag("step", "other").timer().count())
        .isEqualTo(1_000 - EngineMetrics.STEP_LABELS);
    // a kind labelled apart stays labelled apart
    assertThat(registry.get("zop.steps").tag("step", "create-7").timer().count()).isEqualTo(2);
    // another provider's kinds have their own allowance
    JobRecord other = new JobRecord(JobId.random(), "acme", null, JobType.PROVISIONING, JobKind.REGISTRY, "r",
        Map.of(), "sim", CloudAccountId.of("ca_1"), "east", RegistrySpec.named("r"), JobStatus.RUNNING,
        JobPhase.CREATE, Map.of(), null, "alice", Instant.now(), Instant.now(), null, 0, null);
    metrics.stepRan(other, "create-repository", "succeeded", 1_000_000);
    assertThat(registry.get("zop.steps").tag("provider", "sim").timers()).extracting(Timer::getId)
        .extracting(id -> id.getTag("step")).containsExactly("create-repository");
  }
}
