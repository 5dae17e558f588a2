package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.PlanStep;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.lifecycle.TeardownGuard;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.GroupCommit;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.core.internal.store.StorableText;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The {@code Jobs} operations of the embedded engine, for a given principal. */
public final class JobService {
  private static final int MAX_TAGS = 50;

  private final Database db;
  private final EngineTracing tracing;
  private final JobRepository jobs;
  private final StatusTransitions transitions;
  private final AccountRepository accounts;
  private final JobSteps jobSteps;
  private final JobPlaces places;
  private final JobViews views;
  private final JobSignals signals;
  private final WatchHub watchHub;
  private final Runnable wakeWorker;
  /** This engine's worker, which may take a job it submits without a claim; null when it runs no workers. */
  private final Reservation.Source worker;
  private final List<TeardownGuard> teardownGuards;
  private final GroupCommit submits;
  private final JobGuardrails guardrails;

  JobService(Database db, JobRepository jobs, JobSteps jobSteps, SpaceRepository spaces, AccountRepository accounts,
      ProviderRegistry providers, ClusterTargets targets, JobSignals signals, WatchHub watchHub,
      Runnable wakeWorker, Reservation.Source worker, Duration awaitPoll, List<TeardownGuard> teardownGuards,
      EngineTracing tracing, GuardrailService guardrailService) {
    this.worker = worker;
    this.tracing = tracing;
    this.db = db;
    this.jobs = jobs;
    this.transitions = new StatusTransitions(jobs, db.dialect());
    this.accounts = accounts;
    this.jobSteps = jobSteps;
    this.places = new JobPlaces(db, spaces, providers, targets);
    this.views = new JobViews(db, jobs, signals, awaitPoll);
    this.signals = signals;
    this.watchHub = watchHub;
    this.wakeWorker = wakeWorker;
    this.teardownGuards = List.copyOf(teardownGuards);
    // two lanes: a transaction runs on one database backend, so with one at a time a second core sat idle (8
    // callers on PostgreSQL, 2 cores, alternating runs: 703-959 submits/s with one lane, 990-1,175 with two)
    this.submits = new GroupCommit(db, 2);
    this.guardrails = new JobGuardrails(guardrailService, this::list, places, db, jobs);
  }

  /** What a guardrail would do before it is switched on: see {@link dev.zop.provisioner.Guardrails#tryOut}. */
  public dev.zop.provisioner.GuardrailTrial tryGuardrail(Principal principal,
      dev.zop.provisioner.GuardrailRequest request, int lastPlans) {
    return guardrails.trial(principal, request, lastPlans);
  }

  /** Guardrails as changes of jobs meet them; revisions and retries check theirs through it too. */
  JobGuardrails guardrails() {
    return guardrails;
  }

  /** How many times a submit reads its space again when the space changed before its job was written. */
  private static final int PLACE_ATTEMPTS = 3;

  /** The space a submit had found active was deactivated or deleted before its job could be written. */
  private static final class SpaceChanged extends RuntimeException {
    SpaceChanged(Throwable cause) {
      super("the space changed before the job was written", cause, false, false);
    }
  }

  public Plan plan(Principal principal, SpaceId spaceId, ResourceSpec asked) {
    return plan(principal, spaceId, asked, SubmitOptions.none());
  }

  /** The plan of a submit with {@code options}: its name and tags are what guardrails read of them. */
  public Plan plan(Principal principal, SpaceId spaceId, ResourceSpec asked, SubmitOptions options) {
    validateNameAndTags(options.name(), options.tags(), "");
    JobPlaces.Place place = places.place(principal, spaceId);
    Defaulted<ResourceSpec> defaulted = places.withDefaults(principal, place, asked); // asks the cloud
    ResourceSpec spec = defaulted.spec();
    List<FieldError> networkErrors = places.networkErrors(place, asked);
    JobPlaces.Target target = places.target(principal, place, spaceId, spec, false, networkErrors);
    List<PlanStep> steps = target.driver().create(spec).stream()
        .map(s -> new PlanStep(s.name(), s.permissions()))
        .toList();
    Plan plan = Plan.of(spec.kind(), target.space().provider(), target.space().region(), steps,
        target.driver().price(spec, target.space().region()), target.driver().pricesAsOf(), defaulted.filled(),
        target.driver().warnings(spec), target.driver().outputKeys().asPlanned());
    ResourceSpec largest = AtMaximum.of(spec);
    plan = largest == spec ? plan : plan.withCostsAtMax(target.driver().price(largest, target.space().region()));
    GuardrailService.Answer answer = guardrails.answer(principal, "create", target.space(), target.driver(), spec,
        jobName(options, spec, null), options.tags(), List.of(), null);
    return answer == null ? plan : plan.withVerdicts(answer.verdicts());
  }

