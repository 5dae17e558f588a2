package dev.zop.provisioner;

import java.math.BigDecimal;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a job would do, shown before anything changes in the cloud: its steps, every IAM operation, the estimated
 * monthly cost, and the outputs its steps will record.
 *
 * @param monthlyTotal the sum of the known prices, at the size the job starts at (a node group's desired size or its
 *     minimum, a pool's minimum); {@code complete} says whether any line had no price
 * @param monthlyTotalAtMax the same sum with every node group and pool at its maximum size: what the job costs at
 *     most once it has scaled out; equal to {@code monthlyTotal} for what does not scale
 * @param pricesAsOf the date of the provider's price table the costs come from, or null when it has none
 * @param defaults what the provider filled in that the spec left out, and why; the job runs with them
 * @param warnings what a person should know before the job runs that does not stop it
 * @param outputs the outputs the job's steps will record, as its provider declares it; empty when the plan was made
 *     by a version that did not list it
 * @param verdicts each guardrail's answer to the plan, in the order of their names; empty when none applies
 */
@NullMarked
public record Plan(
    JobKind kind, String provider, @Nullable String region, List<PlanStep> steps, List<CostComponent> costs,
    BigDecimal monthlyTotal, boolean complete, @Nullable String pricesAsOf, List<PlanDefault> defaults,
    List<PlanWarning> warnings, List<PlanOutput> outputs, BigDecimal monthlyTotalAtMax,
    List<GuardrailVerdict> verdicts) {

  public Plan {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(monthlyTotal, "monthlyTotal");
    monthlyTotalAtMax = monthlyTotalAtMax == null ? monthlyTotal : monthlyTotalAtMax;
    steps = List.copyOf(steps);
    costs = List.copyOf(costs);
    defaults = defaults == null ? List.of() : List.copyOf(defaults);
    warnings = warnings == null ? List.of() : List.copyOf(warnings);
    outputs = outputs == null ? List.of() : List.copyOf(outputs);
    verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
  }

  /** A plan before guardrails answered it. */
  public Plan(JobKind kind, String provider, String region, List<PlanStep> steps, List<CostComponent> costs,
      BigDecimal monthlyTotal, boolean complete, String pricesAsOf, List<PlanDefault> defaults,
      List<PlanWarning> warnings, List<PlanOutput> outputs, BigDecimal monthlyTotalAtMax) {
    this(kind, provider, region, steps, costs, monthlyTotal, complete, pricesAsOf, defaults, warnings, outputs,
        monthlyTotalAtMax, List.of());
  }

  /** A plan whose total does not change with scale, as plans were before they priced the maximum. */
  public Plan(JobKind kind, String provider, String region, List<PlanStep> steps, List<CostComponent> costs,
      BigDecimal monthlyTotal, boolean complete, String pricesAsOf, List<PlanDefault> defaults,
      List<PlanWarning> warnings, List<PlanOutput> outputs) {
    this(kind, provider, region, steps, costs, monthlyTotal, complete, pricesAsOf, defaults, warnings, outputs, null);
  }

  /** A plan without its outputs' declaration, as plans were before they listed it. */
  public Plan(JobKind kind, String provider, String region, List<PlanStep> steps, List<CostComponent> costs,
      BigDecimal monthlyTotal, boolean complete, String pricesAsOf, List<PlanDefault> defaults,
      List<PlanWarning> warnings) {
    this(kind, provider, region, steps, costs, monthlyTotal, complete, pricesAsOf, defaults, warnings, List.of());
  }

  public static Plan of(JobKind kind, String provider, String region, List<PlanStep> steps,
      List<CostComponent> costs, String pricesAsOf, List<PlanDefault> defaults, List<PlanWarning> warnings) {
    return of(kind, provider, region, steps, costs, pricesAsOf, defaults, warnings, List.of());
  }

  public static Plan of(JobKind kind, String provider, String region, List<PlanStep> steps,
      List<CostComponent> costs, String pricesAsOf, List<PlanDefault> defaults, List<PlanWarning> warnings,
      List<PlanOutput> outputs) {
    boolean complete = costs.stream().allMatch(CostComponent::priceKnown);
    return new Plan(kind, provider, region, steps, costs, known(costs), complete, pricesAsOf, defaults, warnings,
        outputs, null);
  }

  /** This plan with the total its costs reach at maximum size ({@code atMax}, priced as {@code costs} are). */
  public Plan withCostsAtMax(List<CostComponent> atMax) {
    return new Plan(kind, provider, region, steps, costs, monthlyTotal, complete, pricesAsOf, defaults, warnings,
        outputs, known(atMax), verdicts);
  }

  /** This plan with the guardrails' answers to it. */
  public Plan withVerdicts(List<GuardrailVerdict> answered) {
    return new Plan(kind, provider, region, steps, costs, monthlyTotal, complete, pricesAsOf, defaults, warnings,
        outputs, monthlyTotalAtMax, answered);
  }

  private static BigDecimal known(List<CostComponent> costs) {
    return costs.stream()
        .filter(CostComponent::priceKnown)
        .map(CostComponent::monthly)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
  }

  /** Every IAM operation of every step, each once, in the order the steps perform them. */
  public Set<String> permissions() {
    Set<String> all = new LinkedHashSet<>();
    steps.forEach(s -> all.addAll(s.permissions()));
    return all;
  }
}
