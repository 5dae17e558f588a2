package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The engine's rule: what a step's result makes of its job. A finished step hands on to the next step, or
 * completes the job after the last; a waiting step parks the job until the cloud has had time, unless it has
 * waited past its kind's time limit; a transient failure parks the job for a backoff while attempts remain; any
 * other failure fails the job at that step.
 *
 * <p>Pure: the clock's reading and the retry delay's random share are inputs, so the whole rule is a table
 * ({@code OutcomeRuleTest}). {@link StepRunner} is the I/O around it: it runs the step, asks this rule, and
 * writes the transition, for a provisioning job's steps and a remediation workflow's alike. A step that waits for
 * a person ({@link DecisionStep}) is decided the same way: approved goes on, rejected cancels the job, and no
 * decision waits for one, within the step's time for it.
 */
public final class OutcomeRule {
  private OutcomeRule() {}

  /**
   * Where the step stands when its run returned.
   *
   * @param step the step's name
   * @param phase the job's phase
   * @param next the status of the step after this one in the same phase, or null when this step is the last
   * @param attempt this run's attempt (1 on the first run; a resumed wait keeps its attempt)
   * @param startedAt when this attempt started (a resumed wait keeps it), or null when not recorded
   * @param timeLimit the provider's time limit for the job's kind, or null when it sets none
   * @param stopping whether the engine is closing: a finished step then starts no further step
   */
  public record Situation(String step, JobPhase phase, StepStatus next, int attempt, Instant startedAt,
      Duration timeLimit, boolean stopping) {
    public Situation {
      Objects.requireNonNull(step, "step");
      Objects.requireNonNull(phase, "phase");
      if (attempt < 1) {
        throw new IllegalArgumentException("attempt must be at least 1");
      }
    }
  }

  /** What the runner writes after a step's run. */
  public sealed interface Transition {
    /** The step succeeded and steps remain; with {@code startNext}, the next step's start commits with it. */
    record Advance(boolean startNext) implements Transition {}

    /** The step succeeded and was the last: the job moves to {@code status}. */
    record Complete(JobStatus status) implements Transition {}

    /** The cloud is still working: the job parks, to run the step again after {@code after}. */
    record Park(Duration after, String reason) implements Transition {}

    /** A transient failure with attempts left: the step goes back to pending and the job parks for a backoff. */
    record Retry(Duration after, Failure failure) implements Transition {}

    /** The job fails at this step. */
    record Fail(Failure failure) implements Transition {}

    /**
     * A decision step has no decision yet: the job waits for a person, due again after {@code dueIn} (when the
     * step's time for a decision runs out) or, when null, only when a request comes.
     */
    record AwaitDecision(Duration dueIn, String message) implements Transition {}

    /**
     * The job ends cancelled at this step: rejected by {@code by}, or, when {@code by} is null, because no
     * decision came in time.
     */
    record Cancel(Decision.Request by, String reason) implements Transition {}
  }

  /**
   * The transition for {@code result}. {@code now} is the clock's reading; {@code jitter}, in [0, 1], is the
   * random share of a retry's delay ({@link RetryPolicy#delayAfter(int, double)}).
   */
  public static Transition decide(Situation situation, StepResult result, RetryPolicy retries, Instant now,
      double jitter) {
    Objects.requireNonNull(result, "result");
    if (result instanceof StepResult.Done) {
      return finished(situation);
    }
    if (result instanceof StepResult.Wait wait) {
      Duration limit = situation.timeLimit();
      if (limit != null && situation.startedAt() != null && now.isAfter(situation.startedAt().plus(limit))) {
        return new Transition.Fail(Failure.transientFailure("timed_out",
            "step " + situation.step() + " waited longer than " + limit + " (" + wait.reason() + ")"));
      }
      return new Transition.Park(wait.after(), wait.reason());
    }
    Failure failure = ((StepResult.Failed) result).failure();
    if (failure.category() == FailureCategory.TRANSIENT && situation.attempt() < retries.maxAttempts()) {
      return new Transition.Retry(retries.delayAfter(situation.attempt(), jitter), failure);
    }
    return new Transition.Fail(failure);
  }

  private static Transition finished(Situation situation) {
    if (situation.next() == null) {
      return new Transition.Complete(situation.phase().done());
    }
    return new Transition.Advance(situation.next() == StepStatus.PENDING && !situation.stopping());
  }

  /**
   * The transition for a decision step's {@code decision}: approved goes on as a finished step does, rejected
   * cancels the job, and none waits for one until the situation's time limit (the step's time for a decision)
   * has passed since the step started, then cancels it.
   */
  public static Transition decide(Situation situation, Decision decision, Instant now) {
    Objects.requireNonNull(decision, "decision");
    if (decision instanceof Decision.Approved) {
      return finished(situation);
    }
    if (decision instanceof Decision.Rejected rejected) {
      return new Transition.Cancel(rejected.by(), rejected.by().reason());
    }
    Duration limit = situation.timeLimit();
    if (limit == null) {
      return new Transition.AwaitDecision(null, ((Decision.Pending) decision).message());
    }
    Instant deadline = (situation.startedAt() == null ? now : situation.startedAt()).plus(limit);
    if (!now.isBefore(deadline)) {
      return new Transition.Cancel(null, "no decision within " + limit);
    }
    return new Transition.AwaitDecision(Duration.between(now, deadline), ((Decision.Pending) decision).message());
  }
}
