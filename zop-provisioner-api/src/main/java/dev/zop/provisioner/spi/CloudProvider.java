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
}
