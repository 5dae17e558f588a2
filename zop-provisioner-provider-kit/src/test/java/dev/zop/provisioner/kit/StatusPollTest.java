package dev.zop.provisioner.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StatusPollTest {
  private final StatusPoll poll = StatusPoll.every(Duration.ofSeconds(10));

  @Test
  void startsAtTheFirstIntervalAndGrowsWithTheWait() {
    assertThat(poll.interval(Duration.ZERO)).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(11));
    assertThat(poll.interval(Duration.ofMinutes(2))).isBetween(Duration.ofSeconds(27), Duration.ofSeconds(33));
  }

  @Test
  void neverWaitsLongerThanTheCap() {
    assertThat(poll.interval(Duration.ofHours(3))).isBetween(Duration.ofSeconds(72), Duration.ofSeconds(88));
  }

  @Test
  void returnsAWaitWithTheReason() {
    StepResult result = poll.waitFor(new TestContexts(JobId.of("job_1"), Instant.now().minusSeconds(400)),
        "cluster is CREATING");
    assertThat(result).isInstanceOfSatisfying(StepResult.Wait.class, w -> {
      assertThat(w.reason()).isEqualTo("cluster is CREATING");
      assertThat(w.after()).isBetween(Duration.ofSeconds(72), Duration.ofSeconds(88));
    });
  }

  @Test
  void tinyIntervalsForTestsStayExact() {
    assertThat(StatusPoll.every(Duration.ofMillis(5)).interval(Duration.ZERO)).isEqualTo(Duration.ofMillis(5));
  }

  @Test
  void refusesACapBelowTheFirstInterval() {
    assertThatThrownBy(() -> new StatusPoll(Duration.ofSeconds(5), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** A resource as a cloud holds it: whose it is, and whether a delete is under way. */
  private record Held(String owner, boolean deleting) {}

  @Test
  void deleteAndWaitDeletesOnceAndWaitsUntilTheCloudHasNothing() throws Exception {
    TestContexts ctx = new TestContexts(JobId.of("job_1"), Instant.now());
    java.util.concurrent.atomic.AtomicReference<Held> cloud = new java.util.concurrent.atomic.AtomicReference<>();
    java.util.List<Held> deleted = new java.util.ArrayList<>();
    StatusPoll.Lookup<Held> find = cloud::get;
    StatusPoll.Deletion<Held> delete = held -> {
      deleted.add(held);
      cloud.set(new Held(held.owner(), true));
    };

    // never made, or gone since: done, and nothing deleted
    assertThat(poll.deleteAndWait(ctx, "cluster c", find, h -> true, Held::deleting, delete))
        .isEqualTo(StepResult.done());
    // another's: left in place
    cloud.set(new Held("someone", false));
    assertThat(poll.deleteAndWait(ctx, "cluster c", find, h -> h.owner().equals("job_1"), Held::deleting, delete))
        .isEqualTo(StepResult.done());
    assertThat(deleted).isEmpty();
    // ours: deleted, and the step waits while the cloud still has it
    cloud.set(new Held("job_1", false));
    assertThat(poll.deleteAndWait(ctx, "cluster c", find, h -> true, Held::deleting, delete))
        .isInstanceOfSatisfying(StepResult.Wait.class, w -> assertThat(w.reason()).isEqualTo(
            "cluster c is being deleted"));
    // run again (a resumed step) while the delete runs: no second delete
    assertThat(poll.deleteAndWait(ctx, "cluster c", find, h -> true, Held::deleting, delete))
        .isInstanceOf(StepResult.Wait.class);
    assertThat(deleted).containsExactly(new Held("job_1", false));
    // gone: done
    cloud.set(null);
    assertThat(poll.deleteAndWait(ctx, "cluster c", find, h -> true, Held::deleting, delete))
        .isEqualTo(StepResult.done());
  }

  @Test
  void awaitReadyWaitsOnTheStateFailsWhatTheCloudGaveUpOnAndNoticesADisappearance() throws Exception {
    TestContexts ctx = new TestContexts(JobId.of("job_1"), Instant.now());
    java.util.concurrent.atomic.AtomicReference<String> state = new java.util.concurrent.atomic.AtomicReference<>();
    dev.zop.provisioner.Failure gaveUp = dev.zop.provisioner.Failure.userAction("cluster_failed", "no", "fix", null);
    StatusPoll.Lookup<String> find = state::get;
    java.util.function.Function<String, dev.zop.provisioner.Failure> failed = s -> s.equals("FAILED") ? gaveUp : null;

    assertThat(poll.awaitReady(ctx, "cluster c", find, s -> s, "ACTIVE"::equals, failed, s -> StepResult.done()))
        .isInstanceOfSatisfying(StepResult.Failed.class, f -> {
          assertThat(f.failure().code()).isEqualTo("resource_missing");
          assertThat(f.failure().message()).isEqualTo("cluster c disappeared while it was being created");
        });
    state.set("CREATING");
    assertThat(poll.awaitReady(ctx, "cluster c", find, s -> s, "ACTIVE"::equals, failed, s -> StepResult.done()))
        .isInstanceOfSatisfying(StepResult.Wait.class, w -> assertThat(w.reason()).isEqualTo("cluster c is CREATING"));
    state.set("FAILED");
    assertThat(poll.awaitReady(ctx, "cluster c", find, s -> s, "ACTIVE"::equals, failed, s -> StepResult.done()))
        .isEqualTo(StepResult.fail(gaveUp));
    state.set("ACTIVE");
    assertThat(poll.awaitReady(ctx, "cluster c", find, s -> s, "ACTIVE"::equals, failed,
        s -> StepResult.done(java.util.Map.of("state", s))))
        .isEqualTo(StepResult.done(java.util.Map.of("state", "ACTIVE")));
  }
}
