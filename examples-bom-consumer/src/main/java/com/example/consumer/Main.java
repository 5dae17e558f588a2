package com.example.consumer;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.RegistrySpec;
import java.nio.file.Files;
import java.time.Duration;

/** Runs one job on the simulated cloud through the embedded engine; exits 1 if it does not succeed. */
public final class Main {
  public static void main(String[] args) throws Exception {
    try (Provisioner zop = EmbeddedProvisioner.builder().dataDirectory(Files.createTempDirectory("consumer"))
        .build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "consumer"));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "consumer", account.id()).region("sim-east-1"));
      Job job = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("team/app")).id(),
          Duration.ofMinutes(2));
      System.out.println("consumer job " + job.id() + " " + job.status().wireName() + " with "
          + job.outputs().get("repositoryUri"));
      if (job.status() != JobStatus.SUCCEEDED) {
        System.exit(1);
      }
    }
  }
}
