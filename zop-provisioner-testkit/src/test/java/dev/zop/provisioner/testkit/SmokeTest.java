package dev.zop.provisioner.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.testkit.sim.SimCloud;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SmokeTest {
  @TempDir Path dir;

  @Test
  void clusterLifecycle() {
    SimCloud cloud = SimCloud.create();
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "test"));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "s1", account.id()).region("sim-east-1"));
      Job job = zop.jobs().submit(space.id(), KubernetesSpec.named("c1").version("1.30")
          .nodeGroup("default", "m5.large", 1, 3));
      Job done = zop.jobs().await(job.id(), Duration.ofSeconds(20));
      System.out.println(done);
      assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
      Job gone = zop.jobs().await(zop.jobs().delete(job.id()).id(), Duration.ofSeconds(20));
      assertThat(gone.status()).isEqualTo(JobStatus.DELETED);
      assertThat(cloud.resources()).isEmpty();
    }
  }
}
