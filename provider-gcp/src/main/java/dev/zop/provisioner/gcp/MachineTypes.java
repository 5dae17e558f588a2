package dev.zop.provisioner.gcp;

import java.util.Map;

/**
 * The GCP machine type a spec gets when it names an AWS instance type, so the product documents' bodies (written
 * with {@code m5.large}) run on GCP as written: the Compute Engine type with the same vCPUs and memory. The plan
 * shows each such substitution. A GCP machine type ({@code e2-standard-4}) is taken as it is.
 */
final class MachineTypes {
  static final Map<String, String> FROM_AWS = Map.of(
      "t3.micro", "e2-micro",          // 2 shared vCPUs, 1 GB
      "t3.small", "e2-small",          // 2 shared vCPUs, 2 GB
      "t3.medium", "e2-medium",        // 2 shared vCPUs, 4 GB
      "t3.large", "e2-standard-2",     // 2 vCPUs, 8 GB
      "m5.large", "n2-standard-2",     // 2 vCPUs, 8 GB
      "m5.xlarge", "n2-standard-4",    // 4 vCPUs, 16 GB
      "m5.2xlarge", "n2-standard-8",   // 8 vCPUs, 32 GB
      "r5.large", "n2-highmem-2");     // 2 vCPUs, 16 GB

  private MachineTypes() {}

  /** Whether {@code type} reads as an AWS instance type ({@code family.size}) rather than a GCP machine type. */
  static boolean isAwsStyle(String type) {
    return type != null && type.contains(".");
  }
}