  /** The name a job is given: the submit's, else the spec's, else its kind and a part of its id. */
  private static String jobName(SubmitOptions options, ResourceSpec spec, JobId id) {
    return options.name() != null ? options.name() : spec.name() != null ? spec.name()
        : id == null ? spec.kind().wireName() : spec.kind().wireName() + "-" + id.value().substring(4, 12);
  }


  /**
   * Submits a job. A key already used answers with its job, or refuses a different request, whatever else this call
   * would meet (a space since deleted, say). The key is looked up only when the submit fails (its insert does when
   * the key is taken), so a first submit pays no read for it; a repeated one does the submit's checks, and asks the
   * provider for its defaults, before it finds its job.
   */
  public Job submit(Principal principal, SpaceId spaceId, ResourceSpec asked, SubmitOptions options) {
    String key = options.idempotencyKey();
    String hash = requestHash(spaceId, asked, options);
    try {
      return create(principal, spaceId, asked, options, key, hash);
    } catch (RuntimeException e) {
      if (key == null) {
        throw e;
      }
      JobId existing;
      try {
        existing = existingForKey(principal, key, hash);
      } catch (ConflictException reused) {
        throw reused;
      } catch (RuntimeException lookup) {
        e.addSuppressed(lookup);
        throw e;
      }
      if (existing == null) {
        throw e;
      }
      return get(principal, existing);
    }
  }

  private Job create(Principal principal, SpaceId spaceId, ResourceSpec asked, SubmitOptions options, String key,
      String hash) {
    validateNameAndTags(options.name(), options.tags(), "");
    JobPlaces.Place place = places.keptPlace(principal, spaceId);
    for (int attempt = 1; ; attempt++) {
      try {
        return create(principal, spaceId, place, asked, options, key, hash);
      } catch (SpaceChanged changed) {
        places.forget(principal.orgId(), spaceId);
        if (attempt == PLACE_ATTEMPTS) {
          throw new ConflictException("space_changed", "space " + spaceId + " changed " + attempt
              + " times while the job was submitted; submit it again");
        }
        // as a fresh read finds it now: inactive or gone is refused as such, active again is written
        place = places.place(principal, spaceId);
      }
    }
  }

