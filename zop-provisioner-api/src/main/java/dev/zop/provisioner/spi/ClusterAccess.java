package dev.zop.provisioner.spi;

import dev.zop.provisioner.Kubeconfig;

/** Mints short-lived credentials for a cluster in the session's account and region. */
public interface ClusterAccess {
  /** @throws Exception when the cluster is unknown or the account may not reach it; the session classifies it */
  Kubeconfig mint(String clusterName) throws Exception;

  /**
   * Lets the account's own identity into a cluster it did not create (on EKS an access entry with a cluster
   * policy), so the credentials {@link #mint} makes are accepted. Idempotent. The default does nothing, for a
   * cloud where the account's credentials already reach every cluster it can see.
   */
  default void grant(String clusterName) throws Exception {
  }

  /** Takes back what {@link #grant} gave; nothing to take back is not an error. */
  default void revoke(String clusterName) throws Exception {
  }
}
