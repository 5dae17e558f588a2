package dev.zop.provisioner;

import java.util.List;

/** Namespaces on one space's cluster, through a kubeconfig minted for the space. */
public interface Namespaces {
  List<Namespace> list();

  /**
   * Creates the namespace with our label.
   *
   * @throws ValidationException when the name is not a Kubernetes DNS-1123 label
   * @throws ConflictException   {@code namespace_exists} when it exists already
   */
  Namespace create(String name);
}
