package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.internal.lifecycle.CompletedJob;
import dev.zop.provisioner.core.internal.lifecycle.JobCompletionListener;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Dialect;
import dev.zop.provisioner.core.internal.store.Json;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What each of the {@link OutcomeRule}'s transitions writes: the step's row as it leaves it, the job's status move,
 * its history entry, when the job is due again, and what features add in the same transaction. Each method only
 * builds the fenced write; the run decides when to make it.
 */
final class TransitionWrites {
  private final JobRepository jobs;
  private final StatusTransitions transitions;
  private final Dialect dialect;
  private final List<JobCompletionListener> completionListeners;

  TransitionWrites(JobRepository jobs, Dialect dialect, List<JobCompletionListener> completionListeners) {
    this.jobs = jobs;
    this.transitions = new StatusTransitions(jobs, dialect);
    this.dialect = dialect;
    this.completionListeners = List.copyOf(completionListeners);
  }

  /** The first write of a run over a pending job moves it to running (null when it runs already). */
  FencedWriter.Write started(JobRecord job, Journal journal) {
    return job.status() != JobStatus.PENDING ? null : transitions.move(new FencedWriter.Write(), job.id(),
        StatusTransitions.Move.start(JobStatus.PENDING, JobStatus.RUNNING, "started"))
        .after(c -> journal.started(c, job));
  }

  /**
   * Adds a step's start (a new attempt, begun at {@code at}) with the intent it declared, and its history entry, to
   * {@code write}: the step is running, the intent among its outputs, durable before the step runs.
   */
  FencedWriter.Write starting(FencedWriter.Write write, StepBook book, StepRecord row, int attempt, JobStatus running,
      Map<String, String> declared, Instant at) {
    Map<String, String> outputs = new LinkedHashMap<>(row.outputs());
    outputs.putAll(declared);
    return write.steps(book.with(transitions.stepUpdated(row, StepStatus.RUNNING, outputs, row.failure(), false,
            attempt, at)))
        .event(JobEventType.STEP_STARTED, row.name(), running, "attempt " + attempt);
  }

  /** {@link OutcomeRule.Transition.Retry}: the step back to pending with its failure, due again after the delay. */
  FencedWriter.Write retry(StepBook book, StepRecord row, LeasedContext context, OutcomeRule.Transition.Retry retry,
      JobStatus running) {
    Failure failure = retry.failure();
    long delay = retry.after().toMillis();
    return new FencedWriter.Write().steps(book.with(transitions.stepUpdated(row, StepStatus.PENDING,
            context.ownOutputs, failure, false, context.attempt, context.startedAt)))
        .dueIn(delay)
        .event(JobEventType.STEP_RETRYING, row.name(), running,
            failure.code() + ": " + failure.message() + " (retrying in " + delay + " ms)");
  }

  /**
   * {@link OutcomeRule.Transition.Park}: the step waiting on the cloud, due again after the park. A step polled
   * again while waiting, with nothing new recorded, is left as it is: its row already says waiting, with these
   * outputs (a million jobs polled on a schedule then cost a statement fewer a poll).
   */
  FencedWriter.Write park(StepBook book, StepRecord row, LeasedContext context, OutcomeRule.Transition.Park park,
      JobStatus running) {
    FencedWriter.Write parked = new FencedWriter.Write();
    if (row.status() != StepStatus.WAITING || !context.ownOutputs.equals(row.outputs())) {
      parked.steps(book.with(transitions.stepUpdated(row, StepStatus.WAITING, context.ownOutputs, null, false,
          context.attempt, context.startedAt)));
    }
    return parked.dueIn(park.after().toMillis()).event(JobEventType.STEP_WAITING, row.name(), running,
        park.reason());
  }

  /**
   * {@link OutcomeRule.Transition.AwaitDecision}: the step waiting for a person; the job moves to awaiting a
   * decision the first time ({@code from} is not that yet), and is parked again after that.
   */
  FencedWriter.Write awaitDecision(StepBook book, JobRecord job, StepRecord row, LeasedContext context,
      OutcomeRule.Transition.AwaitDecision await, JobStatus from) {
    Long dueIn = await.dueIn() == null ? null : await.dueIn().toMillis();
    FencedWriter.Write waiting = new FencedWriter.Write();
    if (row.status() != StepStatus.WAITING) {
      waiting.steps(book.with(transitions.stepUpdated(row, StepStatus.WAITING, context.ownOutputs, null, false,
          context.attempt, context.startedAt)));
    }
    return waiting.after(c -> {
      if (from != JobStatus.AWAITING_USER) {
        transitions.move(c, job.id(), StatusTransitions.Move.awaitUser(from, dueIn, row.name(), await.message()));
      } else {
        jobs.park(c, job.id(), dueIn, dialect);
      }
    });
  }

