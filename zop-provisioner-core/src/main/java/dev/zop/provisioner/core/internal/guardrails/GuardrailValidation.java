package dev.zop.provisioner.core.internal.guardrails;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.ValidationException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** A guardrail as written, checked before any version of it is saved or tried: every bad field at once. */
final class GuardrailValidation {
  private static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,98}[a-z0-9])?");

  private GuardrailValidation() {}

  /** Every problem with a guardrail as written, at once. */
  static void validate(GuardrailRequest request) {
    List<FieldError> errors = new ArrayList<>();
    if (request.name() == null || request.name().isBlank()) {
      errors.add(FieldError.required("name"));
    } else if (!NAME.matcher(request.name()).matches()) {
      errors.add(FieldError.of("name", "invalid", "name must be 1-100 lower-case letters, digits and dashes,"
          + " starting and ending with a letter or digit"));
    }
    if (request.level() == null) {
      errors.add(FieldError.of("level", "required", "level is required: advisory, approval or deny"));
    }
    if (request.rule() == null) {
      errors.add(FieldError.of("rule", "required", "rule is required; its type is one of space_budget,"
          + " cost_increase, allowed_sizes, allowed_regions, allowed_versions, max_count, required_tags,"
          + " allowed_kinds, cel"));
    } else {
      errors.addAll(ruleErrors(request.rule()));
    }
    if (request.approverGrant() != null && !Policies.isApproverGrant(request.approverGrant())) {
      errors.add(FieldError.of("approverGrant", "invalid", "approverGrant must be " + Policies.GUARDRAIL_APPROVE
          + " or a grant under it, " + Policies.GUARDRAIL_APPROVE + ":<name>"));
    }
    if (request.description() != null && request.description().length() > 2000) {
      errors.add(FieldError.of("description", "too_long", "description is longer than 2000 characters"));
    }
    ValidationException.throwIfAny(errors);
  }

  private static List<FieldError> ruleErrors(GuardrailRule rule) {
    List<FieldError> errors = new ArrayList<>();
    if (rule instanceof GuardrailRule.SpaceBudget budget) {
      notNegative(errors, "rule.monthlyMax", budget.monthlyMax(), true);
    } else if (rule instanceof GuardrailRule.CostIncrease increase) {
      if (increase.monthlyMax() == null && increase.percentMax() == null) {
        errors.add(FieldError.of("rule.monthlyMax", "required", "a cost_increase rule needs monthlyMax,"
            + " percentMax or both"));
      }
      notNegative(errors, "rule.monthlyMax", increase.monthlyMax(), false);
      notNegative(errors, "rule.percentMax", increase.percentMax(), false);
    } else if (rule instanceof GuardrailRule.AllowedSizes sizes) {
      nonEmpty(errors, "rule.sizes", sizes.sizes());
    } else if (rule instanceof GuardrailRule.AllowedRegions regions) {
      nonEmpty(errors, "rule.regions", regions.regions());
    } else if (rule instanceof GuardrailRule.AllowedVersions versions) {
      nonEmpty(errors, "rule.versions", versions.versions());
    } else if (rule instanceof GuardrailRule.MaxCount count) {
      if (count.max() < 0) {
        errors.add(FieldError.of("rule.max", "invalid", "max must not be negative"));
      }
    } else if (rule instanceof GuardrailRule.RequiredTags tags) {
      if (tags.tags().isEmpty()) {
        errors.add(FieldError.of("rule.tags", "required", "name at least one tag"));
      }
      tags.tags().forEach((key, regex) -> {
        if (key == null || key.isBlank()) {
          errors.add(FieldError.of("rule.tags", "invalid", "a tag's key must not be blank"));
        } else if (regex != null) {
          try {
            Pattern.compile(regex);
          } catch (PatternSyntaxException e) {
            errors.add(FieldError.of("rule.tags." + key, "invalid_regex", e.getDescription() + " at index "
                + e.getIndex()));
          }
        }
      });
    } else if (rule instanceof GuardrailRule.AllowedKinds kinds) {
      if (kinds.kinds().isEmpty()) {
        errors.add(FieldError.of("rule.kinds", "required", "name at least one kind"));
      }
    } else if (rule instanceof GuardrailRule.Cel cel) {
      errors.addAll(CelPrograms.compileRule(cel.expression(), "rule.expression").errors());
      if (cel.message() != null) {
        errors.addAll(CelPrograms.compileMessage(cel.message(), "rule.message").errors());
      }
    }
    return errors;
  }

  private static void notNegative(List<FieldError> errors, String field, BigDecimal value, boolean required) {
    if (value == null) {
      if (required) {
        errors.add(FieldError.required(field));
      }
    } else if (value.signum() < 0) {
      errors.add(FieldError.of(field, "invalid", field + " must not be negative"));
    }
  }

  private static void nonEmpty(List<FieldError> errors, String field, List<String> values) {
    if (values.isEmpty() || values.stream().anyMatch(v -> v == null || v.isBlank())) {
      errors.add(FieldError.of(field, "required", field + " needs at least one value, none blank"));
    }
  }
}
