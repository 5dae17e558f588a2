package dev.zop.provisioner.cli;

import dev.zop.provisioner.Drift;
import dev.zop.provisioner.DriftReport;
import dev.zop.provisioner.ImportRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.spec.ResourceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "jobs", mixinStandardHelpOptions = true, description = "Provisioning jobs.",
    subcommands = {JobsCommand.ListJobs.class, JobsCommand.Get.class, JobsCommand.Submit.class,
        JobsCommand.PlanJob.class, JobsCommand.Watch.class, JobsCommand.Retry.class, JobsCommand.Delete.class, JobsCommand.Events.class,
        JobsCommand.Patch.class, JobsCommand.Diff.class, JobsCommand.Apply.class, JobsCommand.Revisions.class,
        JobsCommand.DriftCheck.class, JobsCommand.Reconcile.class, JobsCommand.Import.class})
final class JobsCommand {
  /** A job's statuses as the service writes them, for shell completion. */
  static final class Statuses extends ArrayList<String> {
    Statuses() {
      super(java.util.Arrays.stream(JobStatus.values()).map(JobStatus::wireName).toList());
    }
  }

  /** The orders a list takes, for shell completion. */
  static final class Orders extends ArrayList<String> {
    Orders() {
      super(List.of("newest", "oldest"));
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true,
      description = "List jobs, newest first, a page at a time.")
  static final class ListJobs implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = "--space", description = "only the jobs of this space (spc_...)")
    String space;

    @Option(names = "--status", split = ",", completionCandidates = Statuses.class,
        description = "only jobs in these statuses, e.g. failed,running")
    List<String> statuses = List.of();

    @Option(names = "--limit", defaultValue = "50", description = "jobs per page (default 50)")
    int limit;

    @Option(names = "--cursor", description = "the next page, from the previous page's nextCursor")
    String cursor;

    @Option(names = "--order", defaultValue = "newest", completionCandidates = Orders.class,
        description = "newest (the default) or oldest first")
    String order;

