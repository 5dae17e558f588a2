package dev.zop.provisioner.core;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a step that failed with a {@code transient} failure is retried: up to {@code maxAttempts} runs in all,
 * waiting an exponentially growing, jittered delay between them (the job is parked, not a thread). After the
 * last attempt the job fails, retryable.
 */
public record RetryPolicy(int maxAttempts, Duration initialDelay, Duration maxDelay) {

  public RetryPolicy {
    Objects.requireNonNull(initialDelay, "initialDelay");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    if (initialDelay.isNegative() || maxDelay.compareTo(initialDelay) < 0) {
      throw new IllegalArgumentException("need 0 <= initialDelay <= maxDelay");
    }
  }

  /** 5 attempts, 2 s doubling to at most 2 min. */
  public static RetryPolicy defaults() {
    return new RetryPolicy(5, Duration.ofSeconds(2), Duration.ofMinutes(2));
  }

  public static RetryPolicy exponential(int maxAttempts, Duration initialDelay, Duration maxDelay) {
    return new RetryPolicy(maxAttempts, initialDelay, maxDelay);
  }

  /**
   * The delay after failed attempt {@code attempt} (1-based): half of the capped exponential delay, plus a
   * random share of the other half, so retries of many jobs spread out but never come back immediately.
   */
  public Duration delayAfter(int attempt) {
    return delayAfter(attempt, ThreadLocalRandom.current().nextDouble());
  }

  /**
   * The delay after failed attempt {@code attempt} with the random share given: {@code jitter} 0 is half the
   * capped exponential delay, 1 all of it.
   */
  public Duration delayAfter(int attempt, double jitter) {
    if (!(jitter >= 0 && jitter <= 1)) {
      throw new IllegalArgumentException("jitter must be within [0, 1]");
    }
    long base = initialDelay.toMillis();
    long capped = Math.min(maxDelay.toMillis(), base << Math.min(Math.max(attempt - 1, 0), 30));
    long half = capped / 2;
    return Duration.ofMillis(half + Math.round((capped - half) * jitter));
  }
}
