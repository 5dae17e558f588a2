package dev.zop.provisioner;

import dev.zop.provisioner.discovery.SpaceDiscovery;
import java.util.List;

/** Deployment spaces of the caller's organisation. */
public interface Spaces {
  Space create(SpaceRequest request);

  Space get(SpaceId id);

  /** Newest first. */
  List<Space> list();

  /** Turns a space {@code active} or {@code inactive}; jobs cannot be submitted into an inactive space. */
  Space setStatus(SpaceId id, SpaceStatus status);

  /**
   * Mints a short-lived kubeconfig for the space's cluster ({@code config.clusterName}) through its provider. The
   * token is a secret: it is not stored, and this call is the only one that returns it.
   *
   * @throws ConflictException {@code no_cluster} when the space names no cluster, {@code cluster_access_revoked}
   *     when the cluster is not registered on the space's account ({@link CloudAccounts#registerClusterAccess})
   */
  Kubeconfig kubeconfig(SpaceId id);

  /** Namespaces on the space's cluster. */
  Namespaces namespaces(SpaceId id);

  /** Networks, subnets, DNS zones and clusters in the space's account and region, through its provider. */
  SpaceDiscovery discovery(SpaceId id);

  /**
   * What the space's provider offers to choose from in its region: sizes with what they give and their list
   * prices, and the versions it provisions. Read from the provider's own tables; the cloud is not called.
   */
  dev.zop.provisioner.discovery.Offerings offerings(SpaceId id);

  /** What the space's succeeded jobs cost a month at list prices, each priced as its plan was. */
  SpaceCost cost(SpaceId id);

  /**
   * {@link #cost} of every space of the organisation that holds a succeeded job, in one answer: what an overview
   * shows without asking once per space. A space whose provider is not loaded here is left out.
   */
  java.util.List<SpaceCost> costs();

  /** Refused with a {@link ConflictException} while jobs that are not yet deleted remain in the space. */
  void delete(SpaceId id);
}
