package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.PlanStep;
import dev.zop.provisioner.PlanWarning;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.Step;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Revisions of a job's config: planned as a field-by-field diff the provider classifies (in place, replaced, or
 * refused with the field named), and applied as the job's update-phase steps, which the runner runs like any
 * others. Revisions are sequential: one is applied to a succeeded job; a failed one is retried (or the job deleted)
 * before the next.
 */
public final class JobRevisions {

  private final Database db;
  private final JobRepository jobs;
  private final StatusTransitions transitions;
  private final JobService service;
  private final JobSignals signals;
  private final Runnable wakeWorker;

  JobRevisions(Database db, JobRepository jobs, JobService service, JobSignals signals, Runnable wakeWorker) {
    this.db = db;
    this.jobs = jobs;
    this.transitions = new StatusTransitions(jobs, db.dialect());
    this.service = service;
    this.signals = signals;
    this.wakeWorker = wakeWorker;
  }

  /** A revision checked against the job and its provider: what changes, how, and the steps that change it. */
  private record Prepared(JobRecord job, ResourceSpec current, List<StepRecord> steps,
      List<RevisionRows.RevisionRow> history, JobPlaces.Revised revised, Revision revision,
      List<RevisionChange> changes) {

    int number() {
      return nextNumber(history);
    }
  }

  /**
   * A revision's plan. It reads the cloud first ({@code drift}): a change is shown from the value the cloud has, and
   * a value changed outside the job that the revision's steps set back to the config is shown as a change of its
   * own, so applying it changes nothing the plan did not show.
   */
  public RevisionPlan plan(Principal principal, JobId id, ResourceSpec asked, JobDrift drift) {
    Prepared p = prepare(principal, id, asked);
    List<PlanStep> steps = p.revision().steps().stream().map(s -> new PlanStep(s.name(), s.permissions())).toList();
    var driver = p.revised().driver();
    List<PlanWarning> warnings = new ArrayList<>();
    List<Drift> drifts = drift.observed(p.job());
    List<RevisionChange> changes = p.changes();
    ResourceSpec now = p.current();
    if (drifts == null) {
      warnings.add(new PlanWarning("not_observed", null, p.job().provider() + " cannot read a "
          + p.job().kind().wireName() + " back from the cloud: the changes compare the configs only, and a value"
          + " changed outside the job is not shown"));
    } else {
      changes = fromTheCloud(changes, drifts, p.revised().spec(), p.revision(), warnings);
      // the cost before is what the resources cost now, as the changes start from what the cloud has
      now = asTheCloudHasIt(p.job(), drifts, warnings);
    }
    RevisionPlan plan = new RevisionPlan(id, p.number(), changes, steps,
        RevisionPlan.Cost.of(driver.price(now, p.revised().region())),
        RevisionPlan.Cost.of(driver.price(p.revised().spec(), p.revised().region())), driver.pricesAsOf(),
        p.revised().filled(), warnings);
    GuardrailService.Answer answer = guardrails(principal, p.job(), "revise", p.revised().spec(), driver, now);
    return answer == null ? plan : plan.withVerdicts(answer.verdicts());
  }

  /**
   * The guardrails' answer to changing {@code job} to {@code config} (null when none applies): what it costs now is
   * {@code now} priced, and the space's other jobs are counted without it.
   */
  private GuardrailService.Answer guardrails(Principal principal, JobRecord job, String action, ResourceSpec config,
      ResourceDriver<ResourceSpec> driver, ResourceSpec now) {
    Space space = service.places().place(principal, job.spaceId()).space();
    if (space == null) {
      return null;
    }
    return service.guardrails().answer(principal, action, space, driver, config, job.name(), job.tags(),
        driver.price(now, space.region()), job.id());
  }

  /**
   * The config-to-config changes as the cloud will see them: each drifted field a change from the cloud's value;
   * a drifted field the revision leaves as the config has it, a change back to it where the revision's steps set
   * that field, else a warning that it stays as the cloud has it. A field the cloud already has as revised drops
   * out: nothing changes there.
   */
  private static List<RevisionChange> fromTheCloud(List<RevisionChange> changes, List<Drift> drifts,
      ResourceSpec revised, Revision revision, List<PlanWarning> warnings) {
    Map<String, String> wanted = ConfigPaths.leaves(revised);
    Map<String, RevisionChange> byField = new LinkedHashMap<>();
    changes.forEach(change -> byField.put(change.field(), change));
    for (Drift d : drifts) {
      String to = wanted.get(d.field());
      if (d.isMissing() || to == null) {
        continue; // a whole resource gone, or an attribute the config does not name: a reconcile's, not a plan's
      }
      RevisionChange planned = byField.get(d.field());
      String outside = "changed outside the job: the config had " + d.expected();
      if (Objects.equals(to, d.actual())) {
        byField.remove(d.field());
      } else if (planned != null) {
        byField.put(d.field(), new RevisionChange(d.field(), d.actual(), to, planned.effect(),
            planned.note() == null ? outside : planned.note() + "; " + outside));
      } else if (revision.effectOf(d.field()) != null) {
        byField.put(d.field(), new RevisionChange(d.field(), d.actual(), to, revision.effectOf(d.field()),
            "puts back what was changed outside the job"));
      } else {
        warnings.add(new PlanWarning("drift_kept", d.field(), d.resource() + " has " + d.actual() + " where the"
            + " config has " + to + "; this revision leaves it so: reconcile the job to put it back"));
      }
    }
    return List.copyOf(byField.values());
  }

