package dev.zop.provisioner.spi;

import dev.zop.provisioner.Kubeconfig;

/** Mints short-lived credentials for a cluster in the session's account and region. */
public interface ClusterAccess {
  /** @throws Exception when the cluster is unknown or the account may not reach it; the session classifies it */
  Kubeconfig mint(String clusterName) throws Exception;
}
