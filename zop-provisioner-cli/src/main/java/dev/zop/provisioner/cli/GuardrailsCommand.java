package dev.zop.provisioner.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailId;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.wire.WireJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "guardrails", mixinStandardHelpOptions = true,
    description = "Limits on what may be made, checked on every plan; and the approvals of the jobs they hold.",
    subcommands = {GuardrailsCommand.ListGuardrails.class, GuardrailsCommand.Get.class, GuardrailsCommand.Create.class,
        GuardrailsCommand.Update.class, GuardrailsCommand.Delete.class, GuardrailsCommand.Versions.class,
        GuardrailsCommand.Approve.class, GuardrailsCommand.Reject.class, GuardrailsCommand.Decisions.class,
        GuardrailsCommand.TryOut.class, GuardrailsCommand.Exempt.class, GuardrailsCommand.Exemptions.class, GuardrailsCommand.RevokeExemption.class})
final class GuardrailsCommand {
  private GuardrailsCommand() {}

  /** A guardrail file: the REST body, {name, level, rule: {type, ...}, scope, approverGrant, ...}, YAML or JSON. */
  static GuardrailRequest read(Path file) throws IOException {
    ObjectMapper yaml = WireJson.strict().copyWith(new YAMLFactory());
    try {
      return yaml.readValue(Files.readString(file), GuardrailRequest.class);
    } catch (NoSuchFileException e) {
      throw new IOException(file + ": no such file");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IOException(file + ": " + e.getOriginalMessage());
    }
  }

  /** One line a guardrail: its name, version, level and rule's type. */
  static String line(Guardrail g) {
    return g.name() + " v" + g.version() + " " + g.level().wireName() + " "
        + WireJson.lenient().valueToTree(g.rule()).path("type").asText() + (g.enabled() ? "" : " (disabled)")
        + "  " + g.id();
  }

