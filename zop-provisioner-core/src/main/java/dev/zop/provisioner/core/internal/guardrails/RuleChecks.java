package dev.zop.provisioner.core.internal.guardrails;

import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.core.internal.guardrails.PlanDocument.Resource;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** The built-in rule kinds, each a pure function of a plan's document. */
final class RuleChecks {
  /** What runs on an instance size of its own: what "allowed sizes" and "max count" look at. */
  private static final Set<String> SIZED = Set.of("node_group", "vm_pool", "datastore");
  private static final Set<String> VERSIONED = Set.of("kubernetes_cluster", "datastore");

  private RuleChecks() {}

  /**
   * Why a plan breaks a rule.
   *
   * @param failClosed the rule could not be evaluated on this plan: the change is refused whatever the level
   */
  record Broken(String field, String message, String fixHint, boolean failClosed) {
    static Broken of(String field, String message, String fixHint) {
      return new Broken(field, message, fixHint, false);
    }

    static Broken cannotTell(String field, String why, String fixHint) {
      return new Broken(field, "the guardrail could not be evaluated, so it refuses: " + why, fixHint, true);
    }
  }

  /** Null when the plan keeps to {@code rule}; else how it does not. CEL rules are run by the caller. */
  static Broken check(GuardrailRule rule, PlanDocument plan) {
    if (rule instanceof GuardrailRule.SpaceBudget budget) {
      return spaceBudget(budget, plan);
    } else if (rule instanceof GuardrailRule.CostIncrease increase) {
      return costIncrease(increase, plan);
    } else if (rule instanceof GuardrailRule.AllowedSizes sizes) {
      return allowedSizes(sizes, plan);
    } else if (rule instanceof GuardrailRule.AllowedRegions regions) {
      if (plan.region().isEmpty()) {
        return Broken.cannotTell("region", "the space names no region and its provider does not say where its"
            + " resources go", "give the space a region");
      }
      return regions.regions().contains(plan.region()) ? null
          : Broken.of("region", "the space's region " + quoted(plan.region()) + " is not one of "
              + regions.regions(), "make it in a space whose region is one of " + regions.regions());
    } else if (rule instanceof GuardrailRule.AllowedVersions versions) {
      return allowedVersions(versions, plan);
    } else if (rule instanceof GuardrailRule.MaxCount count) {
      return maxCount(count, plan);
    } else if (rule instanceof GuardrailRule.RequiredTags tags) {
      return requiredTags(tags, plan);
    } else if (rule instanceof GuardrailRule.AllowedKinds kinds) {
      return kinds.kinds().stream().anyMatch(k -> k.wireName().equals(plan.kind())) ? null
          : Broken.of("kind", "a " + plan.kind() + " job is not allowed here; allowed: "
              + kinds.kinds().stream().map(JobKind::wireName).toList(), "ask for one of the allowed kinds");
    }
    throw new IllegalArgumentException("a " + rule.getClass().getSimpleName() + " rule is run by GuardrailService");
  }

  private static Broken spaceBudget(GuardrailRule.SpaceBudget budget, PlanDocument plan) {
    BigDecimal total = plan.cost().spaceAtMax();
    // without a price for every line the known total is a lower bound: over the budget already is over it
    if (total.compareTo(budget.monthlyMax()) > 0) {
      return Broken.of(null, "the space would cost " + (plan.cost().complete() ? "up to $" : "at least $")
          + money(total) + " a month (its jobs at their maximum size, this one included), over its budget of $"
          + money(budget.monthlyMax()),
          "lower this job's maximum size or count, tear down what the space no longer uses, or raise the budget");
    }
    if (!plan.cost().complete()) {
      return Broken.cannotTell(null, "a line of the plan, or of a job in the space, has no price, so the space's"
          + " cost is not known (at least $" + money(total) + ")", "price the unpriced lines (see the plan's costs)");
    }
    return null;
  }

