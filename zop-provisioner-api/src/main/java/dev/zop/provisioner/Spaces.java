package dev.zop.provisioner;

import java.util.List;

/** Deployment spaces of the caller's organisation. */
public interface Spaces {
  Space create(SpaceRequest request);

  Space get(SpaceId id);

  List<Space> list();

  /** Turns a space {@code active} or {@code inactive}; jobs cannot be submitted into an inactive space. */
  Space setStatus(SpaceId id, SpaceStatus status);

  /**
   * Mints a short-lived kubeconfig for the space's cluster ({@code config.clusterName}) through its provider. The
   * token is a secret: it is not stored, and this call is the only one that returns it.
   */
  Kubeconfig kubeconfig(SpaceId id);

  /** Refused with a {@link ConflictException} while jobs that are not yet deleted remain in the space. */
  void delete(SpaceId id);
}
