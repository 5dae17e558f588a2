package dev.zop.provisioner.spi;

import dev.zop.provisioner.Failure;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/** What a step run ended with. */
public sealed interface StepResult {

  /** The step finished; its outputs are merged into the job's. */
  record Done(Map<String, String> outputs) implements StepResult {
    public Done {
      outputs = Map.copyOf(outputs);
    }
  }

  /**
   * The cloud is still working; run the step again after {@code after}. The job is parked in the database,
   * not on a thread.
   */
  record Wait(Duration after, String reason) implements StepResult {
    public Wait {
      Objects.requireNonNull(after, "after");
      Objects.requireNonNull(reason, "reason");
      if (after.isNegative()) {
        throw new IllegalArgumentException("after must not be negative");
      }
    }
  }

  /** The step failed; the category decides whether the engine retries it. */
  record Failed(Failure failure) implements StepResult {
    public Failed {
      Objects.requireNonNull(failure, "failure");
    }
  }

  static StepResult done() {
    return new Done(Map.of());
  }

  static StepResult done(Map<String, String> outputs) {
    return new Done(outputs);
  }

  /** Done, recording the entries given ({@link OutputKey#is}). */
  @SafeVarargs
  static StepResult done(Map.Entry<String, String>... entries) {
    return new Done(Map.ofEntries(entries));
  }

  static StepResult waitFor(Duration after, String reason) {
    return new Wait(after, reason);
  }

  static StepResult fail(Failure failure) {
    return new Failed(failure);
  }
}
