package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.testkit.EngineCrashes;
import dev.zop.provisioner.spec.NetworkSpec;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ec2.Ec2Client;

/** An engine dies after AWS created a subnet and before it heard; another engine finishes without a duplicate. */
class AwsCrashResumeIT {
  private static final MotoServer MOTO = MotoServer.get();

  @TempDir Path dir;

  @Test
  void aSecondEngineAdoptsWhatTheCrashedOneCreated() throws Exception {
    MOTO.reset();
    SlowCallInterceptor slow = new SlowCallInterceptor("CreateSubnet");
    EmbeddedProvisioner first = engine(AwsProvider.withInterceptors(slow), "engine-a");
    CloudAccount account = first.accounts().create(CloudAccountRequest.of("aws", "moto")
        .property("endpoint", MOTO.endpoint()));
    Space space = first.spaces().create(SpaceRequest.of("aws", "crash-us-east-1", account.id()).region("us-east-1"));
    Job job = first.jobs().submit(space.id(), NetworkSpec.named("crashy").cidr("10.7.0.0/16")
        .subnet("a", "10.7.1.0/24").subnet("b", "10.7.2.0/24").build());

    slow.awaitReached(); // subnet a exists in moto; engine A is waiting for the answer
    EngineCrashes.simulateCrash(first);

    try (EmbeddedProvisioner second = engine(new AwsProvider(), "engine-b")) {
      Job done = second.jobs().await(job.id(), Duration.ofSeconds(60));
      assertThat(done.status()).as("%s", done.lastFailure()).isEqualTo(JobStatus.SUCCEEDED);

      Ec2Client ec2 = MOTO.client(Ec2Client.builder());
      String vpc = done.outputs().get("vpcId");
      assertThat(ec2.describeVpcs().vpcs().stream().filter(v -> !v.isDefault())).hasSize(1);
      assertThat(ec2.describeSubnets(r -> r.filters(f -> f.name("vpc-id").values(vpc))).subnets())
          .extracting(s -> s.cidrBlock()).containsExactlyInAnyOrder("10.7.1.0/24", "10.7.2.0/24");

      assertThat(second.jobs().await(second.jobs().delete(job.id()).id(), Duration.ofSeconds(60)).status())
          .isEqualTo(JobStatus.DELETED);
      assertThat(ec2.describeVpcs().vpcs().stream().filter(v -> !v.isDefault())).isEmpty();
    }
  }

  private EmbeddedProvisioner engine(AwsProvider provider, String id) {
    return EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false)
        .provider(provider.pollingEvery(Duration.ofMillis(50))).instanceId(id)
        .leaseDuration(Duration.ofSeconds(1)).pollInterval(Duration.ofMillis(20)).build();
  }
}
