package dev.zop.provisioner.examples;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.aws.AwsProvider;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import java.nio.file.Files;
import java.time.Duration;

/**
 * The quickstart's flow on AWS: a network, a registry and a PostgreSQL datastore, planned, provisioned and torn
 * down. It runs only against an endpoint you name in {@code ZOP_AWS_ENDPOINT} (a moto server, say:
 * {@code moto_server -H 127.0.0.1 -p 5000} and {@code ZOP_AWS_ENDPOINT=http://127.0.0.1:5000}), so it never
 * touches a real account by accident.
 */
public final class AwsTour {
  public static void main(String[] args) throws Exception {
    String endpoint = System.getenv("ZOP_AWS_ENDPOINT");
    if (endpoint == null || endpoint.isBlank()) {
      System.out.println("Set ZOP_AWS_ENDPOINT to an AWS emulator (e.g. http://127.0.0.1:5000 for moto_server).");
      return;
    }
    // an emulator takes any keys; the default chain reads these when the environment has none
    if (System.getenv("AWS_ACCESS_KEY_ID") == null) {
      System.setProperty("aws.accessKeyId", "test");
      System.setProperty("aws.secretAccessKey", "test");
    }
    try (Provisioner zop = EmbeddedProvisioner.builder()
        .dataDirectory(Files.createTempDirectory("zop-aws-tour")).discoverProviders(false)
        .provider(new AwsProvider().pollingEvery(Duration.ofSeconds(1))).build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("aws", "emulator")
          .property("endpoint", endpoint));
      Space space = zop.spaces().create(SpaceRequest.of("aws", "tour-us-east-1", account.id()).region("us-east-1"));

      NetworkSpec network = NetworkSpec.named("tour").cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24")
          .subnet("b", "10.0.2.0/24").dnsZone("tour.internal.example.com").build();
      DatastoreSpec database = DatastoreSpec.postgres().name("tour-db").version("16.3")
          .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7).build();
      for (Plan plan : new Plan[] {zop.jobs().plan(space.id(), network), zop.jobs().plan(space.id(), database)}) {
        System.out.println("\nPlan " + plan.kind().wireName() + ": " + plan.steps().size() + " steps, $"
            + plan.monthlyTotal() + "/month" + (plan.complete() ? "" : " (some prices unknown)"));
        System.out.println("  IAM: " + String.join(", ", plan.permissions()));
      }

      Job[] jobs = {zop.jobs().submit(space.id(), network), zop.jobs().submit(space.id(), RegistrySpec.named("tour/api")),
          zop.jobs().submit(space.id(), database)};
      for (Job job : jobs) {
        try (Subscription s = zop.jobs().watch(job.id(), e -> {
          if (e.type() == JobEventType.STEP_SUCCEEDED || e.type() == JobEventType.STEP_FAILED) {
            System.out.println("  [" + e.jobId().value().substring(4, 10) + "] " + e.type().wireName() + " "
                + e.stepName());
          }
        })) {
          Job done = zop.jobs().await(job.id(), Duration.ofMinutes(5));
          Thread.sleep(300);
          System.out.println(done.kind().wireName() + " " + done.status().wireName() + ": " + done.outputs());
        }
      }
      for (Job job : jobs) {
        System.out.println("teardown " + job.kind().wireName() + ": "
            + zop.jobs().await(zop.jobs().delete(job.id()).id(), Duration.ofMinutes(5)).status().wireName());
      }
    }
  }
}
