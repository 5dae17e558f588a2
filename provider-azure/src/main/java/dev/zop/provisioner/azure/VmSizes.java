package dev.zop.provisioner.azure;

import java.util.Map;

/**
 * The Azure VM size a spec gets when it names an AWS instance type, so the product documents' bodies (written
 * with {@code m5.large}) run on Azure as written: the size with the same vCPUs and memory. The plan shows each
 * substitution. An Azure size ({@code Standard_D4s_v5}) is taken as it is.
 */
final class VmSizes {
  static final Map<String, String> FROM_AWS = Map.of(
      "t3.medium", "Standard_B2s",       // 2 vCPUs, 4 GB
      "t3.large", "Standard_B2ms",       // 2 vCPUs, 8 GB
      "m5.large", "Standard_D2s_v5",     // 2 vCPUs, 8 GB
      "m5.xlarge", "Standard_D4s_v5",    // 4 vCPUs, 16 GB
      "m5.2xlarge", "Standard_D8s_v5",   // 8 vCPUs, 32 GB
      "r5.large", "Standard_E2s_v5");    // 2 vCPUs, 16 GB

  private VmSizes() {}

  static boolean isAwsStyle(String size) {
    return size != null && size.contains(".");
  }
}
