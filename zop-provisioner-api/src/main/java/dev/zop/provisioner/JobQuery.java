package dev.zop.provisioner;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which jobs to list: optionally one space, optionally some statuses, a page size, the order (newest first unless
 * told otherwise) and the cursor of the page before. Build it fluently:
 * {@code JobQuery.all().inSpace(id).withStatus(RUNNING).limit(20)}.
 */
public record JobQuery(SpaceId spaceId, Set<JobStatus> statuses, int limit, String cursor, ListOrder order) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 500;

  public JobQuery {
    statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
    if (limit < 1 || limit > MAX_LIMIT) {
      throw ValidationException.of("limit", "out_of_range", "limit must be between 1 and " + MAX_LIMIT);
    }
    order = order == null ? ListOrder.NEWEST_FIRST : order;
  }

  /** Newest first. */
  public JobQuery(SpaceId spaceId, Set<JobStatus> statuses, int limit, String cursor) {
    this(spaceId, statuses, limit, cursor, ListOrder.NEWEST_FIRST);
  }

  public static JobQuery all() {
    return new JobQuery(null, Set.of(), DEFAULT_LIMIT, null, ListOrder.NEWEST_FIRST);
  }

  public static JobQuery inSpace(SpaceId spaceId) {
    return all().withSpace(spaceId);
  }

  public JobQuery withSpace(SpaceId space) {
    return new JobQuery(space, statuses, limit, cursor, order);
  }

  public JobQuery withStatus(JobStatus first, JobStatus... more) {
    return withStatuses(EnumSet.of(first, more));
  }

  /** Jobs in any of these statuses; an empty set means every status. */
  public JobQuery withStatuses(Set<JobStatus> any) {
    return new JobQuery(spaceId, any, limit, cursor, order);
  }

  public JobQuery limit(int pageSize) {
    return new JobQuery(spaceId, statuses, pageSize, cursor, order);
  }

  /** Newest first (the default) or oldest first; a cursor keeps the order of the page it came from. */
  public JobQuery order(ListOrder value) {
    return new JobQuery(spaceId, statuses, limit, cursor, value);
  }

  /** The page after the one whose {@link Page#nextCursor()} is given, in the same order. */
  public JobQuery after(String nextCursor) {
    return new JobQuery(spaceId, statuses, limit, nextCursor, order);
  }
}