  /** Each verdict as a person reads it: what broke, where, and how to fix it. */
  static void describe(StringBuilder out, List<GuardrailVerdict> verdicts) {
    if (verdicts.isEmpty()) {
      return;
    }
    out.append("guardrails:\n");
    for (GuardrailVerdict v : verdicts) {
      out.append("  ").append(v.name()).append(" v").append(v.version()).append(": ")
          .append(v.outcome().wireName());
      if (v.outcome() != GuardrailVerdict.Outcome.PASSED) {
        out.append(v.field() == null ? "" : " at " + v.field()).append(": ").append(v.message());
        if (v.fixHint() != null) {
          out.append("\n    fix: ").append(v.fixHint());
        }
      }
      out.append('\n');
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "The organisation's guardrails, by name.")
  static final class ListGuardrails implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        List<Guardrail> all = zop.guardrails().list();
        client.show(all, () -> all.isEmpty() ? "no guardrails"
            : String.join("\n", all.stream().map(GuardrailsCommand::line).toList()));
      }
      return 0;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true, description = "A guardrail's latest version, or one.")
  static final class Get implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "ID", description = "the guardrail's id (grd_...)")
    String id;

    @Option(names = "--version", description = "this version rather than the latest")
    Integer version;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        GuardrailId guardrail = GuardrailId.of(id);
        client.show(version == null ? zop.guardrails().get(guardrail) : zop.guardrails().get(guardrail, version));
      }
      return 0;
    }
  }

  @Command(name = "create", mixinStandardHelpOptions = true,
      description = "Make a guardrail from a YAML or JSON file (the REST body).")
  static final class Create implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = {"-f", "--file"}, required = true, description = "the guardrail file")
    Path file;

    @Override
    public Integer call() throws IOException {
      GuardrailRequest request = read(file);
      try (Provisioner zop = client.client()) {
        Guardrail made = zop.guardrails().create(request);
        client.show(made, () -> line(made));
      }
      return 0;
    }
  }

  @Command(name = "update", mixinStandardHelpOptions = true,
      description = "Make a guardrail's next version from a file of the fields to change.")
  static final class Update implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "ID", description = "the guardrail's id (grd_...)")
    String id;

    @Option(names = {"-f", "--file"}, required = true, description = "the fields to change")
    Path file;

    @Override
    public Integer call() throws IOException {
      GuardrailRequest request = read(file);
      try (Provisioner zop = client.client()) {
        Guardrail next = zop.guardrails().update(GuardrailId.of(id), request);
        client.show(next, () -> line(next));
      }
      return 0;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true,
      description = "Delete a guardrail: no longer checked; its versions stay readable.")
  static final class Delete implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "ID", description = "the guardrail's id (grd_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        Guardrail gone = zop.guardrails().delete(GuardrailId.of(id));
        client.show(gone, () -> "deleted " + gone.name() + " at version " + gone.version());
      }
      return 0;
    }
  }

  @Command(name = "versions", mixinStandardHelpOptions = true, description = "Every version of a guardrail.")
  static final class Versions implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "ID", description = "the guardrail's id (grd_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        List<Guardrail> all = zop.guardrails().versions(GuardrailId.of(id));
        client.show(all, () -> String.join("\n", all.stream()
            .map(g -> line(g) + "  by " + g.createdBy() + " at " + g.createdAt() + (g.deleted() ? " (deleted)" : ""))
            .toList()));
      }
      return 0;
    }
  }

  /** A person's decision on a held job: the job, and why. */
  abstract static class Decide implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String job;

    @Option(names = "--reason", description = "why, kept in the audit trail")
    String reason;

    abstract dev.zop.provisioner.Job decide(Provisioner zop, JobId id, String why);

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(decide(zop, JobId.of(job), reason));
      }
      return 0;
    }
  }

  @Command(name = "approve", mixinStandardHelpOptions = true,
      description = "Approve a job guardrails hold awaiting approval; it runs.")
  static final class Approve extends Decide {
    @Override
    dev.zop.provisioner.Job decide(Provisioner zop, JobId id, String why) {
      return zop.guardrails().approve(id, why);
    }
  }

  @Command(name = "reject", mixinStandardHelpOptions = true,
      description = "Reject a job guardrails hold: a new job or an import is cancelled, a revision or retry undone.")
  static final class Reject extends Decide {
    @Override
    dev.zop.provisioner.Job decide(Provisioner zop, JobId id, String why) {
      return zop.guardrails().reject(id, why);
    }
  }

  @Command(name = "decisions", mixinStandardHelpOptions = true,
      description = "What guardrails decided on a job, oldest first; without a job, the organisation's latest.")
  static final class Decisions implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", arity = "0..1", paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String job;

    @Option(names = "--limit", defaultValue = "100", description = "without a job: how many, newest first")
    int limit;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        var all = job == null ? zop.guardrails().decisions(limit) : zop.guardrails().decisions(JobId.of(job));
        client.show(all, () -> String.join("\n", all.stream().map(d -> d.decidedAt() + " " + d.action() + " "
            + d.outcome().wireName() + " by " + d.actor() + (d.jobId() == null ? " (no job)" : " " + d.jobId())
            + " (plan " + d.planHash().substring(0, 12) + ")").toList()));
      }
      return 0;
    }
  }

  @Command(name = "try", mixinStandardHelpOptions = true, description = "Try a guardrail file without saving it: what"
      + " it would have done to recent changes, and which jobs break it today.")
  static final class TryOut implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = {"-f", "--file"}, required = true, description = "the guardrail file")
    Path file;

    @Option(names = "--last", defaultValue = "100", description = "how many recent changes to try it on")
    int last;

    @Override
    public Integer call() throws IOException {
      GuardrailRequest request = read(file);
      try (Provisioner zop = client.client()) {
        var trial = zop.guardrails().tryOut(request, last);
        client.show(trial, () -> {
          StringBuilder out = new StringBuilder("recent changes: " + trial.plans().size() + " of "
              + trial.plansChecked() + " would not pass\n");
          trial.plans().forEach(f -> out.append("  ").append(f.at()).append(' ').append(f.action()).append(' ')
              .append(f.jobId() == null ? "(refused, no job)" : f.jobId()).append(": ")
              .append(f.verdict().outcome().wireName()).append(": ").append(f.verdict().message()).append('\n'));
          out.append("jobs today: ").append(trial.jobs().size()).append(" of ").append(trial.jobsChecked())
              .append(" break it\n");
          trial.jobs().forEach(f -> out.append("  ").append(f.jobId()).append(": ")
              .append(f.verdict().outcome().wireName()).append(": ").append(f.verdict().message()).append('\n'));
          return out.toString().stripTrailing();
        });
      }
      return 0;
    }
  }

  @Command(name = "exempt", mixinStandardHelpOptions = true,
      description = "Let one job, or every job of one space, break a guardrail until a moment.")
  static final class Exempt implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "GUARDRAIL_ID", description = "the guardrail's id (grd_...)")
    String guardrail;

    @Option(names = "--job", description = "the job it covers")
    String job;

    @Option(names = "--space", description = "the space it covers: every job in it")
    String space;

    @Option(names = "--reason", required = true, description = "why, kept with it")
    String reason;

    @Option(names = "--for", required = true, paramLabel = "DURATION",
        description = "how long it lasts, as 90m, 12h or 7d (at most a year)")
    String lasting;

    @Override
    public Integer call() {
      java.time.Instant until = java.time.Instant.now().plus(duration(lasting));
      try (Provisioner zop = client.client()) {
        var made = zop.guardrails().exempt(new dev.zop.provisioner.GuardrailExemptionRequest(
            GuardrailId.of(guardrail), job == null ? null : JobId.of(job),
            space == null ? null : dev.zop.provisioner.SpaceId.of(space), reason, until));
        client.show(made, () -> made.id() + " until " + made.expiresAt());
      }
      return 0;
    }

    static java.time.Duration duration(String text) {
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,6})([mhd])").matcher(text.trim());
      if (!m.matches()) {
        throw new IllegalArgumentException("--for is a number and m, h or d (90m, 12h, 7d), not " + text);
      }
      long n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "m" -> java.time.Duration.ofMinutes(n);
        case "h" -> java.time.Duration.ofHours(n);
        default -> java.time.Duration.ofDays(n);
      };
    }
  }

  @Command(name = "exemptions", mixinStandardHelpOptions = true,
      description = "The organisation's exemptions, newest first, expired and revoked ones included.")
  static final class Exemptions implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        var all = zop.guardrails().exemptions();
        java.time.Instant now = java.time.Instant.now();
        client.show(all, () -> all.isEmpty() ? "no exemptions" : String.join("\n", all.stream().map(e -> e.id() + " "
            + e.guardrailId() + " " + (e.jobId() != null ? "job " + e.jobId() : "space " + e.spaceId()) + " until "
            + e.expiresAt() + " by " + e.grantedBy() + (e.revokedAt() != null ? " (revoked)"
                : e.inForce(now) ? "" : " (expired)") + ": " + e.reason()).toList()));
      }
      return 0;
    }
  }

  @Command(name = "revoke-exemption", mixinStandardHelpOptions = true,
      description = "Revoke an exemption: it stops applying at once.")
  static final class RevokeExemption implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(index = "0", paramLabel = "EXEMPTION_ID", description = "the exemption's id (exm_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        var revoked = zop.guardrails().revokeExemption(id);
        client.show(revoked, () -> "revoked " + revoked.id());
      }
      return 0;
    }
  }
}
