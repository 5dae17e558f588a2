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
}