  private static Broken costIncrease(GuardrailRule.CostIncrease increase, PlanDocument plan) {
    PlanDocument.Cost cost = plan.cost();
    // a new job starts from $0 exactly, so its known cost is a lower bound of what it adds; a change of a job whose
    // lines are not all priced adds an amount nobody knows
    boolean lowerBound = plan.action().equals("create");
    if (!cost.complete() && !lowerBound) {
      return Broken.cannotTell(null, "a line of the plan has no price, so what the change adds is not known",
          "price the unpriced lines (see the plan's costs)");
    }
    if (increase.monthlyMax() != null && cost.delta().compareTo(increase.monthlyMax()) > 0) {
      return Broken.of(null, "the change adds " + (cost.complete() ? "$" : "at least $") + money(cost.delta())
          + " a month, more than the $" + money(increase.monthlyMax()) + " allowed",
          "make the change smaller, or ask for approval");
    }
    if (increase.percentMax() != null && cost.before().signum() > 0
        && cost.deltaPercent().compareTo(increase.percentMax()) > 0) {
      return Broken.of(null, "the change adds " + cost.deltaPercent().stripTrailingZeros().toPlainString()
          + "% to the job's monthly cost, more than the " + increase.percentMax().stripTrailingZeros().toPlainString()
          + "% allowed", "make the change smaller, or ask for approval");
    }
    if (!cost.complete()) {
      return Broken.cannotTell(null, "a line of the plan has no price, so what the change adds is not known (at"
          + " least $" + money(cost.delta()) + ")", "price the unpriced lines (see the plan's costs)");
    }
    return null;
  }

  private static Broken allowedSizes(GuardrailRule.AllowedSizes allowed, PlanDocument plan) {
    List<Resource> outside = plan.resources().stream()
        .filter(r -> SIZED.contains(r.type()) && !allowed.sizes().contains(r.size())).toList();
    if (outside.isEmpty()) {
      return null;
    }
    Resource first = outside.get(0);
    if (first.size().isEmpty()) {
      return Broken.cannotTell(sizeField(first), "the plan does not say which size " + first.type() + " "
          + quoted(first.name()) + " runs on", "name its size");
    }
    return Broken.of(sizeField(first), outside.stream().map(r -> r.type() + " " + quoted(r.name()) + " runs on "
        + quoted(r.size())).collect(Collectors.joining("; ")) + ": not one of the allowed sizes " + allowed.sizes(),
        "use one of " + allowed.sizes());
  }

  private static Broken allowedVersions(GuardrailRule.AllowedVersions allowed, PlanDocument plan) {
    for (Resource r : plan.resources()) {
      if (!VERSIONED.contains(r.type())) {
        continue;
      }
      if (r.version().isEmpty()) {
        return Broken.cannotTell(r.field() + ".version", "the plan does not say which version " + r.type() + " "
            + quoted(r.name()) + " runs", "name its version");
      }
      boolean ok = allowed.versions().stream().anyMatch(v -> r.version().equals(v) || r.version().startsWith(v + "."));
      if (!ok) {
        return Broken.of(r.field() + ".version", r.type() + " " + quoted(r.name()) + " runs version "
            + quoted(r.version()) + ", not one of " + allowed.versions(), "use one of " + allowed.versions());
      }
    }
    return null;
  }

  private static Broken maxCount(GuardrailRule.MaxCount count, PlanDocument plan) {
    for (Resource r : plan.resources()) {
      if (SIZED.contains(r.type()) && r.countMax() > count.max()) {
        return Broken.of(countField(r), r.type() + " " + quoted(r.name()) + " runs up to " + r.countMax()
            + (r.type().equals("datastore") ? " instances" : " nodes") + ", more than the " + count.max()
            + " allowed", "set its maximum to " + count.max() + " or fewer");
      }
    }
    return null;
  }

  private static Broken requiredTags(GuardrailRule.RequiredTags required, PlanDocument plan) {
    List<String> problems = new ArrayList<>();
    String field = null;
    for (Map.Entry<String, String> tag : required.tags().entrySet()) {
      String value = plan.tags().get(tag.getKey());
      if (value == null || value.isBlank()) {
        problems.add("tag " + quoted(tag.getKey()) + " is missing");
      } else if (tag.getValue() != null && !Pattern.compile(tag.getValue()).matcher(value).matches()) {
        problems.add("tag " + quoted(tag.getKey()) + " is " + quoted(value) + ", which does not match "
            + quoted(tag.getValue()));
      } else {
        continue;
      }
      field = field == null ? "tags." + tag.getKey() : field;
    }
    return problems.isEmpty() ? null : Broken.of(field, String.join("; ", problems),
        "set the job's tags " + required.tags().keySet() + (required.tags().values().stream()
            .anyMatch(v -> v != null) ? " to values matching " + required.tags() : ""));
  }

  static String sizeField(Resource r) {
    return r.field() + (r.type().equals("datastore") ? ".instanceClass" : ".instanceType");
  }

  static String countField(Resource r) {
    return r.field() + (r.type().equals("datastore") ? ".multiAZ" : ".max");
  }

  private static String money(BigDecimal amount) {
    return amount.setScale(2, java.math.RoundingMode.HALF_UP).toPlainString();
  }

  private static String quoted(String value) {
    return "'" + value + "'";
  }
}
