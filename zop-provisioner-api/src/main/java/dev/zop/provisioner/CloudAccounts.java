package dev.zop.provisioner;

import dev.zop.provisioner.discovery.DiscoveredCluster;
import java.util.List;

/** Cloud accounts of the caller's organisation. */
public interface CloudAccounts {
  CloudAccount create(CloudAccountRequest request);

  /** The providers this engine has loaded, by id: what an account's {@code provider} may name. */
  List<ProviderInfo> providers();

  CloudAccount get(CloudAccountId id);

  /** Newest first. */
  List<CloudAccount> list();

  /**
   * Kubernetes clusters the account holds in {@code region}, found through its provider; {@code region} null
   * means the account's own region (its {@code region} property).
   */
  List<DiscoveredCluster> clusters(CloudAccountId id, String region);

  /**
   * Registers a cluster on the account for kubeconfig minting, after checking through the provider that the
   * account can see it. Registering again is harmless.
   *
   * @throws NotFoundException when the account does not hold that cluster in that region
   */
  ClusterAccessGrant registerClusterAccess(CloudAccountId id, String region, String clusterName);

  /** Revokes it: spaces on the cluster cannot mint kubeconfigs until it is registered again. */
  void revokeClusterAccess(CloudAccountId id, String region, String clusterName);
}
