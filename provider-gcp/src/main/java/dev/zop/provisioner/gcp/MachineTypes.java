package dev.zop.provisioner.gcp;

import dev.zop.provisioner.kit.MachineSize;
import dev.zop.provisioner.kit.MachineSize.Family;
import dev.zop.provisioner.kit.MachineSizes;

/**
 * The Compute Engine machine types a spec may name, with what each gives. A spec that names an AWS instance type
 * (the kit's aliases, {@code m5.large}) gets the type of the same family, vCPUs and memory, so the product
 * documents' bodies run on GCP as written; the plan shows each such substitution. Any other GCP machine type
 * ({@code c3-standard-4}) is taken as it is.
 */
final class MachineTypes {
  /** How a plan's defaults name these sizes. */
  static final String KIND = "the GCP machine type";
  static final MachineSizes SIZES = MachineSizes.of(
      new MachineSize("e2-micro", Family.BURSTABLE, 2, 1),         // shared cores
      new MachineSize("e2-small", Family.BURSTABLE, 2, 2),         // shared cores
      new MachineSize("e2-medium", Family.BURSTABLE, 2, 4),        // shared cores
      new MachineSize("e2-standard-2", Family.BURSTABLE, 2, 8),
      new MachineSize("e2-standard-4", Family.BURSTABLE, 4, 16),
      new MachineSize("e2-standard-8", Family.BURSTABLE, 8, 32),
      new MachineSize("n2-standard-2", Family.GENERAL, 2, 8),
      new MachineSize("n2-standard-4", Family.GENERAL, 4, 16),
      new MachineSize("n2-standard-8", Family.GENERAL, 8, 32),
      new MachineSize("n2-standard-16", Family.GENERAL, 16, 64),
      new MachineSize("n2-highmem-2", Family.MEMORY, 2, 16),
      new MachineSize("n2-highmem-4", Family.MEMORY, 4, 32),
      new MachineSize("n2-highmem-8", Family.MEMORY, 8, 64));

  private MachineTypes() {}
}