  public Job revise(Principal principal, JobId id, ResourceSpec asked) {
    Prepared p = prepare(principal, id, asked);
    GuardrailService.Answer answer = service.guardrails().enforce(principal, guardrails(principal, p.job(), "revise",
        p.revised().spec(), p.revised().driver(), p.current()), p.job().spaceId(), id);
    return apply(principal, p.job(), p.steps(), p.history(), p.revised().spec(), p.revision().steps(), false,
        "revision " + p.number() + " requested by " + principal.actor() + ": "
            + String.join(", ", p.changes().stream().map(RevisionChange::field).toList()), answer);
  }

  /** The number the next revision gets: 2 before any (the submitted config is 1), else one past the last. */
  private static int nextNumber(List<RevisionRows.RevisionRow> history) {
    return history.isEmpty() ? 2 : history.get(history.size() - 1).number() + 1;
  }

  /**
   * A reconcile checked against the job and its provider: every drift, those its steps put back, and a warning for
   * each they leave as the cloud has it (a newer Kubernetes version made by hand).
   */
  private record Reconciling(JobRecord job, List<StepRecord> steps, List<RevisionRows.RevisionRow> history,
      List<Drift> drifts, List<Drift> putBack, List<PlanWarning> kept, List<Step> definitions,
      JobSteps.Driving driving) {

    int number() {
      return nextNumber(history);
    }
  }