  /**
   * The job cancelled: at decision step {@code at} (rejected, or undecided in time), or, with {@code at} null, at a
   * person's request between steps; {@code started}, when not null, is a step whose start was written but which has
   * not run, and goes back to what it was before.
   */
  FencedWriter.Write cancel(StepBook book, JobRecord job, StepRecord at, StepRecord started, Decision.Request by,
      String reason, JobStatus from, Journal journal) {
    FencedWriter.Write cancelled = new FencedWriter.Write();
    if (at != null) {
      cancelled.steps(book.with(transitions.stepUpdated(at, StepStatus.FAILED, at.outputs(), null, true,
          at.attempts(), at.startedAt())));
    }
    if (started != null) {
      cancelled.steps(book.with(started));
    }
    return cancelled.after(c -> {
      journal.cancelled(c, job, at, by, reason);
      transitions.move(c, job.id(), StatusTransitions.Move.finish(from, JobStatus.CANCELLED, null,
          (at == null ? "cancelled" : "rejected at " + at.name()) + (by == null ? "" : " by " + by.actor())
              + (reason == null ? "" : ": " + reason)));
    });
  }

  /** {@link OutcomeRule.Transition.Fail}: the job failed, at step {@code row} or (null) before any ran. */
  FencedWriter.Write fail(StepBook book, JobRecord job, StepRecord row, Failure failure, JobStatus from,
      Journal journal) {
    FencedWriter.Write failed = new FencedWriter.Write();
    if (row != null) {
      failed.steps(book.with(transitions.stepUpdated(row, StepStatus.FAILED, row.outputs(), failure, true,
          row.attempts(), row.startedAt())));
    }
    return failed.after(c -> {
      if (row != null) {
        jobs.appendEvent(c, job.id(), JobEventType.STEP_FAILED, row.name(), JobStatus.FAILED,
            failure.category().wireName() + " " + failure.code() + ": " + failure.message());
        journal.failed(c, job, row, failure);
      }
      transitions.move(c, job.id(), StatusTransitions.Move.finish(from, JobStatus.FAILED, failure,
          failure.message()));
      if (job.phase() == JobPhase.UPDATE) {
        Database.execute(c, RevisionRows.ended(job.id(), RevisionRows.FAILED));
      }
    });
  }

  /**
   * {@link OutcomeRule.Transition.Advance} and {@link OutcomeRule.Transition.Complete}: the step succeeded with
   * {@code stepOutputs}, the job's outputs become {@code jobOutputs} (null: unchanged); a job waiting for a decision
   * ({@code from}) runs again. The next step's start or the job's completion is added by the caller.
   */
  FencedWriter.Write succeeded(StepBook book, JobRecord job, StepRecord row, LeasedContext context,
      Map<String, String> stepOutputs, Map<String, String> jobOutputs, JobStatus from, JobStatus running,
      Decision.Request approvedBy, Journal journal) {
    FencedWriter.Write succeeded = new FencedWriter.Write();
    if (from == JobStatus.AWAITING_USER) {
      transitions.move(succeeded, job.id(), StatusTransitions.Move.start(from, running,
          "resumed: " + row.name() + " approved"));
    }
    return succeeded.steps(book.with(transitions.stepUpdated(row, StepStatus.SUCCEEDED, stepOutputs, null, true,
            context.attempt, context.startedAt)))
        .event(JobEventType.STEP_SUCCEEDED, row.name(), running,
            approvedBy == null ? null : "approved by " + approvedBy.actor())
        .jobOutputs(jobOutputs == null ? null : Json.writeStringMap(jobOutputs))
        .after(c -> journal.succeeded(c, job, row, approvedBy));
  }

  /**
   * Adds the job's completion to {@code write}: its move to succeeded (or deleted) as row writes, then the
   * completion listeners, whose outputs join the job's.
   */
  FencedWriter.Write completing(FencedWriter.Write write, JobRecord job, JobStatus running,
      Map<String, String> outputs, boolean provisioning) {
    JobStatus done = job.phase().done();
    transitions.move(write, job.id(), StatusTransitions.Move.finish(running, done, null, null));
    if (job.phase() == JobPhase.UPDATE) {
      // what a job made was registered when it was created; a revision records that it was applied, and its
      // config becomes the job's
      return write.row(RevisionRows.ended(job.id(), RevisionRows.APPLIED))
          .row(RevisionRows.madeTheJobsConfig(job.id()));
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
}
