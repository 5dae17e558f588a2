package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.core.internal.lifecycle.JobCompletionListener;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private final TransitionWrites writes;
  private final StepCalls calls;
  private final JobSteps jobSteps;
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

  StepRunner(Database db, JobRepository jobs, JobSteps jobSteps, List<JobCompletionListener> completionListeners,
      JobScopes scopes, RetryPolicy retryPolicy, JobSignals signals, SecretService secrets, FencedWriter writer,
      Workflow.Source workflows, BooleanSupplier halted, BooleanSupplier stopping, EngineMetrics metrics,
      EngineTracing tracing) {
    this.metrics = metrics;
    this.tracing = tracing;
    this.jobSteps = jobSteps;
    this.db = db;
    this.transitions = new StatusTransitions(jobs, db.dialect());
    this.jobs = jobs;
    this.writes = new TransitionWrites(jobs, db.dialect(), completionListeners);
    this.calls = new StepCalls(tracing, halted);
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
    StepRun run = new StepRun(lease, executor, ended, writer, signals, halted, metrics::leaseLost,
        failure -> failQuietly(lease, failure));
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

  /** Begins a run; true when it was handed on to a queued write (see {@link StepRun#handOn}). */
  private boolean runSteps(StepRun run) {
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
    JobSteps.Phase phase = workflow != null ? new JobSteps.Phase(workflow.session(), workflow.steps(), 0, null)
        : jobSteps.phase(job, all);

    JobStatus running = job.phase().working();
    // The first write of this run also moves a pending job to running, so starting costs no extra transaction.
    run.startWith(writes.started(job, journal), new StepBook(all));
    List<StepRecord> rows = all.stream().filter(s -> s.phase() == job.phase() && s.index() >= phase.firstStep())
        .toList();
    Steps steps = new Steps(run, job, phase, workflow, running, rows, new LinkedHashMap<>(job.outputs()));
    if (!JobSteps.matches(rows, phase.definitions())) {
      steps.failJob(null, Failure.system("step_list_changed",
          "the provider now builds a different step list for this job; its steps were " + names(rows)));
      return false;
    }
    return steps.from(0, -1, Map.of(), null);
  }

  /** A job's steps, run in order from the first not yet succeeded; its state carries over a hand-on. */
  private final class Steps {
    private final StepRun run;
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

    Steps(StepRun run, JobRecord job, JobSteps.Phase phase, Workflow workflow, JobStatus running,
        List<StepRecord> rows, Map<String, String> jobOutputs) {
      this.run = run;
      this.job = job;
      this.session = phase.session();
      this.workflow = workflow;
      this.journal = workflow == null ? Journal.NONE : workflow.journal();
      this.running = running;
      this.status = job.status() == JobStatus.PENDING ? running : job.status();
      this.rows = rows;
      this.definitions = phase.definitions();
      this.jobOutputs = jobOutputs;
      this.timeLimit = phase.timeLimit();
    }

    /**
     * The intent step {@code i} declares before it runs (see {@link Step#intent}), asked with the context it will
     * run with; an exception declares nothing, and the step records its intent itself.
     */
    private Map<String, String> declaredIntent(int i, int attempt) {
      StepRecord row = rows.get(i);
      try {
        Map<String, String> intent = definitions.get(i)
            .intent(context(run, job, row, attempt, jobOutputs, Map.of(), true, null));
        return intent == null ? Map.of() : Map.copyOf(intent);
      } catch (RuntimeException e) {
        LOG.warn("step {} of {} could not declare its intent; it will record it itself", row.name(), job.id(), e);
        return Map.of();
      }
    }

    /**
     * Runs steps from {@code first}: run the step, decide, write. {@code startedAlready} is the index of a step
     * whose start was written with the previous step's success, or -1, and {@code startedIntent} the intent it
     * declared with that start and {@code startedAt} when that start began. True when the run was handed on to a
     * queued write.
     */
    boolean from(int first, int startedAlready, Map<String, String> startedIntent, Instant startedAt) {
      for (int i = first; i < rows.size(); i++) {
        StepRecord row = rows.get(i);
        if (row.status() == StepStatus.SUCCEEDED) {
          continue;
        }
        if (stopping.getAsBoolean()) {
          run.write(c -> jobs.schedule(c, job.id(), 0, db.dialect()));
          run.lease.markReleased();
          return false;
        }
        Decision.Request cancel = workflow == null ? null : workflow.cancelRequested();
        if (cancel != null) {
          // a step started with the previous one's success has not run: it goes back to pending
          cancelJob(null, startedAlready == i ? row : null, cancel, cancel.reason());
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
          run.write(writes.starting(new FencedWriter.Write(), run.book, row, attempt, running, declared, start));
        }
        LeasedContext context = context(run, job, row, attempt, jobOutputs, declared, false, start);
        StepRecord next = i + 1 < rows.size() ? rows.get(i + 1) : null;
        if (step instanceof DecisionStep decisionStep) {
          Decision decision = decision(decisionStep, context);
          OutcomeRule.Transition transition = OutcomeRule.decide(situation(row, next, context,
              decisionStep.timeout()), decision, Instant.now());
          metrics.stepRan(job, step.kind(), decision instanceof Decision.Approved ? "approved"
              : decision instanceof Decision.Rejected ? "rejected" : "waiting", 0);
          return write(i, transition, new StepResult.Done(Map.of()), context,
              decision instanceof Decision.Approved approved ? approved.by() : null);
        }
        long began = System.nanoTime();
        StepResult result = calls.run(job, step, context, session);
        OutcomeRule.Transition transition = OutcomeRule.decide(situation(row, next, context, timeLimit), result,
            retryPolicy, Instant.now(), ThreadLocalRandom.current().nextDouble());
        metrics.stepRan(job, step.kind(), outcome(result, transition), System.nanoTime() - began);
        if (transition instanceof OutcomeRule.Transition.Fail fail && result instanceof StepResult.Failed) {
          metrics.failed(job, fail.failure().category());
        }
        return write(i, transition, result, context, null);
      }
      // every step had succeeded already (a resumed job whose last write was lost, or an empty teardown)
      run.write(writes.completing(new FencedWriter.Write(), job, running, jobOutputs, workflow == null));
      run.lease.markReleased();
      ended(job, JobStatus.SUCCEEDED, null);
      journal.ended(job, JobStatus.SUCCEEDED, null);
      return false;
    }

    private OutcomeRule.Situation situation(StepRecord row, StepRecord next, LeasedContext context,
        Duration limit) {
      return new OutcomeRule.Situation(row.name(), job.phase(), next == null ? null : next.status(),
          context.attempt, context.startedAt, limit, stopping.getAsBoolean());
    }

    /**
     * Writes what the rule made of step {@code i} (see {@link TransitionWrites}), ending the run, or handing it on
     * to the write (true) where the run goes on, or ends, once that write is durable.
     */
    private boolean write(int i, OutcomeRule.Transition transition, StepResult result, LeasedContext context,
        Decision.Request approvedBy) {
      StepRecord row = rows.get(i);
      if (transition instanceof OutcomeRule.Transition.Advance advance) {
        return succeeded(i, (StepResult.Done) result, context, advance.startNext(), approvedBy);
      } else if (transition instanceof OutcomeRule.Transition.Complete) {
        return succeeded(i, (StepResult.Done) result, context, false, approvedBy);
      } else if (transition instanceof OutcomeRule.Transition.Park park) {
        run.writeThen(writes.park(run.book, row, context, park, running), failure -> {
          if (failure == null) {
            run.lease.markReleased(); // parked: a late heartbeat must not lease it again
          }
          run.handOn(failure, () -> false);
        });
        return true;
      } else if (transition instanceof OutcomeRule.Transition.Retry retry) {
        metrics.failed(job, retry.failure().category());
        metrics.retried(job);
        run.write(writes.retry(run.book, row, context, retry, running));
      } else if (transition instanceof OutcomeRule.Transition.AwaitDecision await) {
        JobStatus from = status;
        run.write(writes.awaitDecision(run.book, job, row, context, await, from));
        run.lease.markReleased();
        status = JobStatus.AWAITING_USER;
        if (from != JobStatus.AWAITING_USER) {
          journal.awaitingDecision(job, row, await.message());
        }
        return false;
      } else if (transition instanceof OutcomeRule.Transition.Cancel cancel) {
        cancelJob(context.ended(), null, cancel.by(), cancel.reason());
        return false;
      } else {
        failJob(context.ended(), ((OutcomeRule.Transition.Fail) transition).failure());
        return false;
      }
      run.lease.markReleased();
      return false;
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

    /** Ends the job cancelled (see {@link TransitionWrites#cancel}). */
    private void cancelJob(StepRecord at, StepRecord started, Decision.Request by, String reason) {
      run.write(writes.cancel(run.book, job, at, started, by, reason, status, journal));
      run.lease.markReleased();
      ended(job, JobStatus.CANCELLED, null);
      journal.ended(job, JobStatus.CANCELLED, null);
    }

    private void failJob(StepRecord row, Failure failure) {
      run.write(writes.fail(run.book, job, row, failure, status, journal));
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
      FencedWriter.Write succeeded = writes.succeeded(run.book, job, row, context, stepOutputs,
          outputsChanged ? snapshot : null, status, running, approvedBy, journal);
      status = running;
      Map<String, String> nextIntent = startNext ? declaredIntent(i + 1, attemptOf(next)) : Map.of();
      Instant nextStart = startNext ? Instant.now() : null;
      if (startNext) {
        writes.starting(succeeded, run.book, next, attemptOf(next), running, nextIntent, nextStart);
      } else if (next == null) {
        writes.completing(succeeded, job, running, snapshot, workflow == null);
      }
      int after = i + 1;
      int started = startNext ? after : -1;
      // Nothing more of this job may run before the success is durable.
      run.writeThen(succeeded, failure -> {
        if (failure == null && next == null) {
          run.lease.markReleased();
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

  /** The context a step of {@code job} sees (see {@link LeasedContext}). */
  private LeasedContext context(StepRun run, JobRecord job, StepRecord row, int attempt, Map<String, String> previous,
      Map<String, String> declared, boolean beforeRun, Instant start) {
    return new LeasedContext(run, transitions,
        () -> secrets.storeFor(job.orgId(), job.accountId(), job.region(), scopes.of(job)), job, row, attempt,
        previous, declared, beforeRun, start);
  }

  /** A resumed wait keeps its attempt; anything else is a new one. */
  private static int attemptOf(StepRecord row) {
    return row.status() == StepStatus.WAITING ? Math.max(row.attempts(), 1) : row.attempts() + 1;
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


  private static List<String> names(List<StepRecord> rows) {
    return rows.stream().map(StepRecord::name).toList();
  }
}
