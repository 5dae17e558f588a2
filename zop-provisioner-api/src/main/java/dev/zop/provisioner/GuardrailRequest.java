package dev.zop.provisioner;

import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A guardrail as its author writes it; creating one makes version 1, updating one makes the next version.
 *
 * @param scope null for the whole organisation
 * @param approverGrant null for {@link Policies#GUARDRAIL_APPROVE}
 * @param enabled null for true
 */
@NullMarked
public record GuardrailRequest(@Nullable String name, @Nullable GuardrailLevel level, @Nullable GuardrailRule rule,
    @Nullable GuardrailScope scope, @Nullable String approverGrant, @Nullable String description,
    @Nullable Boolean enabled) {

  /** An enabled guardrail over the whole organisation, approved by {@link Policies#GUARDRAIL_APPROVE}. */
  public static GuardrailRequest of(String name, GuardrailLevel level, GuardrailRule rule) {
    return new GuardrailRequest(name, level, rule, null, null, null, null);
  }

  public GuardrailRequest withScope(GuardrailScope narrowed) {
    return new GuardrailRequest(name, level, rule, narrowed, approverGrant, description, enabled);
  }

  public GuardrailRequest withApproverGrant(String grant) {
    return new GuardrailRequest(name, level, rule, scope, grant, description, enabled);
  }

  public GuardrailRequest withEnabled(boolean on) {
    return new GuardrailRequest(name, level, rule, scope, approverGrant, description, on);
  }
}
