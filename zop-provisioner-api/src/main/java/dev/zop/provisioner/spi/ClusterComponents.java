package dev.zop.provisioner.spi;

import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.spec.ComponentSpec;
import java.util.List;

/**
 * Installs catalog components into a space's cluster and manages its namespaces; found with
 * {@link java.util.ServiceLoader} ({@code provider-helm} supplies one). When one is installed, {@code component}
 * jobs run through it on any provider's space, with the kubeconfig the engine resolves for the space.
 */
public interface ClusterComponents {
  /** The components a job may install. */
  List<CatalogComponent> catalog();

  /** The driver for component jobs on {@code cluster}: its steps fail with classified failures, never throw. */
  ResourceDriver<ComponentSpec> driver(ClusterTarget cluster);

  /** Namespaces on {@code cluster}. Errors may be thrown; {@link #classify} maps them. */
  List<Namespace> namespaces(ClusterTarget cluster) throws Exception;

  /** Creates a namespace carrying our label; an existing one is a {@code ConflictException}. */
  Namespace createNamespace(ClusterTarget cluster, String name) throws Exception;

  /** Maps an error of this plugin (Helm, the Kubernetes API) to a failure class, in one place. */
  dev.zop.provisioner.Failure classify(Throwable error);
}
