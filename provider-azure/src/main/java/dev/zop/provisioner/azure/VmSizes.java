package dev.zop.provisioner.azure;

import dev.zop.provisioner.kit.MachineSize;
import dev.zop.provisioner.kit.MachineSize.Family;
import dev.zop.provisioner.kit.MachineSizes;

/**
 * The Azure VM sizes a spec may name, with what each gives. A spec that names an AWS instance type (the kit's
 * aliases, {@code m5.large}) gets the size of the same family, vCPUs and memory, so the product documents' bodies
 * run on Azure as written; the plan shows each substitution. Any other Azure size ({@code Standard_D4as_v5}) is
 * taken as it is.
 */
final class VmSizes {
  /** How a plan's defaults name these sizes. */
  static final String KIND = "the Azure VM size";
  static final MachineSizes SIZES = MachineSizes.of(
      new MachineSize("Standard_B2s", Family.BURSTABLE, 2, 4),
      new MachineSize("Standard_B2ms", Family.BURSTABLE, 2, 8),
      new MachineSize("Standard_B4ms", Family.BURSTABLE, 4, 16),
      new MachineSize("Standard_B8ms", Family.BURSTABLE, 8, 32),
      new MachineSize("Standard_D2s_v5", Family.GENERAL, 2, 8),
      new MachineSize("Standard_D4s_v5", Family.GENERAL, 4, 16),
      new MachineSize("Standard_D8s_v5", Family.GENERAL, 8, 32),
      new MachineSize("Standard_D16s_v5", Family.GENERAL, 16, 64),
      new MachineSize("Standard_E2s_v5", Family.MEMORY, 2, 16),
      new MachineSize("Standard_E4s_v5", Family.MEMORY, 4, 32),
      new MachineSize("Standard_E8s_v5", Family.MEMORY, 8, 64),
      new MachineSize("Standard_F2s_v2", Family.COMPUTE, 2, 4),
      new MachineSize("Standard_F4s_v2", Family.COMPUTE, 4, 8),
      new MachineSize("Standard_F8s_v2", Family.COMPUTE, 8, 16));

  private VmSizes() {}
}
