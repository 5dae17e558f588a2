package dev.zop.provisioner.core.internal.jobs;

/**
 * Whether the engine is stopping — closing gracefully: no more claims, unfinished jobs given back — or halted, as a
 * crash is: nothing more written. The worker sets it; the runs and the writer read it.
 */
final class EngineStop {
  private volatile boolean stopping;
  private volatile boolean halted;

  /** Closing gracefully. */
  void stop() {
    stopping = true;
  }

  /** As a crash: stopping too, and nothing more is written. */
  void halt() {
    halted = true;
    stopping = true;
  }

  boolean stopping() {
    return stopping;
  }

  boolean halted() {
    return halted;
  }
}
