package dev.zop.provisioner.spi;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;

/** SDK clients and drivers for one cloud account in one region. */
public interface ProviderSession extends AutoCloseable {

  /**
   * The driver for a kind, typed by the spec it takes.
   *
   * @throws IllegalArgumentException when the provider does not support {@code kind}
   */
  ResourceDriver<? extends ResourceSpec> driver(JobKind kind);

  /**
   * Classifies an error a step threw. Every provider maps its SDK's errors here, in one place; the engine
   * never guesses from a message.
   */
  Failure classify(Throwable error);

  /** Mints kubeconfigs for clusters of the account and region, or null when the provider cannot. */
  default ClusterAccess clusterAccess() {
    return null;
  }

  /** Finds networks, subnets, clusters and DNS zones of the account and region, or null when it cannot. */
  default Discovery discovery() {
    return null;
  }

  /** Acts on existing resources for remediation, or null when the provider cannot. */
  default RemediationActions remediationActions() {
    return null;
  }

  /** The cloud's secret store for this account and region, or null to use the engine's local store. */
  default SecretStore secrets() {
    return null;
  }

  /**
   * Where this session's resources go when its space names no region (an Azure resource group's location, read from
   * the cloud), or null when the provider cannot tell; a space's own region is used as it is and never asks this.
   */
  default String location() {
    return null;
  }

  @Override
  void close();
}
