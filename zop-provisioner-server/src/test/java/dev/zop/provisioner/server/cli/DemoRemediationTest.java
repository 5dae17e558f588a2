package dev.zop.provisioner.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * {@code zop serve --demo} shows the documents' remediation flow end to end: the document's own request starts a
 * workflow on a VM the simulated cloud runs, it waits for approval, and once approved the VM stops.
 */
class DemoRemediationTest {
  @Test
  void theDocumentsRemediationRequestWaitsForApprovalThenStopsTheVm() throws Exception {
    SimCloud cloud = ServeCommand.demoCloud();
    Path dir = Files.createTempDirectory("zop-demo-remediation");
    try (EmbeddedProvisioner engine = TestEngines.h2(dir, cloud).build()) {
      ServeCommand.demoSpace(engine);
      // a second start (zop serve --demo again on the same store) records the same recommendations once
      ServeCommand.demoSpace(engine);
      Provisioner demo = engine.as(new Principal(ServeCommand.DEMO_ORG, "you@example.com", Set.of(Policies.ADMIN)));
      assertThat(demo.remediations().recommendations()).extracting(r -> r.id())
          .containsExactlyInAnyOrder("rec_abc123", "rec_idle_vm");

      // POST /remediation-jobs as the provisioning document writes it
      RemediationJob started = demo.remediations().start("rec_abc123", SubjectType.RESOURCE, "i-0123456789abcdef0");
      Awaitility.await().atMost(Duration.ofSeconds(60))
          .until(() -> demo.remediations().get(started.id()).status() == JobStatus.AWAITING_USER);
      assertThat(cloud.workloadState("i-0123456789abcdef0")).isEqualTo("running");

      demo.remediations().approve(started.id(), StepRef.name("approval"), "off-hours window");
      RemediationJob done = demo.remediations().await(started.id(), Duration.ofSeconds(60));
      assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(cloud.workloadState("i-0123456789abcdef0")).isEqualTo("stopped");
      assertThat(demo.remediations().audit(started.id())).extracting(a -> a.eventType()).contains("approved");
    }
  }
}
