package dev.zop.provisioner.gcp;

import dev.zop.provisioner.spi.StateKey;

/**
 * The per-part state every GCP driver's compute resources record ({@link ComputeResources}): that a part may
 * exist, the operation that makes or removes it, and its id and self link.
 */
final class GcpState {
  private GcpState() {}

  /** Recorded before a part is made, so teardown looks for it even after a crash. */
  static final StateKey.PerPart<String> PART = StateKey.textPerPart("%s.part");
  /** The name of the operation making or removing a part; empty once it is spent. */
  static final StateKey.PerPart<String> OPERATION = StateKey.textPerPart("%s.operation");
  static final StateKey.PerPart<String> ID = StateKey.textPerPart("%s.id");
  static final StateKey.PerPart<String> SELF_LINK = StateKey.textPerPart("%s.selfLink");
}
