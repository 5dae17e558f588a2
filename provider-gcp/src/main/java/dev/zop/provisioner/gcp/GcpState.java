package dev.zop.provisioner.gcp;

import dev.zop.provisioner.spi.OutputKey;

/**
 * The per-part state every GCP driver's compute resources record ({@link ComputeResources}): that a part may
 * exist, the operation that makes or removes it, and its id and self link.
 */
final class GcpState {
  private GcpState() {}

  /** Recorded before a part is made, so teardown looks for it even after a crash. */
  static final OutputKey.PerPart<String> PART = OutputKey.textPerPart("%s.part");
  /** The name of the operation making or removing a part; empty once it is spent. */
  static final OutputKey.PerPart<String> OPERATION = OutputKey.textPerPart("%s.operation");
  static final OutputKey.PerPart<String> ID = OutputKey.textPerPart("%s.id");
  static final OutputKey.PerPart<String> SELF_LINK = OutputKey.textPerPart("%s.selfLink");
}
