package dev.zop.provisioner.testkit.tck;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the mutating calls a cloud accepted and, when armed, halts the caller right after the n-th: the hook the
 * provider TCK's crash matrix uses. A provider's test wires {@link #accepted(String)} into its client where a
 * mutating call's success is known (an SDK interceptor after the response, a fake's write path).
 */
public final class HaltSwitch {
  private final AtomicLong accepted = new AtomicLong();
  private volatile long haltAt = -1;

  /** Mutating calls accepted so far. */
  public long count() {
    return accepted.get();
  }

  /** The {@code n}-th mutating call from now throws {@link EngineHalted} once the cloud has accepted it. */
  public void arm(int n) {
    haltAt = accepted.get() + n;
  }

  public void disarm() {
    haltAt = -1;
  }

  /** Called after the cloud accepted a mutating {@code operation}; throws when this is the armed call. */
  public void accepted(String operation) {
    long now = accepted.incrementAndGet();
    if (now == haltAt) {
      haltAt = -1;
      throw new EngineHalted(operation);
    }
  }

  /** Whether an operation name reads as a change: anything but Describe, List, Get, Head and Lookup calls. */
  public static boolean isMutating(String action) {
    String name = action.substring(action.indexOf(':') + 1);
    return !(name.startsWith("Describe") || name.startsWith("List") || name.startsWith("Get")
        || name.startsWith("Head") || name.startsWith("Lookup"));
  }
}
