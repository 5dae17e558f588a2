package dev.zop.provisioner;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a revision of a job would change, shown before anything changes: each field's change and its effect, the
 * steps that carry it out and their IAM operations, and the monthly cost before and after.
 *
 * @param revision the number the revision would get
 * @param before the cost of the config the job has now
 * @param after the cost of the revised config
 * @param pricesAsOf the date of the provider's price table, or null when it has none
 * @param defaults what the provider filled in that the revised config left out, and why
 * @param monthlyDelta what the revision adds a month (negative when it saves); null when it is not known: when a
 *     line whose price is unknown is on one side and not the same on the other, the difference would otherwise
 *     count that line as $0. Always computed from {@code before} and {@code after}; a value passed in is ignored.
 * @param warnings what the plan could not show or will not change: a cloud its provider cannot read back (the
 *     changes then compare configs only), or a value changed outside the job that the revision leaves as it is
 * @param verdicts each guardrail's answer to the revised config; empty when none applies
 */
@NullMarked
public record RevisionPlan(JobId jobId, int revision, List<RevisionChange> changes, List<PlanStep> steps,
    Cost before, Cost after, @Nullable String pricesAsOf, List<PlanDefault> defaults,
    @Nullable BigDecimal monthlyDelta, List<PlanWarning> warnings, List<GuardrailVerdict> verdicts) {

  /**
   * A config's monthly cost as priced components.
   *
   * @param monthlyTotal the sum of the known prices: the total when {@code complete}, else a lower bound ("at
   *     least"), as a line without a price is left out rather than counted as $0
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
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(before, "before");
    Objects.requireNonNull(after, "after");
    changes = List.copyOf(changes);
    steps = List.copyOf(steps);
    defaults = defaults == null ? List.of() : List.copyOf(defaults);
    monthlyDelta = delta(before, after);
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
  }

  /** A revision plan before guardrails answered it. */
  public RevisionPlan(JobId jobId, int revision, List<RevisionChange> changes, List<PlanStep> steps, Cost before,
      Cost after, String pricesAsOf, List<PlanDefault> defaults, BigDecimal monthlyDelta, List<PlanWarning> warnings) {
    this(jobId, revision, changes, steps, before, after, pricesAsOf, defaults, monthlyDelta, warnings, List.of());
  }

  /** This plan with the guardrails' answers to it. */
  public RevisionPlan withVerdicts(List<GuardrailVerdict> answered) {
    return new RevisionPlan(jobId, revision, changes, steps, before, after, pricesAsOf, defaults, monthlyDelta,
        warnings, answered);
  }

  public RevisionPlan(JobId jobId, int revision, List<RevisionChange> changes, List<PlanStep> steps, Cost before,
      Cost after, String pricesAsOf, List<PlanDefault> defaults) {
    this(jobId, revision, changes, steps, before, after, pricesAsOf, defaults, null, List.of());
  }

  public RevisionPlan(JobId jobId, int revision, List<RevisionChange> changes, List<PlanStep> steps, Cost before,
      Cost after, String pricesAsOf, List<PlanDefault> defaults, List<PlanWarning> warnings) {
    this(jobId, revision, changes, steps, before, after, pricesAsOf, defaults, null, warnings);
  }

  /**
   * The difference of the known totals where the lines without a price are the same on both sides (they cancel),
   * else null: the unknown line that changed may cost anything.
   */
  private static BigDecimal delta(Cost before, Cost after) {
    if (before == null || after == null) {
      return null;
    }
    if (!unpriced(before).equals(unpriced(after))) {
      return null;
    }
    return after.monthlyTotal().subtract(before.monthlyTotal());
  }

  private static List<String> unpriced(Cost cost) {
    return cost.costs().stream().filter(c -> !c.priceKnown())
        .map(c -> c.name() + "|" + c.unit() + "|" + c.quantity().stripTrailingZeros().toPlainString())
        .sorted().toList();
  }

  /** Every IAM operation the revision's steps perform, each once, in order. */
  public Set<String> permissions() {
    Set<String> all = new LinkedHashSet<>();
    steps.forEach(s -> all.addAll(s.permissions()));
    return all;
  }
}
