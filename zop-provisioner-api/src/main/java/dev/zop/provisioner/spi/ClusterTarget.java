package dev.zop.provisioner.spi;

/** The cluster of one space, reachable with a kubeconfig the engine resolves when asked (never stored). */
public interface ClusterTarget {
  /** A kubeconfig (YAML) for the cluster: minted through the space's provider, or the one the space carries. */
  String kubeconfig() throws Exception;

  /** For messages: the space and cluster this target is. */
  String description();
}
