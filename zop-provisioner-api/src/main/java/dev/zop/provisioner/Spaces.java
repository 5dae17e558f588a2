package dev.zop.provisioner;

import java.util.List;

/** Deployment spaces of the caller's organisation. */
public interface Spaces {
  Space create(SpaceRequest request);

  Space get(SpaceId id);

  List<Space> list();

  /** Turns a space {@code active} or {@code inactive}; jobs cannot be submitted into an inactive space. */
  Space setStatus(SpaceId id, SpaceStatus status);

  /** Refused with a {@link ConflictException} while jobs that are not yet deleted remain in the space. */
  void delete(SpaceId id);
}
