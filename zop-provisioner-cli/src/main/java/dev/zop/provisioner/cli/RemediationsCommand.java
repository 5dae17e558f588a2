package dev.zop.provisioner.cli;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "remediations", mixinStandardHelpOptions = true, description = "Remediation workflows.",
    subcommands = {RemediationsCommand.Start.class, RemediationsCommand.Approve.class,
        RemediationsCommand.Reject.class, RemediationsCommand.Audit.class, RemediationsCommand.Cancel.class})
final class RemediationsCommand {
  @Command(name = "start", mixinStandardHelpOptions = true,
      description = "Start the workflow a recommendation names, on one resource.")
  static final class Start implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = "--recommendation", required = true,
        description = "the recommendation (template) to act on, e.g. stop-idle-instance")
    String recommendation;

    @Option(names = "--subject", required = true, description = "the resource id, e.g. i-0123456789abcdef0")
    String subject;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.remediations().start(recommendation, SubjectType.RESOURCE, subject));
      }
      return 0;
    }
  }

  /** A step given as a UUID is addressed by its stable id, anything else by its name. */
  static StepRef step(String value) {
    try {
      return StepRef.id(UUID.fromString(value));
    } catch (IllegalArgumentException notAUuid) {
      return StepRef.name(value);
    }
  }

  @Command(name = "approve", mixinStandardHelpOptions = true,
      description = "Approve a workflow's step that waits for approval.")
  static final class Approve implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "the workflow's job id (job_...)")
    String job;

    @Parameters(index = "1", paramLabel = "STEP", description = "step id (UUID) or step name")
    String stepRef;

    @Option(names = "--reason", description = "why, kept in the audit trail")
    String reason;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.remediations().approve(JobId.of(job), step(stepRef), reason));
      }
      return 0;
    }
  }

  @Command(name = "reject", mixinStandardHelpOptions = true,
      description = "Reject a workflow's step that waits for approval; the workflow ends.")
  static final class Reject implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "the workflow's job id (job_...)")
    String job;

    @Parameters(index = "1", paramLabel = "STEP", description = "step id (UUID) or step name")
    String stepRef;

    @Option(names = "--reason", description = "why, kept in the audit trail")
    String reason;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.remediations().reject(JobId.of(job), step(stepRef), reason));
      }
      return 0;
    }
  }

  @Command(name = "audit", mixinStandardHelpOptions = true,
      description = "The workflow's audit trail: who did what, when and why.")
  static final class Audit implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the workflow's job id (job_...)")
    String job;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.remediations().audit(JobId.of(job)));
      }
      return 0;
    }
  }

  @Command(name = "cancel", mixinStandardHelpOptions = true,
      description = "Cancel a remediation that has not finished; it ends cancelled, with the reason in its audit.")
  static final class Cancel implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the workflow's job id (job_...)")
    String job;

    @Option(names = "--reason", description = "why, kept in the audit trail")
    String reason;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.remediations().cancel(JobId.of(job), reason));
      }
      return 0;
    }
  }
}
