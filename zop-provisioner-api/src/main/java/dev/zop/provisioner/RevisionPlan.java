package dev.zop.provisioner;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a revision of a job would change, shown before anything changes: each field's change and its effect, the
 * steps that carry it out and their IAM operations, and the monthly cost before and after.
 *
 * @param revision the number the revision would get
 * @param before the cost of the config the job has now
 * @param after the cost of the revised config
 * @param pricesAsOf the date of the provider's price table, or null when it has none
 * @param defaults what the provider filled in that the revised config left out, and why
 */
public record RevisionPlan(JobId jobId, int revision, List<RevisionChange> changes, List<PlanStep> steps,
    Cost before, Cost after, String pricesAsOf, List<PlanDefault> defaults) {

  /**
   * A config's monthly cost as priced components.
   *
   * @param monthlyTotal the sum of the known prices; {@code complete} says whether any line had no price
   */
  public record Cost(List<CostComponent> costs, BigDecimal monthlyTotal, boolean complete) {
    public Cost {
      costs = List.copyOf(costs);
    }

    public static Cost of(List<CostComponent> costs) {
      return new Cost(costs, costs.stream().filter(CostComponent::priceKnown).map(CostComponent::monthly)
          .reduce(BigDecimal.ZERO, BigDecimal::add), costs.stream().allMatch(CostComponent::priceKnown));
    }
  }

  public RevisionPlan {
    changes = List.copyOf(changes);
    steps = List.copyOf(steps);
    defaults = defaults == null ? List.of() : List.copyOf(defaults);
  }

  /** Every IAM operation the revision's steps perform, each once, in order. */
  public Set<String> permissions() {
    Set<String> all = new LinkedHashSet<>();
    steps.forEach(s -> all.addAll(s.permissions()));
    return all;
  }

  /** The monthly cost the revision adds (negative when it saves), of the known prices. */
  public BigDecimal monthlyDelta() {
    return after.monthlyTotal().subtract(before.monthlyTotal());
  }
}