  private Reconciling reconciling(Principal principal, JobId id, JobDrift drift) {
    record Read(JobRecord job, List<StepRecord> steps, List<RevisionRows.RevisionRow> history) {}
    Read read = db.read(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (job == null || job.jobType() != JobType.PROVISIONING) {
        throw new NotFoundException("job", id);
      }
      return new Read(job, jobs.steps(c, id), RevisionRows.all(c, id));
    });
    List<Drift> drifts = drift.driftsToPutBack(read.job(), principal.actor());
    JobSteps.Driving driving = service.driving(read.job());
    Revision revision = driving.driver().reconcile(read.job().spec(),
        JobSteps.recordedOutputs(read.steps(), Integer.MAX_VALUE));
    List<Drift> putBack = new ArrayList<>();
    List<PlanWarning> kept = new ArrayList<>();
    for (Drift d : drifts) {
      String refusal = revision.refused().stream().filter(e -> covers(e.field(), d.field()))
          .map(FieldError::message).findFirst().orElse(null);
      if (refusal != null || revision.effectOf(d.field()) == null) {
        kept.add(new PlanWarning("not_reconcilable", d.field(), d.resource() + " " + d.field() + " stays "
            + d.actual() + (refusal != null ? ": " + refusal : ": " + read.job().provider() + " cannot put it back")));
      } else {
        putBack.add(d);
      }
    }
    if (putBack.isEmpty() || revision.steps().isEmpty()) {
      throw new ConflictException("not_reconcilable", read.job().provider() + " cannot put back "
          + (kept.isEmpty() ? "what drifted" : String.join(", ", kept.stream().map(PlanWarning::message).toList()))
          + " in a " + read.job().kind().wireName()
          + "; revise the job to what the cloud has, or change the cloud back by hand");
    }
    return new Reconciling(read.job(), read.steps(), read.history(), drifts, putBack, kept, revision.steps(),
        driving);
  }

  /**
   * A reconcile's plan: each drift it puts back a change from the cloud's value back to the config's, in place (a
   * missing resource refuses the reconcile), a warning for each it leaves, and the steps; the cost before is what
   * the cloud has now, after what it will have then (the config, but for what is left as the cloud has it).
   */
  public RevisionPlan planReconcile(Principal principal, JobId id, JobDrift drift) {
    Reconciling r = reconciling(principal, id, drift);
    var driver = r.driving().driver();
    List<PlanWarning> warnings = new ArrayList<>(r.kept());
    List<Drift> stays = r.drifts().stream().filter(d -> !r.putBack().contains(d)).toList();
    var after = RevisionPlan.Cost.of(driver.price(asTheCloudHasIt(r.job(), stays, warnings), r.job().region()));
    var before = RevisionPlan.Cost.of(driver.price(asTheCloudHasIt(r.job(), r.drifts(), warnings),
        r.job().region()));
    RevisionPlan plan = new RevisionPlan(id, r.number(), changes(r.putBack()), r.definitions().stream()
        .map(s -> new PlanStep(s.name(), s.permissions())).toList(), before, after, driver.pricesAsOf(), List.of(),
        warnings.stream().distinct().toList());
    GuardrailService.Answer answer = guardrails(principal, r.job(), "reconcile", r.job().spec(), driver,
        asTheCloudHasIt(r.job(), r.drifts(), new ArrayList<>()));
    return answer == null ? plan : plan.withVerdicts(answer.verdicts());
  }

  /**
   * The job's config with each drifted field of its own at the value the cloud has: what its resources cost now,
   * which a reconcile's plan prices as "before". The config itself, with a warning, when those values make none.
   */
  private static ResourceSpec asTheCloudHasIt(JobRecord job, List<Drift> drifts, List<PlanWarning> warnings) {
    Map<String, String> cloud = new LinkedHashMap<>();
    drifts.stream().filter(d -> !d.isMissing() && d.actual() != null).forEach(d -> cloud.put(d.field(), d.actual()));
    try {
      return ConfigPaths.withValues(job.spec(), cloud);
    } catch (RuntimeException e) {
      warnings.add(new PlanWarning("cost_before_from_config", null, "the values the cloud has make no valid "
          + job.kind().wireName() + " config: the cost before is the config's"));
      return job.spec();
    }
  }

  /** Applies a reconcile: a revision with the config the job has, whose steps put back what drifted. */
  public Job reconcile(Principal principal, JobId id, JobDrift drift) {
    Reconciling r = reconciling(principal, id, drift);
    GuardrailService.Answer answer = service.guardrails().enforce(principal, guardrails(principal, r.job(),
        "reconcile", r.job().spec(), r.driving().driver(), asTheCloudHasIt(r.job(), r.drifts(), new ArrayList<>())),
        r.job().spaceId(), id);
    return apply(principal, r.job(), r.steps(), r.history(), r.job().spec(), r.definitions(), true,
        "reconcile (revision " + r.number() + ") requested by " + principal.actor() + ": puts back "
            + String.join(", ", changes(r.putBack()).stream().map(ch -> ch.note() + " " + ch.field()).toList()),
        answer);
  }

  private static List<RevisionChange> changes(List<Drift> drifts) {
    return drifts.stream().map(d -> new RevisionChange(d.field(), d.actual(), d.expected(),
        RevisionChange.Effect.IN_PLACE, d.resource())).toList();
  }

  /**
   * Writes a revision (and revision 1 before the first) with its update-phase steps, and queues the job; or, when
   * guardrails hold it, leaves it awaiting approval (its failure, if it had one, kept for a rejection to restore).
   */
  private Job apply(Principal principal, JobRecord job, List<StepRecord> existing,
      List<RevisionRows.RevisionRow> history, ResourceSpec config, List<Step> steps, boolean reconcile,
      String message, GuardrailService.Answer answer) {
    boolean held = answer != null && answer.approvalRequired();
    JobId id = job.id();
    int number = nextNumber(history);
    int firstStep = existing.stream().filter(s -> s.phase() == JobPhase.UPDATE).mapToInt(s -> s.index() + 1)
        .max().orElse(0);
    Instant now = Timestamps.now();
    db.tx(c -> {
      if (!jobs.bumpIfUnchanged(c, id, job.version())) {
        throw new ConflictException("concurrent_change", "job " + id + " changed while it was revised; try again");
      }
      if (history.isEmpty()) {
        // the config the job was created with is revision 1
        RevisionRows.insert(c, id, new RevisionRows.RevisionRow(1, Json.write(job.spec()), RevisionRows.APPLIED, 0,
            job.createdBy(), job.createdAt(), job.finishedAt(), false));
      }
      RevisionRows.insert(c, id, new RevisionRows.RevisionRow(number, Json.write(config), RevisionRows.APPLYING,
          firstStep, principal.actor(), now, null, reconcile));
      List<StepRecord> rows = new ArrayList<>();
      for (int i = 0; i < steps.size(); i++) {
        rows.add(StepRecord.pending(id.value(), JobPhase.UPDATE, firstStep + i, steps.get(i).name(),
            steps.get(i).permissions()));
      }
      jobs.addSteps(c, id, rows);
      transitions.move(c, id, held ? StatusTransitions.Move.hold(job.status(), job.failure(), JobPhase.UPDATE, message)
          : StatusTransitions.Move.requeue(job.status(), JobStatus.PENDING, JobPhase.UPDATE, JobEventType.STATUS,
              null, message));
      service.guardrails().written(c, principal, answer, id, job.spaceId(),
          held ? JobStatus.AWAITING_APPROVAL : JobStatus.PENDING);
      return null;
    });
    signals.changed(id);
    if (!held) {
      wakeWorker.run();
    }
    return service.get(principal, id);
  }

  /** The job's configs, oldest first: revision 1 the one it was submitted with. */
  public List<JobRevision> history(Principal principal, JobId id) {
    return db.read(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (job == null || job.jobType() != JobType.PROVISIONING) {
        throw new NotFoundException("job", id);
      }
      List<RevisionRows.RevisionRow> rows = RevisionRows.all(c, id);
      if (rows.isEmpty()) {
        JobRevision.Status status = job.status() == JobStatus.FAILED && job.phase() == JobPhase.CREATE
            ? JobRevision.Status.FAILED : job.status().isRunnable() && job.phase() == JobPhase.CREATE
            ? JobRevision.Status.APPLYING : JobRevision.Status.APPLIED;
        return List.of(new JobRevision(1, job.kind(), job.spec(), status, job.createdBy(), job.createdAt(),
            status == JobRevision.Status.APPLYING ? null : job.finishedAt()));
      }
      return rows.stream().map(r -> r.view(job.kind())).toList();
    });
  }

  private Prepared prepare(Principal principal, JobId id, ResourceSpec asked) {
    if (asked == null) {
      throw ValidationException.of("config", "required", "the revised config is required");
    }
    record Read(JobRecord job, List<StepRecord> steps, List<RevisionRows.RevisionRow> history) {}
    Read read = db.read(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (job == null || job.jobType() != JobType.PROVISIONING) {
        throw new NotFoundException("job", id);
      }
      return new Read(job, jobs.steps(c, id), RevisionRows.all(c, id));
    });
    JobRecord job = read.job();
    if (asked.kind() != job.kind()) {
      throw ValidationException.of("kind", "kind_changed", "job " + id + " is a " + job.kind().wireName()
          + "; a revision keeps its kind");
    }
    // a revision that failed is superseded by the next one (or retried): the next is made from the last config
    // applied, its steps observing what the failed one changed before it stopped
    boolean afterFailedRevision = job.status() == JobStatus.FAILED && job.phase() == JobPhase.UPDATE;
    if (job.status() != JobStatus.SUCCEEDED && !afterFailedRevision) {
      throw new ConflictException("job_not_revisable", "job " + id + " is " + job.status().wireName()
          + (job.status() == JobStatus.FAILED ? " (" + job.phase().wireName() + "); retry or delete it first"
              : "; a revision is applied to a succeeded job"));
    }
    // the job's config is the one last applied, also after a revision that failed
    ResourceSpec current = job.spec();
    JobPlaces.Revised revised = service.places().revised(principal, job, asked);
    List<ConfigPaths.FieldChange> diff = ConfigPaths.diff(current, revised.spec());
    if (diff.isEmpty()) {
      throw ValidationException.of("config", "no_change", afterFailedRevision
          ? "the revised config is the last one applied; retry the failed revision or revise to another config"
          : "the revised config is the job's config as it is");
    }
    Revision revision = revised.driver().revise(current, revised.spec(),
        JobSteps.recordedOutputs(read.steps(), Integer.MAX_VALUE));
    List<FieldError> errors = new ArrayList<>();
    revision.refused().forEach(e -> errors.add(e.under("config")));
    List<RevisionChange> changes = new ArrayList<>();
    Set<String> added = ConfigPaths.addedItems(diff);
    for (ConfigPaths.FieldChange field : diff) {
      String name = field.field();
      RevisionChange.Effect effect = revision.effectOf(name);
      if (effect == RevisionChange.Effect.REPLACE && added.stream().anyMatch(item -> name.startsWith(item + "."))) {
        // a field of an item the revision adds (a new node group's instance type) makes it; it replaces nothing
        changes.add(new RevisionChange(name, field.from(), field.to(), RevisionChange.Effect.IN_PLACE,
            "added with the revision"));
        continue;
      }
      boolean refused = revision.refused().stream().anyMatch(e -> covers(e.field(), name));
      if (effect == null && !refused) {
        errors.add(FieldError.of("config." + name, "not_revisable", job.provider() + " cannot change "
            + name + " of a " + job.kind().wireName() + " in place; create a new job for it"));
      } else if (effect != null) {
        changes.add(new RevisionChange(name, field.from(), field.to(), effect, revision.noteOf(name)));
      }
    }
    ValidationException.throwIfAny(errors);
    return new Prepared(job, current, read.steps(), read.history(), revised, revision, changes);
  }

  private static boolean covers(String refused, String field) {
    return field.equals(refused) || field.startsWith(refused + ".") || field.startsWith(refused + "[");
  }
}