    @Override
    public Integer call() {
      JobQuery query = JobQuery.all().limit(limit).order(ListOrder.fromWire(order));
      if (space != null) {
        query = query.withSpace(SpaceId.of(space));
      }
      if (!statuses.isEmpty()) {
        query = query.withStatuses(
            statuses.stream().map(JobStatus::fromWire).collect(java.util.stream.Collectors.toSet()));
      }
      if (cursor != null) {
        query = query.after(cursor);
      }
      try (Provisioner zop = client.client()) {
        client.show(zop.jobs().list(query));
      }
      return 0;
    }
  }

  @Command(name = "get", mixinStandardHelpOptions = true,
      description = "Show one job: its status, steps, outputs (never secrets) and last failure.")
  static final class Get implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.jobs().get(JobId.of(id)));
      }
      return 0;
    }
  }

  @Command(name = "submit", mixinStandardHelpOptions = true, description = "Submit the job a JSON or YAML file "
      + "describes ({spaceID, kind, config, name, tags}, as the REST body).")
  static final class Submit implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = {"-f", "--file"}, required = true, description = "the job file, YAML or JSON")
    Path file;

    @Option(names = "--space", description = "the space to submit into, in place of the file's spaceID")
    String space;

    @Option(names = "--idempotency-key",
        description = "the same key again answers with the job it made, instead of a second job")
    String key;

    @Option(names = "--watch", description = "follow the job's progress until it ends (and print its page in the"
        + " web console)")
    boolean watch;

    @Override
    public Integer call() throws IOException, InterruptedException {
      JobFile job = JobFile.read(file, space);
      try (Provisioner zop = client.client()) {
        Job submitted = zop.jobs().submit(job.spaceId(), job.spec(),
            new SubmitOptions(key, job.name(), job.tags()));
        // on stderr, so stdout stays the job (or its id) for scripts
        zop.jobs().events(submitted.id(), 0).stream()
            .filter(e -> e.type() == JobEventType.WARNING || e.type() == JobEventType.GUARDRAIL_WARNING
                || e.type() == JobEventType.GUARDRAIL_DECISION)
            .forEach(e -> System.err.println((e.type() == JobEventType.GUARDRAIL_DECISION ? "held: " : "warning: ")
                + e.message()));
        if (!watch) {
          client.show(submitted);
          return 0;
        }
        // the id first, so a person (or a script) can come back to the job after interrupting the watch
        System.out.println(client.quiet ? submitted.id().value() : "job " + submitted.id());
        return Watch.follow(zop, submitted.id(), client);
      }
    }
  }

  /** The job's page in the service's web console. */
  static String consoleUrl(ClientOptions client, JobId id) {
    String base = client.baseUrl();
    return (base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/ui/#/jobs/"
        + java.net.URLEncoder.encode(id.value(), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Command(name = "plan", mixinStandardHelpOptions = true,
      description = "Show the steps, IAM operations and monthly cost of a job file; nothing changes.")
  static final class PlanJob implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = {"-f", "--file"}, required = true, description = "the job file, YAML or JSON")
    Path file;

    @Option(names = "--space", description = "the space to plan in, in place of the file's spaceID")
    String space;

    @Override
    public Integer call() throws IOException {
      JobFile job = JobFile.read(file, space);
      try (Provisioner zop = client.client()) {
        // with the file's name and tags: guardrails read them
        Plan plan = zop.jobs().plan(job.spaceId(), job.spec(), new SubmitOptions(null, job.name(), job.tags()));
        plan.warnings().forEach(w -> System.err.println("warning: " + w.message() + " (" + w.code() + ")"));
        client.show(plan, () -> describe(plan));
        // a plan a guardrail denies would be refused: say so in the exit code, as a submit's refusal does
        return plan.verdicts().stream()
            .anyMatch(v -> v.outcome() == dev.zop.provisioner.GuardrailVerdict.Outcome.DENIED) ? Zop.REFUSED : 0;
      }
    }

    /** The plan as a person reads it: the steps with their operations, each priced line, and the total. */
    static String describe(Plan plan) {
      StringBuilder out = new StringBuilder(plan.kind().wireName() + " on " + plan.provider()
          + (plan.region() == null ? "" : " in " + plan.region()) + "\n");
      out.append("steps:\n");
      plan.steps().forEach(s -> out.append("  ").append(s.name())
          .append(s.permissions().isEmpty() ? "" : " (" + String.join(", ", s.permissions()) + ")").append('\n'));
      out.append("costs:\n");
      plan.costs().forEach(c -> out.append("  ").append(c.name()).append(": ")
          .append(c.priceKnown() ? Costs.money(c.monthly()) + " a month" : "unknown")
          .append(c.source() == null ? "" : " [" + c.source() + "]").append('\n'));
      out.append("monthly: ").append(Costs.total(plan.monthlyTotal(), plan.complete()));
      if (plan.monthlyTotalAtMax().compareTo(plan.monthlyTotal()) != 0) {
        out.append(", at maximum size ").append(Costs.total(plan.monthlyTotalAtMax(), plan.complete()));
      }
      out.append('\n');
      Costs.unknownLines(out, plan.costs());
      GuardrailsCommand.describe(out, plan.verdicts());
      return out.toString().stripTrailing();
    }
  }

  @Command(name = "watch", mixinStandardHelpOptions = true,
      description = "Follow a job with a live progress bar until it ends; exit 0 if it succeeded, 4 if it failed.")
  static final class Watch implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Override
    public Integer call() throws InterruptedException {
      try (Provisioner zop = client.client()) {
        return follow(zop, JobId.of(id), client);
      }
    }

    /**
     * Follows the job to its end, first printing its page in the web console; quiet, it prints no progress, only
     * a failure (on stderr).
     */
    static int follow(Provisioner zop, JobId id, ClientOptions client) throws InterruptedException {
      boolean quiet = client.quiet;
      if (!quiet) {
        System.out.println("console: " + consoleUrl(client, id));
      }
      // Events only wake this thread; all printing happens here, so nothing reaches stdout after the
      // command returns. The bounded wait re-reads the job if the event stream drops silently.
      // a terminal gets one line redrawn in place; a pipe or file gets a line for each change, no \r frames
      boolean terminal = System.console() != null;
      BlockingQueue<Object> wake = new LinkedBlockingQueue<>();
      String shown = null;
      try (Subscription ignored = zop.jobs().watch(id, wake::add)) {
        Job job = zop.jobs().get(id);
        while (!job.status().isTerminal()) {
          String line = bar(job);
          if (quiet) {
            // nothing to show while it runs
          } else if (terminal) {
            System.out.print("\r" + line + " ".repeat(8));
          } else if (!line.equals(shown)) {
            System.out.println(line);
          }
          shown = line;
          System.out.flush();
          wake.poll(2, TimeUnit.SECONDS);
          wake.clear();
          job = zop.jobs().get(id);
        }
      }
      Job last = zop.jobs().get(id);
      if (!quiet) {
        System.out.println((terminal ? "\r" : "") + bar(last));
      }
      boolean ok = last.status() == JobStatus.SUCCEEDED || last.status() == JobStatus.DELETED;
      if (last.lastFailure() != null && (!quiet || !ok)) {
        (quiet ? System.err : System.out).println(last.lastFailure().category().wireName() + ": "
            + last.lastFailure().message()
            + (last.lastFailure().fixHint() == null ? "" : "\nfix: " + last.lastFailure().fixHint()));
      }
      return ok ? Zop.DONE : Zop.JOB_FAILED;
    }

    static String bar(Job job) {
      List<JobStep> steps = job.steps().stream().filter(s -> s.phase() == job.phase()).toList();
      long done = steps.stream().filter(s -> s.status() == StepStatus.SUCCEEDED).count();
      int width = 20;
      int filled = steps.isEmpty() ? 0 : (int) (width * done / steps.size());
      JobStep current = job.currentStep();
      return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + done + "/" + steps.size() + " "
          + job.status().wireName() + (current == null ? "" : " " + current.name());
    }
  }

  @Command(name = "diff", mixinStandardHelpOptions = true,
      description = "Show what revising a job to a job file's config would change: each field and how, the steps,"
          + " and the monthly cost before and after; nothing changes. Exit 0 when it can be applied.")
  static final class Diff implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = {"-f", "--file"}, required = true,
        description = "the job file with the revised config, YAML or JSON (its spaceID may be left out)")
    Path file;

    @Override
    public Integer call() throws IOException {
      ResourceSpec revised = JobFile.readRevision(file);
      try (Provisioner zop = client.client()) {
        RevisionPlan plan = zop.jobs().planRevision(JobId.of(id), revised);
        client.show(plan, () -> describe(plan));
      }
      return 0;
    }

    /** The plan as a person reads a diff: a line a field, then the steps and the cost. */
    static String describe(RevisionPlan plan) {
      StringBuilder out = new StringBuilder("revision " + plan.revision() + " of " + plan.jobId() + "\n");
      for (RevisionChange change : plan.changes()) {
        out.append(change.effect() == RevisionChange.Effect.REPLACE ? "  -/+ " : "  ~ ").append(change.field())
            .append(": ").append(change.from() == null ? "(none)" : change.from()).append(" -> ")
            .append(change.to() == null ? "(none)" : change.to())
            .append(change.effect() == RevisionChange.Effect.REPLACE ? " (replaced)" : " (in place)")
            .append(change.note() == null ? "" : ": " + change.note()).append('\n');
      }
      for (dev.zop.provisioner.PlanWarning warning : plan.warnings()) {
        out.append("  ! ").append(warning.message()).append(" (").append(warning.code()).append(")\n");
      }
      out.append("steps: ").append(plan.steps().stream().map(s -> s.name()).toList()).append('\n');
      out.append("monthly: ").append(Costs.total(plan.before().monthlyTotal(), plan.before().complete()))
          .append(" -> ").append(Costs.total(plan.after().monthlyTotal(), plan.after().complete()))
          .append(" (").append(Costs.delta(plan.monthlyDelta())).append(")\n");
      Costs.unknownLines(out, plan.after().costs());
      GuardrailsCommand.describe(out, plan.verdicts());
      return out.toString().stripTrailing();
    }
  }

  @Command(name = "apply", mixinStandardHelpOptions = true,
      description = "Revise a succeeded job to a job file's config, as `zop jobs diff` shows it; the job runs its"
          + " update steps.")
  static final class Apply implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = {"-f", "--file"}, required = true,
        description = "the job file with the revised config, YAML or JSON (its spaceID may be left out)")
    Path file;

    @Option(names = "--watch", description = "follow the job's progress until it ends (and print its page in the"
        + " web console)")
    boolean watch;

    @Override
    public Integer call() throws IOException, InterruptedException {
      ResourceSpec revised = JobFile.readRevision(file);
      try (Provisioner zop = client.client()) {
        Job job = zop.jobs().revise(JobId.of(id), revised);
        if (!watch) {
          client.show(job);
          return 0;
        }
        return Watch.follow(zop, job.id(), client);
      }
    }
  }

  @Command(name = "revisions", mixinStandardHelpOptions = true,
      description = "The configs a job was given, oldest first: revision 1 the one it was submitted with.")
  static final class Revisions implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.jobs().revisions(JobId.of(id)));
      }
      return 0;
    }
  }

  @Command(name = "drift", mixinStandardHelpOptions = true,
      description = "Check a succeeded job for drift now: each attribute the cloud has that its config does not"
          + " say, and each resource gone; nothing changes. Exit 0 in sync, 5 drifted (3 stays the service"
          + " unreachable).")
  static final class DriftCheck implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = "--last", description = "show the latest report (a scheduled check's, say) without checking")
    boolean last;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        DriftReport report = last ? zop.jobs().drift(JobId.of(id)) : zop.jobs().checkDrift(JobId.of(id));
        client.show(report, () -> describe(report));
        return report.status() == DriftReport.Status.IN_SYNC ? Zop.DONE : Zop.DRIFTED;
      }
    }

    static String describe(DriftReport report) {
      StringBuilder out = new StringBuilder(report.jobId() + ": " + report.status().wireName() + " (checked "
          + report.checkedAt() + " by " + report.checkedBy() + ", " + report.cloudCalls() + " cloud calls)\n");
      for (Drift drift : report.drifts()) {
        out.append(drift.isMissing() ? "  - " + drift.resource() + ": missing"
            : "  ~ " + drift.resource() + " " + drift.field() + ": expected " + drift.expected() + ", found "
                + (drift.actual() == null ? "(none)" : drift.actual())).append('\n');
      }
      return out.toString().stripTrailing();
    }
  }

  @Command(name = "reconcile", mixinStandardHelpOptions = true,
      description = "Put back what drifted: a revision that re-applies the job's config. With --plan, show what it"
          + " would put back; nothing changes.")
  static final class Reconcile implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = "--plan", description = "show the reconcile's changes and steps without applying it")
    boolean plan;

    @Option(names = "--watch", description = "follow the job's progress until it ends (and print its page in the"
        + " web console)")
    boolean watch;

    @Override
    public Integer call() throws InterruptedException {
      try (Provisioner zop = client.client()) {
        if (plan) {
          RevisionPlan planned = zop.jobs().planReconcile(JobId.of(id));
          client.show(planned, () -> Diff.describe(planned));
          return 0;
        }
        Job job = zop.jobs().reconcile(JobId.of(id));
        if (!watch) {
          client.show(job);
          return 0;
        }
        return Watch.follow(zop, job.id(), client);
      }
    }
  }

  @Command(name = "import", mixinStandardHelpOptions = true,
      description = "Take over resources that exist as a new job: the job file's config (as a submit's) and the"
          + " cloud's id of the main resource (a VPC id, a GKE cluster name, a virtual network name). With --plan,"
          + " show what would be adopted and how the cloud differs from the config; nothing changes.")
  static final class Import implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Option(names = {"-f", "--file"}, required = true, description = "the job file, YAML or JSON")
    Path file;

    @Option(names = "--space", description = "the space to import into, in place of the file's spaceID")
    String space;

    @Option(names = "--id", required = true, description = "the cloud's id of the resource to import")
    String externalId;

    @Option(names = "--plan", description = "show the import's plan without importing")
    boolean plan;

    @Option(names = "--watch", description = "follow the job's progress until it ends (and print its page in the"
        + " web console)")
    boolean watch;

    @Override
    public Integer call() throws IOException, InterruptedException {
      JobFile job = JobFile.read(file, space);
      ImportRequest request = ImportRequest.of(job.spec(), externalId);
      try (Provisioner zop = client.client()) {
        if (plan) {
          client.show(zop.jobs().planImport(job.spaceId(), request));
          return 0;
        }
        Job imported = zop.jobs().importExisting(job.spaceId(), request);
        if (!watch) {
          client.show(imported);
          return 0;
        }
        System.out.println(client.quiet ? imported.id().value() : "job " + imported.id());
        return Watch.follow(zop, imported.id(), client);
      }
    }
  }

  @Command(name = "retry", mixinStandardHelpOptions = true,
      description = "Run a failed job again from the step that failed.")
  static final class Retry implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.jobs().retry(JobId.of(id)));
      }
      return 0;
    }
  }

  @Command(name = "delete", mixinStandardHelpOptions = true, description = "Tear the job's resources down.")
  static final class Delete implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = "--watch", description = "follow the teardown until it ends; exit 0 once deleted, 4 if it failed")
    boolean watch;

    @Override
    public Integer call() throws InterruptedException {
      try (Provisioner zop = client.client()) {
        Job deleting = zop.jobs().delete(JobId.of(id));
        if (!watch) {
          client.show(deleting);
          return 0;
        }
        return Watch.follow(zop, deleting.id(), client);
      }
    }
  }

  @Command(name = "events", mixinStandardHelpOptions = true,
      description = "The job's events: each step's start, end and failure, in order.")
  static final class Events implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = "--after", description = "only events after this sequence number (default 0: all)")
    long after;

    @Override
    public Integer call() {
      try (Provisioner zop = client.client()) {
        client.show(zop.jobs().events(JobId.of(id), after));
      }
      return 0;
    }
  }

  @Command(name = "patch", mixinStandardHelpOptions = true, description = "Rename a job or replace its tags.")
  static final class Patch implements Callable<Integer> {
    @Mixin
    ClientOptions client;

    @Parameters(paramLabel = "JOB_ID", description = "the job's id (job_...)")
    String id;

    @Option(names = "--name", description = "the job's new name")
    String name;

    @Option(names = "--tag", description = "a tag, e.g. --tag team=platform; the given tags replace the job's")
    Map<String, String> tags;

    @Override
    public Integer call() {
      if (name == null && tags == null) {
        throw new IllegalArgumentException("give --name, --tag or both");
      }
      try (Provisioner zop = client.client()) {
        client.show(zop.jobs().update(JobId.of(id), new dev.zop.provisioner.JobPatch(name, tags)));
      }
      return 0;
    }
  }
}
