package dev.zop.provisioner.kit;

import java.util.Objects;

/**
 * A machine size by what it gives, in terms every cloud shares: its family, vCPUs and memory. A service sized by
 * memory alone (a cache: Memorystore's capacity, Azure Cache for Redis's C and P sizes) declares 0 vCPUs.
 *
 * @param name the cloud's own name ({@code n2-standard-4}, {@code Standard_D4s_v5}, {@code m5.xlarge})
 * @param vcpus vCPUs, or 0 where a service is sized by memory alone
 * @param memoryGib memory in GiB
 */
public record MachineSize(String name, Family family, int vcpus, double memoryGib) {

  /** What a size is made for. */
  public enum Family {
    /** Cost-optimised, for loads that idle and burst (AWS {@code t3}, GCP {@code e2}, Azure {@code B}). */
    BURSTABLE,
    /** Balanced vCPUs and memory (AWS {@code m5}, GCP {@code n2-standard}, Azure {@code D}). */
    GENERAL,
    /** Twice the general memory a vCPU (AWS {@code r5}, GCP {@code n2-highmem}, Azure {@code E}). */
    MEMORY,
    /** Half the general memory a vCPU (AWS {@code c5}, GCP {@code n2-highcpu}, Azure {@code F}). */
    COMPUTE
  }

  public MachineSize {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(family, "family");
    if (vcpus < 0 || !(memoryGib > 0)) {
      throw new IllegalArgumentException(name + ": a size has memory, and vCPUs or 0");
    }
  }

  /** Whether this size gives at least what {@code wanted} gives: as many vCPUs and as much memory, or more. */
  public boolean holds(MachineSize wanted) {
    return vcpus >= wanted.vcpus && memoryGib >= wanted.memoryGib;
  }

  /** This size under another name: what an alias gives. */
  MachineSize named(String other) {
    return new MachineSize(other, family, vcpus, memoryGib);
  }

  /** Whether {@code other} gives what this size gives: the same family, vCPUs and memory. */
  public boolean sameAs(MachineSize other) {
    return family == other.family && vcpus == other.vcpus && Double.compare(memoryGib, other.memoryGib) == 0;
  }
}
