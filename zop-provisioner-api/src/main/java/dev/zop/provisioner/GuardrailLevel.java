package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a guardrail does when a plan breaks it: {@code advisory} warns (on the plan, and as a
 * {@code guardrail_warning} event of the job), {@code approval} makes the job but holds it
 * {@code awaiting_approval} until someone holding the guardrail's approver grant decides, {@code deny} refuses the
 * change and writes nothing.
 */
public enum GuardrailLevel {
  ADVISORY,
  APPROVAL,
  DENY;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static GuardrailLevel fromWire(String value) {
    return EnumNames.parse(GuardrailLevel.class, value);
  }
}
