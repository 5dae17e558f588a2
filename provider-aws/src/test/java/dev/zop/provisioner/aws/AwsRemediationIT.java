package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.rds.RdsClient;

/** Stop-idle remediations of EC2 and RDS instances, through the AWS remediation actions, on moto. */
class AwsRemediationIT {
  private static final MotoServer MOTO = MotoServer.get();
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private EmbeddedProvisioner zop;
  private CloudAccount account;
  private Ec2Client ec2;
  private RdsClient rds;

  @BeforeEach
  void start() {
    MOTO.reset();
    zop = EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false).provider(new AwsProvider().pollingEvery(Duration.ofMillis(50)))
        .pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(5, Duration.ofMillis(20), Duration.ofMillis(200)))
        .build();
    account = zop.accounts().create(CloudAccountRequest.of("aws", "moto").property("endpoint", MOTO.endpoint()));
    ec2 = MOTO.client(Ec2Client.builder());
    rds = MOTO.client(RdsClient.builder());
  }

  @AfterEach
  void stop() {
    zop.close();
  }

  private RemediationJob remediate(String type, String id) throws InterruptedException {
    zop.remediations().putRecommendation(new Recommendation("rec-" + id, "aws", account.id(), "us-east-1", type, id,
        "stop"));
    RemediationJob job = zop.remediations().start("rec-" + id, SubjectType.RESOURCE, id);
    await().atMost(WAIT).until(() -> zop.remediations().get(job.id()).status() == JobStatus.AWAITING_USER);
    zop.remediations().approve(job.id(), StepRef.name("approval"), "idle for 14 days");
    return zop.remediations().await(job.id(), WAIT);
  }

  @Test
  void stopsAnIdleEc2Instance() throws Exception {
    String instance = ec2.runInstances(r -> r.imageId("ami-12c6146b").instanceType("t3.micro").minCount(1)
        .maxCount(1)).instances().get(0).instanceId();

    RemediationJob done = remediate("ec2-instance", instance);

    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(ec2.describeInstances(r -> r.instanceIds(instance)).reservations().get(0).instances().get(0)
        .state().nameAsString()).isEqualTo("stopped");
  }

  @Test
  void stopsAnIdleRdsInstance() throws Exception {
    rds.createDBInstance(r -> r.dbInstanceIdentifier("orders-db").engine("postgres").dbInstanceClass("db.t3.micro")
        .allocatedStorage(20).masterUsername("admin").masterUserPassword("not-a-real-password"));

    RemediationJob done = remediate("rds-instance", "orders-db");

    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(rds.describeDBInstances(r -> r.dbInstanceIdentifier("orders-db")).dbInstances().get(0)
        .dbInstanceStatus()).isEqualTo("stopped");
  }
}
