package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What a guardrail checks on a plan, as JSON an object whose {@code type} names the kind. Every kind reads only the
 * plan's document (what the plan makes at its minimum and maximum size, its costs, tags, space and caller), and
 * everything in it is known when the plan is made: a check never passes because a value was missing.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = GuardrailRule.SpaceBudget.class, name = "space_budget"),
    @JsonSubTypes.Type(value = GuardrailRule.CostIncrease.class, name = "cost_increase"),
    @JsonSubTypes.Type(value = GuardrailRule.AllowedSizes.class, name = "allowed_sizes"),
    @JsonSubTypes.Type(value = GuardrailRule.AllowedRegions.class, name = "allowed_regions"),
    @JsonSubTypes.Type(value = GuardrailRule.AllowedVersions.class, name = "allowed_versions"),
    @JsonSubTypes.Type(value = GuardrailRule.MaxCount.class, name = "max_count"),
    @JsonSubTypes.Type(value = GuardrailRule.RequiredTags.class, name = "required_tags"),
    @JsonSubTypes.Type(value = GuardrailRule.AllowedKinds.class, name = "allowed_kinds"),
    @JsonSubTypes.Type(value = GuardrailRule.Cel.class, name = "cel")})
public sealed interface GuardrailRule {

  /**
   * The space's monthly cost may not pass {@code monthlyMax}: its succeeded jobs priced at their maximum size, plus
   * this plan at its maximum (for a revision, the job's revised config in place of its current one).
   */
  record SpaceBudget(BigDecimal monthlyMax) implements GuardrailRule {}

  /**
   * What one change adds a month: at most {@code monthlyMax} dollars and at most {@code percentMax} percent of what
   * it cost before (a new job's "before" is $0, so only the dollar bound applies to it); either may be null.
   */
  record CostIncrease(@Nullable BigDecimal monthlyMax, @Nullable BigDecimal percentMax) implements GuardrailRule {}

  /** Every instance type, class or node size the plan makes is one of {@code sizes} (the provider's names). */
  record AllowedSizes(List<String> sizes) implements GuardrailRule {
    public AllowedSizes {
      sizes = sizes == null ? List.of() : List.copyOf(sizes);
    }
  }

  /** The space's region is one of {@code regions}. */
  record AllowedRegions(List<String> regions) implements GuardrailRule {
    public AllowedRegions {
      regions = regions == null ? List.of() : List.copyOf(regions);
    }
  }

  /**
   * A Kubernetes cluster's version and a datastore's engine version are each one of {@code versions}; an entry
   * allows itself and every version under it ({@code 1.30} allows {@code 1.30.4}, not {@code 1.300}).
   */
  record AllowedVersions(List<String> versions) implements GuardrailRule {
    public AllowedVersions {
      versions = versions == null ? List.of() : List.copyOf(versions);
    }
  }

  /** No node group, pool or datastore runs more than {@code max} nodes or instances at its maximum size. */
  record MaxCount(int max) implements GuardrailRule {}

  /**
   * The job carries each key of {@code tags}; a non-null value is a regular expression the tag's whole value must
   * match.
   */
  record RequiredTags(Map<String, @Nullable String> tags) implements GuardrailRule {
    public RequiredTags {
      tags = tags == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }
  }

  /** The job is of one of {@code kinds}. */
  record AllowedKinds(List<JobKind> kinds) implements GuardrailRule {
    public AllowedKinds {
      kinds = kinds == null ? List.of() : List.copyOf(kinds);
    }
  }

  /**
   * A CEL expression over the plan's document (the variable {@code plan}; see docs/using.md for its fields) that is
   * true when the plan is allowed. {@code message}, when set, is a CEL expression giving the text to show when it is
   * false, such as {@code 'nodes at most 10, asked ' + string(plan.maxNodes)}.
   */
  record Cel(String expression, @Nullable String message) implements GuardrailRule {}
}
