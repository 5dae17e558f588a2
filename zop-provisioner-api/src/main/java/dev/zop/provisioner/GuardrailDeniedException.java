package dev.zop.provisioner;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Guardrails refused a change: nothing was written. {@link #verdicts()} holds every guardrail that answered, the
 * denying ones with the field at fault and a fix; the REST service answers 422 {@code guardrail_denied}.
 */
public final class GuardrailDeniedException extends ProvisionerException {
  private final List<GuardrailVerdict> verdicts;

  public GuardrailDeniedException(List<GuardrailVerdict> verdicts) {
    super("guardrail_denied", describe(verdicts));
    this.verdicts = List.copyOf(verdicts);
  }

  /** Every verdict on the change, passed ones included. */
  public List<GuardrailVerdict> verdicts() {
    return verdicts;
  }

  /** The verdicts that refused the change. */
  public List<GuardrailVerdict> denied() {
    return verdicts.stream().filter(v -> v.outcome() == GuardrailVerdict.Outcome.DENIED).toList();
  }

  /** The denying verdicts as field errors: the field at fault, the guardrail's name as the code, message and fix. */
  public List<FieldError> fieldErrors() {
    return denied().stream().map(v -> FieldError.of(v.field() == null ? "plan" : v.field(), "guardrail_denied",
        v.name() + " (v" + v.version() + "): " + v.message() + (v.fixHint() == null ? "" : "; fix: " + v.fixHint())))
        .toList();
  }

  private static String describe(List<GuardrailVerdict> verdicts) {
    return "refused by guardrails: " + verdicts.stream()
        .filter(v -> v.outcome() == GuardrailVerdict.Outcome.DENIED)
        .map(v -> v.name() + " (" + v.message() + ")")
        .collect(Collectors.joining("; "));
  }
}
