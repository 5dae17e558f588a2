package dev.zop.provisioner.testkit.tck;

/**
 * Thrown by a provider's client, in place of a cloud's answer, to stand for an engine that died right after the
 * cloud accepted a call. An {@link Error}, so no provider code that handles cloud exceptions can swallow it.
 */
public final class EngineHalted extends Error {
  public EngineHalted(String operation) {
    super("engine halted after the cloud accepted " + operation, null, false, false);
  }
}
