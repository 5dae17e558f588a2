package dev.zop.provisioner;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a space's succeeded jobs cost a month at their providers' list prices, priced as each job's plan is, at the
 * size each started at. An estimate from the price tables, not a bill: usage, discounts and what was changed by hand
 * in the cloud are not in it.
 *
 * @param monthlyTotal the sum of the known prices
 * @param complete     false when some line of some job had no list price (the total is then a lower bound)
 * @param jobs         each priced job, newest first
 */
@NullMarked
public record SpaceCost(SpaceId spaceId, BigDecimal monthlyTotal, boolean complete, List<JobCost> jobs) {

  public SpaceCost {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(monthlyTotal, "monthlyTotal");
    jobs = List.copyOf(jobs);
  }

  /** One job's monthly cost; {@code complete} is false when a line of it had no list price. */
  public record JobCost(JobId jobId, String name, JobKind kind, @Nullable BigDecimal monthly, boolean complete) {}
}
