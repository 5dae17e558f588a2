package dev.zop.provisioner.core;

/**
 * The engine's crash hook, for crash tests. The hook is package-private in the engine so that no host can call
 * it; this class, shipped in the testkit in the engine's package, is the one way to reach it.
 */
public final class EngineCrashes {
  private EngineCrashes() {}

  /**
   * Stops {@code engine} the way a crashed process stops: running steps are abandoned mid-way, no lease is
   * released and nothing more is written. Another engine takes the jobs over when the leases expire.
   */
  public static void simulateCrash(EmbeddedProvisioner engine) {
    engine.halt();
  }
}
