package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.core.internal.jobs.OutcomeRule.Situation;
import dev.zop.provisioner.core.internal.jobs.OutcomeRule.Transition;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The engine's rule as a table: every kind of result, in every situation that changes what it leads to. */
class OutcomeRuleTest {
  private static final Instant NOW = Instant.parse("2026-12-06T12:00:00Z");
  /** 3 attempts; 2 s doubling, capped at 5 s. */
  private static final RetryPolicy RETRIES = RetryPolicy.exponential(3, Duration.ofSeconds(2), Duration.ofSeconds(5));
  private static final Duration LIMIT = Duration.ofMinutes(30);

  private static final StepResult DONE = StepResult.done();
  private static final StepResult WAIT = StepResult.waitFor(Duration.ofSeconds(15), "cluster is CREATING");
  private static final Failure THROTTLED = Failure.transientFailure("throttled", "rate exceeded");
  private static final Failure DENIED = Failure.userAction("permission_denied", "eks:CreateCluster denied",
      "grant eks:CreateCluster", null);
  private static final Failure BUG = Failure.system("engine_error", "a bug");

  static Stream<Arguments> table() {
    return Stream.of(
        // a finished step: the next one starts in the same write, or the run goes on to it, or the job completes
        row("done, next pending", at(JobPhase.CREATE, StepStatus.PENDING, 1), DONE,
            new Transition.Advance(true)),
        row("done, next already succeeded (resumed)", at(JobPhase.CREATE, StepStatus.SUCCEEDED, 1), DONE,
            new Transition.Advance(false)),
        row("done, next waiting (resumed)", at(JobPhase.CREATE, StepStatus.WAITING, 1), DONE,
            new Transition.Advance(false)),
        row("done, next pending, engine closing", at(JobPhase.CREATE, StepStatus.PENDING, 1).stopping(), DONE,
            new Transition.Advance(false)),
        row("done, last create step", at(JobPhase.CREATE, null, 1), DONE,
            new Transition.Complete(JobStatus.SUCCEEDED)),
        row("done, last teardown step", at(JobPhase.TEARDOWN, null, 1), DONE,
            new Transition.Complete(JobStatus.DELETED)),
        row("done, last step, engine closing", at(JobPhase.CREATE, null, 1).stopping(), DONE,
            new Transition.Complete(JobStatus.SUCCEEDED)),
        row("done after waiting past the limit", at(JobPhase.CREATE, null, 1).startedAgo(LIMIT.plusSeconds(1)), DONE,
            new Transition.Complete(JobStatus.SUCCEEDED)),

        // a waiting step parks the job, until its attempt has waited past the kind's limit
        row("wait", at(JobPhase.CREATE, StepStatus.PENDING, 1), WAIT,
            new Transition.Park(Duration.ofSeconds(15), "cluster is CREATING")),
        row("wait, within the limit", at(JobPhase.CREATE, null, 2).startedAgo(LIMIT), WAIT,
            new Transition.Park(Duration.ofSeconds(15), "cluster is CREATING")),
        row("wait, past the limit", at(JobPhase.CREATE, null, 2).startedAgo(LIMIT.plusMillis(1)), WAIT,
            new Transition.Fail(Failure.transientFailure("timed_out",
                "step create-cluster waited longer than PT30M (cluster is CREATING)"))),
        row("wait, past the limit in teardown", at(JobPhase.TEARDOWN, null, 1).startedAgo(LIMIT.plusSeconds(1)), WAIT,
            new Transition.Fail(Failure.transientFailure("timed_out",
                "step create-cluster waited longer than PT30M (cluster is CREATING)"))),
        row("wait, no limit for the kind", at(JobPhase.CREATE, null, 1).noLimit().startedAgo(Duration.ofDays(9)),
            WAIT, new Transition.Park(Duration.ofSeconds(15), "cluster is CREATING")),
        row("wait, start not recorded", at(JobPhase.CREATE, null, 1).notStarted(), WAIT,
            new Transition.Park(Duration.ofSeconds(15), "cluster is CREATING")),
        row("wait, engine closing", at(JobPhase.CREATE, StepStatus.PENDING, 1).stopping(), WAIT,
            new Transition.Park(Duration.ofSeconds(15), "cluster is CREATING")),

        // a transient failure backs off while attempts remain (delay: half the capped exponential, plus jitter)
        row("transient, attempt 1 of 3", at(JobPhase.CREATE, StepStatus.PENDING, 1), StepResult.fail(THROTTLED),
            new Transition.Retry(Duration.ofMillis(1_500), THROTTLED)),
        row("transient, attempt 2 of 3", at(JobPhase.TEARDOWN, null, 2), StepResult.fail(THROTTLED),
            new Transition.Retry(Duration.ofMillis(3_000), THROTTLED)),
        row("transient, last attempt", at(JobPhase.CREATE, StepStatus.PENDING, 3), StepResult.fail(THROTTLED),
            new Transition.Fail(THROTTLED)),
        row("transient, past the last attempt", at(JobPhase.CREATE, null, 4), StepResult.fail(THROTTLED),
            new Transition.Fail(THROTTLED)),

        // anything else fails the job at once
        row("user action", at(JobPhase.CREATE, StepStatus.PENDING, 1), StepResult.fail(DENIED),
            new Transition.Fail(DENIED)),
        row("system", at(JobPhase.TEARDOWN, StepStatus.PENDING, 1), StepResult.fail(BUG),
            new Transition.Fail(BUG)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void theRule(String name, Case situation, StepResult result, Transition expected) {
    assertThat(OutcomeRule.decide(situation.build(), result, RETRIES, NOW, 0.5)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "jitter {0}")
  @MethodSource("jitters")
  void aRetrysDelayIsHalfTheCappedDelayPlusItsRandomShare(double jitter, Duration expected) {
    Situation third = at(JobPhase.CREATE, StepStatus.PENDING, 3).build();
    RetryPolicy five = RetryPolicy.exponential(5, Duration.ofSeconds(2), Duration.ofSeconds(5));
    // attempt 3: 2 s << 2 = 8 s, capped at 5 s; half of it is 2.5 s
    assertThat(OutcomeRule.decide(third, StepResult.fail(THROTTLED), five, NOW, jitter))
        .isEqualTo(new Transition.Retry(expected, THROTTLED));
  }

  static Stream<Arguments> jitters() {
    return Stream.of(arguments(0.0, Duration.ofMillis(2_500)), arguments(0.5, Duration.ofMillis(3_750)),
        arguments(1.0, Duration.ofMillis(5_000)));
  }

  /** A decision step's rows: the limit is the step's time for a decision (30 min), started a minute ago. */
  static Stream<Arguments> decisions() {
    Decision.Request alice = new Decision.Request(7, "alice", "off-hours window");
    Decision.Request bob = new Decision.Request(8, "bob", "batch job tonight");
    Decision pending = new Decision.Pending("Stop the VM?");
    return Stream.of(
        decision("approved, next pending", at(JobPhase.CREATE, StepStatus.PENDING, 1), new Decision.Approved(alice),
            new Transition.Advance(true)),
        decision("approved, last step", at(JobPhase.CREATE, null, 1), new Decision.Approved(alice),
            new Transition.Complete(JobStatus.SUCCEEDED)),
        decision("approved after the time for it (decided in time, read late)",
            at(JobPhase.CREATE, StepStatus.PENDING, 1).startedAgo(LIMIT.plusSeconds(1)),
            new Decision.Approved(alice), new Transition.Advance(true)),
        decision("approved, engine closing", at(JobPhase.CREATE, StepStatus.PENDING, 1).stopping(),
            new Decision.Approved(alice), new Transition.Advance(false)),
        decision("rejected", at(JobPhase.CREATE, StepStatus.PENDING, 1), new Decision.Rejected(bob),
            new Transition.Cancel(bob, "batch job tonight")),
        decision("rejected, last step", at(JobPhase.CREATE, null, 1), new Decision.Rejected(bob),
            new Transition.Cancel(bob, "batch job tonight")),
        decision("none yet", at(JobPhase.CREATE, StepStatus.PENDING, 1), pending,
            new Transition.AwaitDecision(Duration.ofMinutes(29), "Stop the VM?")),
        decision("none yet, step starting now", at(JobPhase.CREATE, StepStatus.PENDING, 1).notStarted(), pending,
            new Transition.AwaitDecision(LIMIT, "Stop the VM?")),
        decision("none yet, no time limit", at(JobPhase.CREATE, StepStatus.PENDING, 1).noLimit()
            .startedAgo(Duration.ofDays(9)), pending, new Transition.AwaitDecision(null, "Stop the VM?")),
        decision("none yet, a millisecond left", at(JobPhase.CREATE, StepStatus.PENDING, 1)
            .startedAgo(LIMIT.minusMillis(1)), pending, new Transition.AwaitDecision(Duration.ofMillis(1),
            "Stop the VM?")),
        decision("none by the deadline", at(JobPhase.CREATE, StepStatus.PENDING, 1).startedAgo(LIMIT), pending,
            new Transition.Cancel(null, "no decision within PT30M")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("decisions")
  void theRuleForADecision(String name, Case situation, Decision decision, Transition expected) {
    assertThat(OutcomeRule.decide(situation.build(), decision, NOW)).isEqualTo(expected);
  }

  private static Arguments decision(String name, Case situation, Decision decision, Transition expected) {
    return arguments(name, situation, decision, expected);
  }

  private static Arguments row(String name, Case situation, StepResult result, Transition expected) {
    return arguments(name, situation, result, expected);
  }

  private static Case at(JobPhase phase, StepStatus next, int attempt) {
    return new Case(phase, next, attempt, NOW.minusSeconds(60), LIMIT, false);
  }

  /** A situation, built up in the table's rows. */
  record Case(JobPhase phase, StepStatus next, int attempt, Instant startedAt, Duration limit, boolean closing) {
    Case stopping() {
      return new Case(phase, next, attempt, startedAt, limit, true);
    }

    Case startedAgo(Duration ago) {
      return new Case(phase, next, attempt, NOW.minus(ago), limit, closing);
    }

    Case noLimit() {
      return new Case(phase, next, attempt, startedAt, null, closing);
    }

    Case notStarted() {
      return new Case(phase, next, attempt, null, limit, closing);
    }

    Situation build() {
      return new Situation("create-cluster", phase, next, attempt, startedAt, limit, closing);
    }

    @Override
    public String toString() {
      return phase + " next=" + next + " attempt=" + attempt;
    }
  }
}
