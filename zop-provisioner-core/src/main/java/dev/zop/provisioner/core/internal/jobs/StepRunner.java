package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.core.StoreOutages;
import dev.zop.provisioner.core.internal.lifecycle.CompletedJob;
import dev.zop.provisioner.core.internal.lifecycle.JobCompletionListener;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs a claimed job step by step until it finishes, fails, or parks (a wait, a retry backoff, or a wait for a
 * person's decision). Every write is fenced by the lease; a step's work itself runs outside any lock or
 * transaction. A provisioning job's steps come from its provider's driver, a remediation workflow's from its
 * {@link Workflow}; both run here, under the one {@link OutcomeRule}.
 */
final class StepRunner {
  private static final Logger LOG = LoggerFactory.getLogger(StepRunner.class);

  private final Database db;
  private final JobRepository jobs;
  private final StatusTransitions transitions;
  private final AccountRepository accounts;
  private final List<JobCompletionListener> completionListeners;
  private final ClusterTargets targets;
  private final ProviderRegistry providers;
  private final JobScopes scopes;
  private final RetryPolicy retryPolicy;
  private final JobSignals signals;
  private final SecretService secrets;
  private final FencedWriter writer;
  private final Workflow.Source workflows;
  private final BooleanSupplier halted;
  private final BooleanSupplier stopping;
  private final EngineMetrics metrics;
  private final EngineTracing tracing;

  StepRunner(Database db, JobRepository jobs, AccountRepository accounts,
      List<JobCompletionListener> completionListeners,
      ProviderRegistry providers, JobScopes scopes, RetryPolicy retryPolicy, JobSignals signals, SecretService secrets,
      ClusterTargets targets, FencedWriter writer, Workflow.Source workflows, BooleanSupplier halted,
      BooleanSupplier stopping, EngineMetrics metrics, EngineTracing tracing) {
    this.metrics = metrics;
    this.tracing = tracing;
    this.targets = targets;
    this.db = db;
    this.transitions = new StatusTransitions(jobs, db.dialect());
    this.jobs = jobs;
    this.accounts = accounts;
    this.completionListeners = List.copyOf(completionListeners);
    this.providers = providers;
    this.scopes = scopes;
    this.retryPolicy = retryPolicy;
    this.signals = signals;
    this.secrets = secrets;
    this.writer = writer;
    this.workflows = workflows;
    this.halted = halted;
    this.stopping = stopping;
  }

  /**
   * Runs a claimed job on this thread until it finishes, fails or parks, or until a step's success is queued for
   * its commit: then the run goes on, from the next step, as a task of {@code executor} once that write is
   * durable, and this thread is free meanwhile. {@code ended} is called once, when the run is over.
   */
  void run(Lease lease, Executor executor, Runnable ended) {
    Run run = new Run(lease, executor, ended);
    run.guarded(() -> runSteps(run));
  }

  /**
   * Reads the jobs just claimed, with their steps, in the claim's transaction: one query for the whole claim rather
   * than one for each job.
   */
  Map<String, LoadedJob> load(Connection c, List<String> jobIds) throws SQLException {
    Map<String, LoadedJob> loaded = new java.util.HashMap<>();
    for (LoadedJob job : jobs.loadAnyOrg(c, jobIds)) {
      loaded.put(job.job().id().value(), job);
    }
    return loaded;
  }

  /** Begins a run; true when it was handed on to a queued write (see {@link Run#handOn}). */
  private boolean runSteps(Run run) {
    Lease lease = run.lease;
    LoadedJob claimed = lease.takeClaimed();
    LoadedJob loaded = claimed != null ? claimed : db.read(c -> {
      List<LoadedJob> found = jobs.loadAnyOrg(c, List.of(lease.jobId.value()));
      return found.isEmpty() ? null : found.get(0);
    });
    // The claim's own read is the lease's by construction, even if a heartbeat has moved the version on since
    // (the job may wait in the pool's queue); a job read now must still have the lease's version.
    if (loaded == null || (claimed == null && loaded.job().version() != lease.version())) {
      return false;
    }
    lease.heldEvents(loaded.heldEvents());
    JobRecord job = loaded.job();
    List<StepRecord> all = loaded.steps();
    Workflow workflow = job.jobType() == JobType.PROVISIONING ? null : workflows.open(job, all);
    Journal journal = workflow == null ? Journal.NONE : workflow.journal();
    ProviderSession session;
    List<Step> definitions;
    // the update phase holds every revision's steps, one after another: this run's are its revision's
    int firstStep = 0;
    if (workflow != null) {
      session = workflow.session();
      definitions = workflow.steps();
    } else {
      session = providers.session(job.accountId(), job.region(), scopes.of(job),
          () -> db.read(c -> accounts.findAnyOrg(c, job.accountId())));
      ResourceDriver<ResourceSpec> driver = providers.driver(session, job.kind(),
          () -> targets.of(job.orgId(), job.spaceId()));
      if (job.phase() == JobPhase.UPDATE) {
        Revising revising = revising(job, all);
        definitions = revising.reconcile() ? driver.reconcile(job.spec(), revising.recorded()).steps()
            : driver.revise(revising.from(), job.spec(), revising.recorded()).steps();
        firstStep = revising.firstStep();
      } else if (job.phase() == JobPhase.CREATE) {
        // an imported job's create phase adopts what exists rather than making it
        String importedFrom = job.outputs().get(JobImports.IMPORTED_FROM);
        definitions = importedFrom != null ? driver.adopt(job.spec(), importedFrom) : driver.create(job.spec());
      } else {
        definitions = driver.teardown(job.spec(), recordedOutputs(all, Integer.MAX_VALUE));
      }
    }

    JobStatus running = job.phase().working();
    // The first write of this run also moves a pending job to running, so starting costs no extra transaction.
    FencedWriter.Write start = job.status() != JobStatus.PENDING ? null : transitions.move(new FencedWriter.Write(),
        job.id(), StatusTransitions.Move.start(JobStatus.PENDING, JobStatus.RUNNING, "started"))
        .after(c -> journal.started(c, job));
    run.startWith(start, new StepBook(all));
    int first = firstStep;
    List<StepRecord> rows = all.stream().filter(s -> s.phase() == job.phase() && s.index() >= first).toList();
    Steps steps = new Steps(run, job, session, workflow, running, rows, definitions,
        new LinkedHashMap<>(job.outputs()));
    if (!matches(rows, definitions)) {
      steps.failJob(null, Failure.system("step_list_changed",
          "the provider now builds a different step list for this job; its steps were " + names(rows)));
      return false;
    }
    return steps.from(0, -1, Map.of(), null);
  }

  /**
   * The revision an update-phase job applies: the config it changes from (the last one applied), what the job's
   * steps recorded before it, and the index of its first step.
   */
  private record Revising(ResourceSpec from, Outputs recorded, int firstStep, boolean reconcile) {}

  private Revising revising(JobRecord job, List<StepRecord> all) {
    List<JobRepository.RevisionRow> revisions = db.read(c -> jobs.revisions(c, job.id()));
    JobRepository.RevisionRow applying = revisions.get(revisions.size() - 1);
    JobRepository.RevisionRow from = revisions.stream().filter(r -> r.number() < applying.number())
        .filter(r -> r.outcome().equals("applied")).reduce((a, b) -> b).orElseThrow();
    return new Revising(Json.spec(job.kind(), from.config()), recordedOutputs(all, applying.firstStep()),
        applying.firstStep(), applying.reconcile());
  }

  /** A job's steps, run in order from the first not yet succeeded; its state carries over a hand-on. */
  private final class Steps {
    private final Run run;
    private final JobRecord job;
    private final ProviderSession session;
    /** The job's workflow, or null for a provisioning job. */
    private final Workflow workflow;
    private final Journal journal;
    private final JobStatus running;
    /** The job's status as this run has written it: waiting for a decision, or running (deleting). */
    private JobStatus status;
    private final List<StepRecord> rows;
    private final List<Step> definitions;
    private final Map<String, String> jobOutputs;
    /** The provider's time limit for the job's kind, or null: the same for every step of the run. */
    private final Duration timeLimit;

    Steps(Run run, JobRecord job, ProviderSession session, Workflow workflow, JobStatus running,
        List<StepRecord> rows, List<Step> definitions, Map<String, String> jobOutputs) {
      this.run = run;
      this.job = job;
      this.session = session;
      this.workflow = workflow;
      this.journal = workflow == null ? Journal.NONE : workflow.journal();
      this.running = running;
      this.status = job.status() == JobStatus.PENDING ? running : job.status();
      this.rows = rows;
      this.definitions = definitions;
      this.jobOutputs = jobOutputs;
      this.timeLimit = workflow != null ? null
          : providers.find(job.provider()).metadata().defaultTimeouts().get(job.kind());
    }

    /**
     * The intent step {@code i} declares before it runs (see {@link Step#intent}), asked with the context it will
     * run with; an exception declares nothing, and the step records its intent itself.
     */
    private Map<String, String> declaredIntent(int i, int attempt) {
      StepRecord row = rows.get(i);
      try {
        Map<String, String> intent = definitions.get(i)
            .intent(new LeasedContext(run, job, row, attempt, jobOutputs, Map.of(), true, null));
        return intent == null ? Map.of() : Map.copyOf(intent);
      } catch (RuntimeException e) {
        LOG.warn("step {} of {} could not declare its intent; it will record it itself", row.name(), job.id(), e);
        return Map.of();
      }
    }

    /**
     * Runs steps from {@code first}; {@code startedAlready} is the index of a step whose start was written with
     * the previous step's success, or -1, and {@code startedIntent} the intent it declared with that start and
     * {@code startedAt} when that start began. True when the run was handed on to a queued write.
     */
    boolean from(int first, int startedAlready, Map<String, String> startedIntent, Instant startedAt) {
      Lease lease = run.lease;
      for (int i = first; i < rows.size(); i++) {
        StepRecord row = rows.get(i);
        if (row.status() == StepStatus.SUCCEEDED) {
          continue;
        }
        if (stopping.getAsBoolean()) {
          run.write(c -> jobs.schedule(c, job.id(), 0, db.dialect()));
          lease.markReleased();
          return false;
        }
        Decision.Request cancel = workflow == null ? null : workflow.cancelRequested();
        if (cancel != null) {
          // a step started with the previous one's success has not run: it goes back to pending
          StepRecord started = startedAlready == i ? row : null;
          cancelJob(null, started, cancel, cancel.reason());
          return false;
        }
        Step step = definitions.get(i);
        int attempt = attemptOf(row);
        Map<String, String> declared = Map.of();
        // a waiting step goes on with the start of its attempt
        Instant start = null;
        if (startedAlready == i) {
          declared = startedIntent;
          start = startedAt;
        } else if (row.status() != StepStatus.WAITING) {
          declared = declaredIntent(i, attempt);
          start = Instant.now();
          run.write(starting(new FencedWriter.Write(), run.book, job, row, attempt, running, declared, start));
        }
        LeasedContext context = new LeasedContext(run, job, row, attempt, jobOutputs, declared, false, start);
        StepRecord next = i + 1 < rows.size() ? rows.get(i + 1) : null;
        if (step instanceof DecisionStep decisionStep) {
          Decision decision = decision(decisionStep, context);
          OutcomeRule.Transition transition = OutcomeRule.decide(
              new OutcomeRule.Situation(row.name(), job.phase(), next == null ? null : next.status(), attempt,
                  context.startedAt, decisionStep.timeout(), stopping.getAsBoolean()),
              decision, Instant.now());
          return decided(i, transition, decision, context);
        }
        long began = System.nanoTime();
        StepResult result = traced(job, row.name(), attempt, () -> invoke(step, context, session));
        OutcomeRule.Transition transition = OutcomeRule.decide(
            new OutcomeRule.Situation(row.name(), job.phase(), next == null ? null : next.status(), attempt,
                context.startedAt, timeLimit, stopping.getAsBoolean()),
            result, retryPolicy, Instant.now(), ThreadLocalRandom.current().nextDouble());
        metrics.stepRan(job, step.kind(), outcome(result, transition), System.nanoTime() - began);

        if (transition instanceof OutcomeRule.Transition.Advance advance) {
          return succeeded(i, (StepResult.Done) result, context, advance.startNext(), null);
        } else if (transition instanceof OutcomeRule.Transition.Complete) {
          return succeeded(i, (StepResult.Done) result, context, false, null);
        } else if (transition instanceof OutcomeRule.Transition.Park park) {
          return parked(row, context, park);
        } else if (transition instanceof OutcomeRule.Transition.Retry retry) {
          Failure failure = retry.failure();
          metrics.failed(job, failure.category());
          metrics.retried(job);
          long delay = retry.after().toMillis();
          run.write(new FencedWriter.Write().steps(run.book.with(transitions.stepUpdated(row, StepStatus.PENDING,
              context.ownOutputs, failure, false, attempt, context.startedAt)))
              .dueIn(delay)
              .event(JobEventType.STEP_RETRYING, row.name(), running,
                  failure.code() + ": " + failure.message() + " (retrying in " + delay + " ms)"));
          lease.markReleased();
          return false;
        } else {
          OutcomeRule.Transition.Fail fail = (OutcomeRule.Transition.Fail) transition;
          if (result instanceof StepResult.Failed) {
            metrics.failed(job, fail.failure().category());
          }
          failJob(context.ended(), fail.failure());
          return false;
        }
      }
      // every step had succeeded already (a resumed job whose last write was lost, or an empty teardown)
      run.write(completing(new FencedWriter.Write(), job, running, jobOutputs, workflow == null));
      lease.markReleased();
      ended(job, JobStatus.SUCCEEDED, null);
      journal.ended(job, JobStatus.SUCCEEDED, null);
      return false;
    }

    /**
     * Parks the job on the cloud until {@code park.after()}, as row writes its shared transaction batches with other
     * jobs', and frees this thread before the commit: the run ends once the park is durable. A step polled again
     * while waiting, with nothing new recorded, is left as it is: its row already says waiting, with these outputs
     * (a million jobs polled on a schedule then cost a statement fewer a poll). Always true (handed on).
     */
    private boolean parked(StepRecord row, LeasedContext context, OutcomeRule.Transition.Park park) {
      Lease lease = run.lease;
      FencedWriter.Write parked = new FencedWriter.Write();
      if (row.status() != StepStatus.WAITING || !context.ownOutputs.equals(row.outputs())) {
        parked.steps(run.book.with(transitions.stepUpdated(row, StepStatus.WAITING, context.ownOutputs, null, false,
            context.attempt, context.startedAt)));
      }
      parked.dueIn(park.after().toMillis())
          .event(JobEventType.STEP_WAITING, row.name(), running, park.reason());
      run.writeThen(parked, failure -> {
        if (failure == null) {
          lease.markReleased(); // parked: a late heartbeat must not lease it again
        }
        run.handOn(failure, () -> false);
      });
      return true;
    }

    /** Asks a decision step whether a person decided; what it throws escapes as any engine failure does. */
    private Decision decision(DecisionStep step, LeasedContext context) {
      try {
        return Objects.requireNonNull(step.decide(context), "decision");
      } catch (RuntimeException e) {
        throw e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LeaseLostException(job.id());
      } catch (Exception e) {
        throw new IllegalStateException("step " + step.name() + " could not read its decision", e);
      }
    }

    /** Writes what the rule made of decision step {@code i}'s {@link Decision}. True when handed on. */
    private boolean decided(int i, OutcomeRule.Transition transition, Decision decision, LeasedContext context) {
      StepRecord row = rows.get(i);
      metrics.stepRan(job, definitions.get(i).kind(), decision instanceof Decision.Approved ? "approved"
          : decision instanceof Decision.Rejected ? "rejected" : "waiting", 0);
      if (transition instanceof OutcomeRule.Transition.Advance advance) {
        return succeeded(i, new StepResult.Done(Map.of()), context, advance.startNext(),
            ((Decision.Approved) decision).by());
      } else if (transition instanceof OutcomeRule.Transition.Complete) {
        return succeeded(i, new StepResult.Done(Map.of()), context, false, ((Decision.Approved) decision).by());
      } else if (transition instanceof OutcomeRule.Transition.Cancel cancel) {
        cancelJob(context.ended(), null, cancel.by(), cancel.reason());
        return false;
      }
      OutcomeRule.Transition.AwaitDecision await = (OutcomeRule.Transition.AwaitDecision) transition;
      Long dueIn = await.dueIn() == null ? null : await.dueIn().toMillis();
      boolean firstTime = status != JobStatus.AWAITING_USER;
      JobStatus from = status;
      FencedWriter.Write waiting = new FencedWriter.Write();
      if (row.status() != StepStatus.WAITING) {
        waiting.steps(run.book.with(transitions.stepUpdated(row, StepStatus.WAITING, context.ownOutputs, null, false,
            context.attempt, context.startedAt)));
      }
      run.write(waiting.after(c -> {
        if (firstTime) {
          transitions.move(c, job.id(), StatusTransitions.Move.awaitUser(from, dueIn, row.name(), await.message()));
        } else {
          jobs.park(c, job.id(), dueIn, db.dialect());
        }
      }));
      run.lease.markReleased();
      status = JobStatus.AWAITING_USER;
      if (firstTime) {
        journal.awaitingDecision(job, row, await.message());
      }
      return false;
    }

    /**
     * Ends the job cancelled: at decision step {@code at} (rejected, or undecided in time), or, with {@code at}
     * null, at a person's request between steps; {@code started}, when not null, is a step whose start was
     * written but which has not run, and goes back to pending.
     */
    private void cancelJob(StepRecord at, StepRecord started, Decision.Request by, String reason) {
      JobStatus from = status;
      FencedWriter.Write cancelled = new FencedWriter.Write();
      if (at != null) {
        cancelled.steps(run.book.with(transitions.stepUpdated(at, StepStatus.FAILED, at.outputs(), null, true,
            at.attempts(), at.startedAt())));
      }
      if (started != null) {
        // its attempt never ran: the step goes back to what it was before its start
        cancelled.steps(run.book.with(started));
      }
      run.write(cancelled.after(c -> {
        journal.cancelled(c, job, at, by, reason);
        transitions.move(c, job.id(), StatusTransitions.Move.finish(from, JobStatus.CANCELLED, null,
            (at == null ? "cancelled" : "rejected at " + at.name()) + (by == null ? "" : " by " + by.actor())
                + (reason == null ? "" : ": " + reason)));
      }));
      run.lease.markReleased();
      ended(job, JobStatus.CANCELLED, null);
      journal.ended(job, JobStatus.CANCELLED, null);
    }

    private void failJob(StepRecord row, Failure failure) {
      JobStatus from = status;
      FencedWriter.Write failed = new FencedWriter.Write();
      if (row != null) {
        failed.steps(run.book.with(transitions.stepUpdated(row, StepStatus.FAILED, row.outputs(), failure, true,
            row.attempts(), row.startedAt())));
      }
      run.write(failed.after(c -> {
        if (row != null) {
          jobs.appendEvent(c, job.id(), JobEventType.STEP_FAILED, row.name(), JobStatus.FAILED,
              failure.category().wireName() + " " + failure.code() + ": " + failure.message());
          journal.failed(c, job, row, failure);
        }
        transitions.move(c, job.id(), StatusTransitions.Move.finish(from, JobStatus.FAILED, failure,
            failure.message()));
        if (job.phase() == JobPhase.UPDATE) {
          Database.execute(c, jobs.revisionEnded(job.id(), "failed"));
        }
      }));
      run.lease.markReleased();
      ended(job, JobStatus.FAILED, failure);
      journal.ended(job, JobStatus.FAILED, failure);
    }

    /**
     * Writes step {@code i}'s success; with {@code startNext}, the next step's start commits with it, and after
     * the last step the job's completion does. The run goes on from the next step once that write is durable,
     * as a task of the run's executor: this thread need not wait for it. Always true (handed on).
     */
    private boolean succeeded(int i, StepResult.Done done, LeasedContext context, boolean startNext,
        Decision.Request approvedBy) {
      Lease lease = run.lease;
      StepRecord row = rows.get(i);
      Map<String, String> stepOutputs = new LinkedHashMap<>(context.ownOutputs);
      stepOutputs.putAll(done.outputs());
      // the run's outputs began as the row's, and only a step's success adds to them: one that adds nothing leaves
      // the row's as they are (the fence keeps outputs it is given none for)
      boolean outputsChanged = job.phase().buildsState() && !stepOutputs.isEmpty();
      if (outputsChanged) {
        jobOutputs.putAll(stepOutputs);
      }
      Map<String, String> snapshot = new LinkedHashMap<>(jobOutputs);
      StepRecord next = i + 1 < rows.size() ? rows.get(i + 1) : null;
      FencedWriter.Write succeeded = new FencedWriter.Write();
      if (status == JobStatus.AWAITING_USER) {
        transitions.move(succeeded, job.id(), StatusTransitions.Move.start(status, running,
            "resumed: " + row.name() + " approved"));
        status = running;
      }
      succeeded.steps(run.book.with(transitions.stepUpdated(row, StepStatus.SUCCEEDED, stepOutputs, null, true,
              context.attempt, context.startedAt)))
          .event(JobEventType.STEP_SUCCEEDED, row.name(), running,
              approvedBy == null ? null : "approved by " + approvedBy.actor())
          .jobOutputs(outputsChanged ? Json.writeStringMap(snapshot) : null)
          .after(c -> journal.succeeded(c, job, row, approvedBy));
      Map<String, String> nextIntent = startNext ? declaredIntent(i + 1, attemptOf(next)) : Map.of();
      Instant nextStart = startNext ? Instant.now() : null;
      if (startNext) {
        starting(succeeded, run.book, job, next, attemptOf(next), running, nextIntent, nextStart);
      } else if (next == null) {
        completing(succeeded, job, running, snapshot, workflow == null);
      }
      int after = i + 1;
      int started = startNext ? after : -1;
      // Nothing more of this job may run before the success is durable.
      run.writeThen(succeeded, failure -> {
        if (failure == null && next == null) {
          lease.markReleased();
          ended(job, JobStatus.SUCCEEDED, null);
        }
        run.handOn(failure, () -> {
          if (next != null) {
            return from(after, started, nextIntent, nextStart);
          }
          journal.ended(job, JobStatus.SUCCEEDED, null);
          return false;
        });
      });
      return true;
    }
  }

  /** A resumed wait keeps its attempt; anything else is a new one. */
  private static int attemptOf(StepRecord row) {
    return row.status() == StepStatus.WAITING ? Math.max(row.attempts(), 1) : row.attempts() + 1;
  }

  /**
   * Adds a step's start (a new attempt, begun at {@code at}) with the intent it declared, and its history entry, to
   * {@code write}: the step is running, the intent among its outputs, durable before the step runs.
   */
  private FencedWriter.Write starting(FencedWriter.Write write, StepBook book, JobRecord job, StepRecord row,
      int attempt, JobStatus running, Map<String, String> declared, Instant at) {
    Map<String, String> outputs = new LinkedHashMap<>(row.outputs());
    outputs.putAll(declared);
    return write.steps(book.with(transitions.stepUpdated(row, StepStatus.RUNNING, outputs, row.failure(), false,
            attempt, at)))
        .event(JobEventType.STEP_STARTED, row.name(), running, "attempt " + attempt);
  }

  /**
   * One run over a claimed job: its writes are fenced, the first one begins with the job's start, and it ends
   * once, on whichever thread its last part ran.
   */
  private final class Run {
    private final Lease lease;
    private final Executor executor;
    private final Runnable ended;
    private FencedWriter.Write start;
    /** The job's steps as this run's writes leave them. */
    private StepBook book;

    Run(Lease lease, Executor executor, Runnable ended) {
      this.lease = lease;
      this.executor = executor;
      this.ended = ended;
    }

    /** The run's first write begins with {@code start} (null: nothing); {@code book} holds the job's steps. */
    void startWith(FencedWriter.Write start, StepBook book) {
      this.start = start;
      this.book = book;
    }

    void write(FencedWriter.Writes work) {
      write(FencedWriter.Write.of(work));
    }

    void write(FencedWriter.Write write) {
      writer.write(lease, withStart(write));
    }

    void writeThen(FencedWriter.Write write, FencedWriter.Settled then) {
      writer.writeThen(lease, withStart(write), then);
    }

    private FencedWriter.Write withStart(FencedWriter.Write write) {
      FencedWriter.Write first = start == null ? write : start.then(write);
      start = null;
      return first;
    }

    /**
     * Runs a part of the run; unless it handed the run on to a queued write (returned true), the run ends here.
     * A lost lease stops it; anything else escaping fails the job rather than loop on it.
     */
    void guarded(BooleanSupplier part) {
      boolean handedOn = false;
      try {
        handedOn = part.getAsBoolean();
      } catch (LeaseLostException e) {
        if (!halted.getAsBoolean()) {
          metrics.leaseLost();
        }
        LOG.info("stopped working on {}: {}", lease.jobId, halted.getAsBoolean() ? "engine halted" : "lease lost");
      } catch (RuntimeException e) {
        if (StoreOutages.isStoreAway(e)) {
          // Nothing of the job is wrong and the write was not kept: leave it, as a crashed engine would; its lease
          // runs out and the job is claimed again, here or elsewhere, once the database answers.
          LOG.warn("stopped working on {}: the store does not answer ({})", lease.jobId, e.getMessage());
        } else {
          // A bug in the engine or a driver that escaped classification: fail the job rather than loop on it.
          LOG.error("job {} failed in the engine", lease.jobId, e);
          failQuietly(lease, Failure.system("engine_error", "the engine failed: " + e));
        }
      } finally {
        if (!handedOn) {
          signals.changed(lease.jobId);
          ended.run();
        }
      }
    }

    /**
     * Goes on with {@code rest} as a task of the run's executor now that a queued write is settled: it failed
     * with {@code failure}, or is durable. An executor that takes no more tasks (a halted engine) ends the run.
     */
    void handOn(RuntimeException failure, BooleanSupplier rest) {
      try {
        executor.execute(() -> guarded(() -> {
          if (failure != null) {
            throw failure;
          }
          return rest.getAsBoolean();
        }));
      } catch (RejectedExecutionException e) {
        signals.changed(lease.jobId);
        ended.run();
      }
    }
  }

  /** What became of a run of a step's body, as the step timer's {@code outcome} tag. */
  private static String outcome(StepResult result, OutcomeRule.Transition transition) {
    if (result instanceof StepResult.Done) {
      return "succeeded";
    }
    if (result instanceof StepResult.Wait) {
      return "waiting";
    }
    return transition instanceof OutcomeRule.Transition.Retry ? "retrying" : "failed";
  }

  /** A job's phase ended in a write this engine committed: its meters and its span. */
  private void ended(JobRecord job, JobStatus status, Failure failure) {
    metrics.jobEnded(job, status);
    tracing.ended(job, status, failure);
  }

  /**
   * Runs a step inside its span (a child of the job's, see {@link EngineTracing}), with the job and step in the
   * logging MDC so whatever the step and its provider log names them.
   */
  private StepResult traced(JobRecord job, String step, int attempt, java.util.function.Supplier<StepResult> run) {
    io.opentelemetry.api.trace.Span span = tracing.step(job, step, attempt);
    try (io.opentelemetry.context.Scope ignored = span.makeCurrent();
        MDC.MDCCloseable jobId = MDC.putCloseable("zop.job", job.id().value());
        MDC.MDCCloseable stepName = MDC.putCloseable("zop.step", step)) {
      StepResult result = run.get();
      if (result instanceof StepResult.Failed failed) {
        EngineTracing.failed(span, failed.failure());
      }
      return result;
    } catch (RuntimeException | Error e) {
      EngineTracing.failed(span, e);
      throw e;
    } finally {
      span.end();
    }
  }

  private StepResult invoke(Step step, StepContext context, ProviderSession session) {
    try {
      StepResult result = step.run(context);
      if (result == null) {
        return StepResult.fail(Failure.system("step_returned_null", "step " + step.name() + " returned no result"));
      }
      return result;
    } catch (LeaseLostException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return StepResult.fail(Failure.transientFailure("interrupted", "the engine was interrupted"));
    } catch (Exception e) {
      if (halted.getAsBoolean()) {
        throw new LeaseLostException(context.jobId());
      }
      Failure failure = session.classify(e);
      return StepResult.fail(failure != null ? failure : Failure.system("unclassified", String.valueOf(e)));
    }
  }

  /**
   * Adds the job's completion to {@code write}: its move to succeeded (or deleted) as row writes, then the
   * completion listeners, whose outputs join the job's.
   */
  private FencedWriter.Write completing(FencedWriter.Write write, JobRecord job, JobStatus running,
      Map<String, String> outputs, boolean provisioning) {
    JobStatus done = job.phase().done();
    transitions.move(write, job.id(), StatusTransitions.Move.finish(running, done, null, null));
    if (job.phase() == JobPhase.UPDATE) {
      // what a job made was registered when it was created; a revision only records that it was applied
      return write.row(jobs.revisionEnded(job.id(), "applied"));
    }
    if (completionListeners.isEmpty() || !provisioning) {
      return write;
    }
    CompletedJob completed = new CompletedJob(job.id(), job.orgId(), job.spaceId(), job.kind(), done, job.provider(),
        job.accountId(), job.region(), job.spec().name(), job.createdBy(), Map.copyOf(outputs));
    return write.after(c -> {
      Map<String, String> added = new LinkedHashMap<>();
      for (JobCompletionListener listener : completionListeners) {
        added.putAll(listener.completed(c, completed));
      }
      if (done == JobStatus.SUCCEEDED && !added.isEmpty()) {
        Map<String, String> withAdded = new LinkedHashMap<>(outputs);
        withAdded.putAll(added);
        jobs.setOutputs(c, job.id(), withAdded);
      }
    });
  }

  private void failQuietly(Lease lease, Failure failure) {
    try {
      writer.write(lease, c -> {
        JobRecord current = jobs.findAnyOrg(c, lease.jobId);
        JobStatus status = current.status();
        if (status == JobStatus.PENDING) {
          transitions.move(c, lease.jobId, StatusTransitions.Move.start(status, JobStatus.RUNNING, "started"));
          status = JobStatus.RUNNING;
        }
        if (status.canTransitionTo(JobStatus.FAILED)) {
          transitions.move(c, lease.jobId, StatusTransitions.Move.finish(status, JobStatus.FAILED, failure,
              failure.message()));
        }
      });
    } catch (RuntimeException e) {
      LOG.warn("could not record the failure of {}", lease.jobId, e);
    }
  }

  /** Extends a lease; false when it was lost to another engine. */
  boolean heartbeat(Lease lease, long leaseMillis) {
    synchronized (lease) {
      if (!lease.awaitWrites() || lease.released()) {
        return true;
      }
      if (lease.lost() || halted.getAsBoolean()) {
        return false;
      }
      boolean extended = db.tx(c -> jobs.extendLease(c, lease, leaseMillis, db.dialect()));
      if (extended) {
        lease.advanced();
      } else {
        lease.markLost();
      }
      return extended;
    }
  }

  /**
   * Every output the create steps and the revisions' steps before {@code updatesBefore} recorded, intents included,
   * in the order they ran: what teardown (or a revision) must consider existing.
   */
  static Outputs recordedOutputs(List<StepRecord> all, int updatesBefore) {
    Map<String, String> merged = new LinkedHashMap<>();
    all.stream().filter(s -> s.phase() == JobPhase.CREATE).forEach(s -> merged.putAll(s.outputs()));
    all.stream().filter(s -> s.phase() == JobPhase.UPDATE && s.index() < updatesBefore)
        .sorted(java.util.Comparator.comparingInt(StepRecord::index)).forEach(s -> merged.putAll(s.outputs()));
    return Outputs.of(merged);
  }

  private static boolean matches(List<StepRecord> rows, List<Step> definitions) {
    if (rows.size() != definitions.size()) {
      return false;
    }
    for (int i = 0; i < rows.size(); i++) {
      if (!rows.get(i).name().equals(definitions.get(i).name())) {
        return false;
      }
    }
    return true;
  }

  private static List<String> names(List<StepRecord> rows) {
    return rows.stream().map(StepRecord::name).toList();
  }

  /** The context a step sees; intents and log lines are fenced writes like everything else. */
  private final class LeasedContext implements StepContext {
    private final Run run;
    private final JobRecord job;
    private final StepRecord row;
    private final int attempt;
    /**
     * What the job's earlier steps recorded: the run's own map, read only. It changes only once a step has
     * returned (with its success), so a step sees it as it stood when it began, without a copy for each context.
     */
    private final Map<String, String> previous;
    private final Map<String, String> ownOutputs;
    final Instant startedAt;
    /** Asked for the step's intent before it runs: records, logs and reads secrets nothing. */
    private final boolean beforeRun;

    /**
     * {@code declared}: the intent the step declared, written with its start and so durable, among its own
     * outputs from the start. {@code start}: when the attempt began, or null for a waiting step, which keeps the
     * start its row records.
     */
    LeasedContext(Run run, JobRecord job, StepRecord row, int attempt, Map<String, String> previous,
        Map<String, String> declared, boolean beforeRun, Instant start) {
      this.startedAt = start != null ? start
          : row.status() == StepStatus.WAITING && row.startedAt() != null ? row.startedAt() : Instant.now();
      this.run = run;
      this.job = job;
      this.row = row;
      this.attempt = attempt;
      this.previous = java.util.Collections.unmodifiableMap(previous);
      this.ownOutputs = new LinkedHashMap<>(row.outputs());
      this.ownOutputs.putAll(declared);
      this.beforeRun = beforeRun;
    }

    /** The step's row as this attempt leaves it: its outputs so far, the attempt and when it started. */
    StepRecord ended() {
      return transitions.stepUpdated(row, row.status(), ownOutputs, row.failure(), false, attempt, startedAt);
    }

    private void requireRunning(String what) {
      if (beforeRun) {
        throw new IllegalStateException(what + " is not available while a step declares its intent");
      }
    }

    @Override
    public JobId jobId() {
      return job.id();
    }

    @Override
    public UUID stepId() {
      return row.id();
    }

    @Override
    public int attempt() {
      return attempt;
    }

    @Override
    public Instant startedAt() {
      return startedAt;
    }

    @Override
    public Outputs outputs() {
      Map<String, String> all = new LinkedHashMap<>(previous);
      all.putAll(ownOutputs);
      return Outputs.of(all);
    }

    @Override
    public void recordIntent(Map<String, String> intent) {
      requireRunning("recordIntent");
      if (ownOutputs.entrySet().containsAll(intent.entrySet())) {
        return; // durable already: declared with the step's start, or recorded by an earlier attempt
      }
      ownOutputs.putAll(intent);
      Map<String, String> snapshot = Map.copyOf(ownOutputs);
      run.write(new FencedWriter.Write().steps(run.book.with(transitions.stepUpdated(row, StepStatus.RUNNING,
          snapshot, null, false, attempt, startedAt))));
    }

    @Override
    public SecretStore secrets() {
      requireRunning("secrets");
      return secrets.storeFor(job.orgId(), job.accountId(), job.region(), scopes.of(job));
    }

    @Override
    public void log(String message) {
      requireRunning("log");
      JobStatus status = job.phase().working();
      run.write(new FencedWriter.Write().event(JobEventType.LOG, row.name(), status, message));
    }
  }
}
