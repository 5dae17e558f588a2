package dev.zop.provisioner;

import java.util.EnumSet;
import java.util.Set;

/**
 * Which jobs to list: optionally one space, optionally some statuses, a page size and the cursor of the page
 * before. Build it fluently: {@code JobQuery.all().inSpace(id).withStatus(RUNNING).limit(20)}.
 */
public record JobQuery(SpaceId spaceId, Set<JobStatus> statuses, int limit, String cursor) {
  public static final int DEFAULT_LIMIT = 50;
  public static final int MAX_LIMIT = 500;

  public JobQuery {
    statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
    if (limit < 1 || limit > MAX_LIMIT) {
      throw ValidationException.of("limit", "out_of_range", "limit must be between 1 and " + MAX_LIMIT);
    }
  }

  public static JobQuery all() {
    return new JobQuery(null, Set.of(), DEFAULT_LIMIT, null);
  }

  public static JobQuery inSpace(SpaceId spaceId) {
    return all().withSpace(spaceId);
  }

  public JobQuery withSpace(SpaceId space) {
    return new JobQuery(space, statuses, limit, cursor);
  }

  public JobQuery withStatus(JobStatus first, JobStatus... more) {
    return new JobQuery(spaceId, EnumSet.of(first, more), limit, cursor);
  }

  public JobQuery limit(int pageSize) {
    return new JobQuery(spaceId, statuses, pageSize, cursor);
  }

  /** The page after the one whose {@link Page#nextCursor()} is given. */
  public JobQuery after(String nextCursor) {
    return new JobQuery(spaceId, statuses, limit, nextCursor);
  }
}