  private Job create(Principal principal, SpaceId spaceId, JobPlaces.Place place, ResourceSpec asked,
      SubmitOptions options, String key, String hash) {
    // the job keeps the spec with the provider's defaults filled in, as its plan showed them
    ResourceSpec spec = places.withDefaults(principal, place, asked).spec(); // asks the cloud: outside the tx
    List<FieldError> networkErrors = places.networkErrors(place, asked); // asks the cloud: outside the tx
    JobId id = JobId.random();
    io.opentelemetry.api.trace.Span span = tracing.submitted(id.value(), spec.kind().wireName());
    String traceParent = EngineTracing.traceParent(span);
    Job submitted;
    Reservation leased = null;
    LoadedJob written;
    try (io.opentelemetry.context.Scope ignored = span.makeCurrent()) {
      JobPlaces.Target target = places.target(principal, place, spaceId, spec, true, networkErrors);
      String name = jobName(options, spec, id);
      // a refusal writes its decision and nothing else; a hold writes the job awaiting a person
      GuardrailService.Answer answer = guardrails.enforce(principal, guardrails.answer(principal, "create",
          target.space(), target.driver(), spec, name, options.tags(), List.of(), null), spaceId, null);
      boolean held = answer != null && answer.approvalRequired();
      JobStatus initial = held ? JobStatus.AWAITING_APPROVAL : JobStatus.PENDING;
      List<Step> steps = target.driver().create(spec);
      List<StepRecord> rows = new ArrayList<>();
      for (int i = 0; i < steps.size(); i++) {
        rows.add(StepRecord.pending(id.value(), JobPhase.CREATE, i, steps.get(i).name(),
            steps.get(i).permissions()));
      }
      Instant now = Timestamps.now();
      span.setAttribute(EngineTracing.PROVIDER, target.space().provider());
      // with a thread free here now, the job's row is written leased to this engine, which runs it once committed
      leased = worker == null || held ? null : worker.reserve(id);
      JobRecord job = new JobRecord(id, principal.orgId(), spaceId, JobType.PROVISIONING, spec.kind(), name,
          options.tags(), target.space().provider(), target.account().id(), target.space().region(), spec,
          initial, JobPhase.CREATE, Map.of(), null, principal.actor(), now, now, null,
          leased == null ? 0 : JobRepository.LEASED_AT_SUBMIT_VERSION, traceParent);
      JobRepository.StoredJob row = JobRepository.asWritten(job);
      List<NewEvent> events = new ArrayList<>();
      events.add(new NewEvent(JobEventType.SUBMITTED, null, initial, "submitted by " + principal.actor()));
      events.addAll(JobGuardrails.events(answer, initial));
      // what the plan warned of stays with the job, for whoever submitted without planning
      for (dev.zop.provisioner.PlanWarning warning : target.driver().warnings(spec)) {
        events.add(new NewEvent(JobEventType.WARNING, null, initial,
            warning.message() + " (" + warning.code() + ")"));
      }
      List<RowWrite> inserts = new ArrayList<>(jobs.inserts(row, key, hash, rows, events, true,
          leased == null ? null : leased.leaseAtSubmit(), db.dialect()));
      if (answer != null) {
        inserts.add(guardrails.decisionRow(principal, answer, id, spaceId));
      }
      // reads nothing inside its transaction, so concurrent submits share commits
      submits.write(inserts);
      // the answer is the job as written: reading it back would cost two more round trips
      submitted = JobViews.view(job, rows);
      // the run's own copy, parsed from the row as written, as a claim's read gives it: nothing it holds is shared
      written = leased == null ? null : new LoadedJob(row.parse(), List.copyOf(rows), events.size());
    } catch (dev.zop.provisioner.core.internal.store.StoreException e) {
      unreserve(leased);
      if (e.sqlCause() != null && db.dialect().isNotNullViolation(e.sqlCause())) {
        // only the job's organisation, taken from its space, can be null (JobRepository#inserts): the space is no
        // longer active
        EngineTracing.failed(span, e);
        throw new SpaceChanged(e);
      }
      if (key != null && db.dialect().isUniqueViolation(e.sqlCause())) {
        throw e; // the key is taken: not a failure, the caller answers with the key's job
      }
      EngineTracing.failed(span, e);
      throw e;
    } catch (RuntimeException e) {
      unreserve(leased);
      EngineTracing.failed(span, e);
      throw e;
    } finally {
      span.end();
    }
    if (leased != null) {
      leased.committed(written);
    } else {
      wakeWorker.run();
    }
    return submitted;
  }

  /** A thread reserved for a job whose row was not written (or not known to be): its lease, if any, runs out. */
  private static void unreserve(Reservation leased) {
    if (leased != null) {
      leased.abandoned();
    }
  }

  private JobId existingForKey(Principal principal, String key, String hash) {
    Map.Entry<JobId, String> existing = db.read(c -> jobs.findByIdempotencyKey(c, principal.orgId(), key));
    if (existing == null) {
      return null;
    }
    if (!existing.getValue().equals(hash)) {
      throw new ConflictException("idempotency_key_reused",
          "idempotency key '" + key + "' was already used for a different request");
    }
    return existing.getKey();
  }

  public Job get(Principal principal, JobId id) {
    return views.get(principal, id);
  }

  public Page<Job> list(Principal principal, JobQuery query) {
    return views.list(principal, query);
  }

