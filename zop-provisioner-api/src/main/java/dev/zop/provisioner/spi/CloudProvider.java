package dev.zop.provisioner.spi;

import dev.zop.provisioner.CloudAccount;

/** A cloud provider plugin, found through {@link java.util.ServiceLoader}. */
public interface CloudProvider {

  ProviderMetadata metadata();

  /**
   * Opens a session for one account and region. The engine caches sessions per (account, region) and closes
   * them when it shuts down, so SDK clients are built once.
   */
  ProviderSession open(CloudAccount account, String region);

  /**
   * Opens a session for one account in one scope: the region and the values a space gives the keys of
   * {@link ProviderMetadata#scopeKeys()} (only those it sets). The default ignores the scope.
   */
  default ProviderSession open(CloudAccount account, String region, java.util.Map<String, String> scope) {
    return open(account, region);
  }

  /**
   * The same provider reporting each call its SDK makes to {@code metrics}. The default reports nothing: a provider
   * whose SDK measures nothing has nothing to report.
   */
  default CloudProvider withCallMetrics(CallMetrics metrics) {
    return this;
  }

  /**
   * The same provider checking on resources that are still being created, changed or deleted every
   * {@code interval} instead of its own defaults (an operator's setting, {@code zop serve
   * --provider-poll-interval}). The default keeps the provider's own: one that does not poll has nothing to change.
   */
  default CloudProvider pollingEvery(java.time.Duration interval) {
    return this;
  }

  /**
   * What the provider offers to choose from in {@code region} (sizes with their prices, versions), read from its own
   * tables. The default offers no lists, which leaves every choice to the spec.
   */
  default dev.zop.provisioner.discovery.Offerings offerings(String region) {
    return dev.zop.provisioner.discovery.Offerings.none(metadata().id(), region);
  }

  /**
   * The resource types of this cloud that each built-in remediation template acts on, by the template's id
   * ({@link dev.zop.provisioner.remediation.BuiltInTemplates}): what a recommendation calls this cloud's VMs,
   * databases and services without a stop. Its remediation actions must act on each. The default names none: the
   * cloud-neutral {@code vm} and {@code db-instance} still apply.
   */
  default java.util.Map<String, java.util.Set<String>> remediationTypes() {
    return java.util.Map.of();
  }
}
