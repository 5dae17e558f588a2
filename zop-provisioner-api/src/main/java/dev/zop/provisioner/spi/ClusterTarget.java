package dev.zop.provisioner.spi;

/** The cluster of one space, reachable with a kubeconfig the engine resolves when asked (never stored). */
public interface ClusterTarget {
  /** A kubeconfig (YAML) for the cluster: minted through the space's provider, or the one the space carries. */
  String kubeconfig() throws Exception;

  /** For messages: the space and cluster this target is. */
  String description();

  /**
   * Whether the space names a cluster at all (a kubeconfig it carries, or a cluster its provider mints for). A
   * space that names none has its components made by its provider where the provider makes them itself.
   */
  default boolean named() {
    return true;
  }
}