  public Job update(Principal principal, JobId id, JobPatch patch) {
    if (patch == null || (patch.name() == null && patch.tags() == null)) {
      throw ValidationException.of("body", "empty_patch", "give a name, tags or both");
    }
    validateNameAndTags(patch.name(), patch.tags(), "");
    get(principal, id);
    // Not fenced: name and tags are not touched by workers, and bumping the version would break their fence.
    db.tx(c -> {
      jobs.patch(c, id, patch.name(), patch.tags());
      return null;
    });
    return get(principal, id);
  }

  public Job delete(Principal principal, JobId id) {
    Job current = get(principal, id);
    if (current.status() == JobStatus.DELETED || current.status() == JobStatus.DELETING) {
      return current;
    }
    if (current.status() == JobStatus.FAILED && current.phase() == JobPhase.TEARDOWN) {
      return retry(principal, id);
    }
    if (!current.status().isTerminal()) {
      throw new ConflictException("job_in_progress",
          "job " + id + " is " + current.status().wireName() + "; wait for it to finish before deleting it");
    }
    for (TeardownGuard guard : teardownGuards) {
      ConflictException refusal = guard.check(id);
      if (refusal != null) {
        throw refusal;
      }
    }
    db.tx(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      List<StepRecord> all = jobs.steps(c, id);
      ResourceDriver<ResourceSpec> driver = jobSteps.driving(job, accounts.findAnyOrg(c, job.accountId())).driver();
      List<Step> steps = driver.teardown(RevisionRows.attempted(job, RevisionRows.all(c, id)),
          JobSteps.recordedOutputs(all, Integer.MAX_VALUE));
      if (!jobs.bumpIfUnchanged(c, id, job.version())) {
        throw new ConflictException("concurrent_change", "job " + id + " changed while deleting; try again");
      }
      List<StepRecord> rows = new ArrayList<>();
      for (int i = 0; i < steps.size(); i++) {
        rows.add(StepRecord.pending(id.value(), JobPhase.TEARDOWN, i, steps.get(i).name(),
            steps.get(i).permissions()));
      }
      jobs.addSteps(c, id, rows);
      transitions.move(c, id, StatusTransitions.Move.requeue(job.status(), JobStatus.DELETING, JobPhase.TEARDOWN,
          JobEventType.STATUS, null, "teardown requested by " + principal.actor()));
      return null;
    });
    signals.changed(id);
    wakeWorker.run();
    return get(principal, id);
  }

  public Job retry(Principal principal, JobId id) {
    Job current = get(principal, id);
    if (current.status() != JobStatus.FAILED) {
      throw new ConflictException("illegal_transition",
          "only a failed job can be retried; job " + id + " is " + current.status().wireName());
    }
    JobStatus next = current.phase() == JobPhase.TEARDOWN ? JobStatus.DELETING : JobStatus.PENDING;
    // a retry makes again what the job was making: guardrails decide it as they decide a submit (a teardown only
    // removes, and is never held)
    GuardrailService.Answer answer = next == JobStatus.DELETING ? null : retryAnswer(principal, id);
    boolean held = answer != null && answer.approvalRequired();
    db.tx(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (!jobs.bumpIfUnchanged(c, id, job.version())) {
        throw new ConflictException("concurrent_change", "job " + id + " changed while retrying; try again");
      }
      StepRecord failed = null;
      List<StepRecord> steps = new ArrayList<>();
      for (StepRecord step : jobs.steps(c, id)) {
        if (step.phase() != job.phase() || step.status() == StepStatus.SUCCEEDED) {
          steps.add(step);
          continue;
        }
        if (failed == null && step.status() == StepStatus.FAILED) {
          failed = step;
        }
        steps.add(transitions.reset(step));
      }
      jobs.writeSteps(c, id, steps);
      jobs.recordRetry(c, id, principal.actor(), job.phase(), failed == null ? null : failed.name(),
          job.failure());
      if (job.phase() == JobPhase.UPDATE) {
        RevisionRows.retried(c, id);
      }
      String message = "retried by " + principal.actor()
          + (job.failure() == null ? "" : " after " + job.failure().code() + ": " + job.failure().message());
      transitions.move(c, id, held ? StatusTransitions.Move.hold(job.status(), job.failure(), null, message)
          : StatusTransitions.Move.requeue(job.status(), next, null, JobEventType.RETRIED,
              failed == null ? null : failed.name(), message));
      guardrails.written(c, principal, answer, id, job.spaceId(), held ? JobStatus.AWAITING_APPROVAL : next);
      return null;
    });
    signals.changed(id);
    if (!held) {
      wakeWorker.run();
    }
    return get(principal, id);
  }

  /**
   * The guardrails' answer to retrying the job: the config it was making (a failed revision's, or the one it was
   * submitted with), as if asked for now; refused, with the refusal recorded, when they deny it.
   */
  private GuardrailService.Answer retryAnswer(Principal principal, JobId id) {
    record Read(JobRecord job, List<RevisionRows.RevisionRow> revisions) {}
    Read read = db.read(c -> new Read(jobs.find(c, principal.orgId(), id), RevisionRows.all(c, id)));
    JobRecord job = read.job();
    JobPlaces.Place place = places.place(principal, job.spaceId());
    if (place.space() == null) {
      return null;
    }
    RevisionRows.RevisionRow latest = RevisionRows.latest(read.revisions());
    ResourceSpec making = job.phase() == JobPhase.UPDATE && latest != null
        ? Json.spec(job.kind(), latest.config()) : job.spec();
    ResourceDriver<ResourceSpec> driver = places.driver(principal, place.space(), job.kind());
    List<dev.zop.provisioner.CostComponent> before = job.phase() == JobPhase.UPDATE
        ? driver.price(job.spec(), place.space().region()) : List.of();
    return guardrails.enforce(principal, guardrails.answer(principal, "retry", place.space(), driver, making,
        job.name(), job.tags(), before, job.id()), job.spaceId(), id);
  }

  public Job await(Principal principal, JobId id, Duration timeout) {
    get(principal, id);
    awaitTerminal(principal, id, timeout);
    return get(principal, id);
  }

  /** Waits until the job (of either type) is terminal; on timeout reports it as the provisioning view. */
  public void awaitTerminal(Principal principal, JobId id, Duration timeout) {
    views.awaitTerminal(principal, id, timeout);
  }

  public Subscription watch(Principal principal, JobId id, JobEventListener listener) {
    get(principal, id);
    return watchHub.watch(id, listener);
  }

  public List<JobEvent> events(Principal principal, JobId id, long afterSeq) {
    get(principal, id);
    return db.read(c -> JobHistoryRows.events(c, id, afterSeq, Integer.MAX_VALUE));
  }

  /** Where jobs would run, for a revision's and an import's checks. */
  JobPlaces places() {
    return places;
  }

  /** A job's provider session and driver, for a read of what it made (a drift check). */
  JobSteps.Driving driving(JobRecord job) {
    return jobSteps.driving(job);
  }

  private static void validateNameAndTags(String name, Map<String, String> tags, String prefix) {
    List<FieldError> errors = new ArrayList<>();
    if (name != null && (name.isBlank() || name.length() > 200)) {
      errors.add(FieldError.of(prefix + "name", "invalid_name", "must be 1-200 characters"));
    }
    StorableText.check(prefix + "name", name, errors);
    StorableText.check(prefix + "tags", tags, errors);
    if (tags != null) {
      if (tags.size() > MAX_TAGS) {
        errors.add(FieldError.of(prefix + "tags", "too_many", "at most " + MAX_TAGS + " tags"));
      }
      tags.forEach((k, v) -> {
        if (k == null || k.isBlank() || k.length() > 128) {
          errors.add(FieldError.of(prefix + "tags", "invalid_key", "tag keys must be 1-128 characters"));
        } else if (v == null || v.length() > 256) {
          errors.add(FieldError.of(prefix + "tags." + k, "invalid_value", "tag values must be 0-256 characters"));
        }
      });
    }
    ValidationException.throwIfAny(errors);
  }

  private static String requestHash(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
    String canonical = spaceId + "|" + (spec == null ? "" : spec.kind().wireName() + "|" + Json.write(spec))
        + "|" + options.name() + "|" + Json.write(new java.util.TreeMap<>(options.tags()));
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }


}
