package dev.zop.provisioner.kit;

import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a step waits for the cloud: it returns {@link StepResult#waitFor} and the job parks in the database. The
 * interval starts at {@code first} and grows with the time the step has already waited (a quarter of it), up to
 * {@code max}, with ±10% jitter so parked jobs do not wake in lockstep.
 */
public record StatusPoll(Duration first, Duration max) {

  public StatusPoll {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("need 0 <= first <= max, got " + first + " and " + max);
    }
  }

  /** Polls every {@code first}, backing off to eight times that. */
  public static StatusPoll every(Duration first) {
    return new StatusPoll(first, first.multipliedBy(8));
  }

  /** Wait, then run the step again; {@code reason} is what the job's events show, e.g. "cluster is CREATING". */
  public StepResult waitFor(StepContext context, String reason) {
    return StepResult.waitFor(interval(Duration.between(context.startedAt(), Instant.now())), reason);
  }

  /** The interval after a step has waited {@code waited} so far. */
  Duration interval(Duration waited) {
    Duration grown = waited.isNegative() ? first : waited.dividedBy(4);
    Duration base = grown.compareTo(first) < 0 ? first : grown.compareTo(max) > 0 ? max : grown;
    long millis = base.toMillis();
    if (millis < 10) {
      return base;
    }
    long jitter = ThreadLocalRandom.current().nextLong(-millis / 10, millis / 10 + 1);
    return Duration.ofMillis(millis + jitter);
  }
}
