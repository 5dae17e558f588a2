package dev.zop.provisioner.spi;

import java.util.List;

/**
 * A test double's faults, which an admin injects and lifts over a running service ({@code /simulation/faults}) to
 * see its failure screens without touching a real cloud. The simulated cloud offers one
 * ({@code SimCloud.faultInjection()}); a real provider never does.
 */
public interface FaultInjection {
  /**
   * A fault in force: its kind, the operation or resource type it applies to, and for throttling how many calls it
   * still refuses (else null).
   */
  record Fault(String kind, String target, Integer remaining) {}

  /** Calls of {@code operation} are refused as access denied. */
  void deny(String operation);

  /** Making a resource of {@code resourceType} is refused as over quota. */
  void quotaExceeded(String resourceType);

  /** The next {@code times} calls of {@code operation} are throttled. */
  void throttleNext(String operation, int times);

  /** Calls of {@code operation} are refused as unsupported. */
  void unsupported(String operation);

  /** Lifts every fault {@link #faults} lists. */
  void clearFaults();

  /** The faults in force. */
  List<Fault> faults();

  /** The operations called so far, each once, sorted: targets to choose from. */
  List<String> operationsCalled();

  /** The resource types made so far, each once, sorted. */
  List<String> resourceTypes();
}
