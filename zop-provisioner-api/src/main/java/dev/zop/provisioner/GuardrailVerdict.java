package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One guardrail's answer to one plan.
 *
 * @param version the version of the guardrail that answered
 * @param field the part of the request at fault, as the API spells it ({@code config.nodeGroups[0].instanceType},
 *     {@code tags.owner}, {@code region}), or null when the plan as a whole is (a budget)
 * @param message what the plan does that the guardrail does not allow, or, when it passed, what was checked
 * @param fixHint what to change so that it passes; null when it passed
 * @param exemption the id of the exemption that let a broken guardrail pass ({@code exempted}), or null
 */
@NullMarked
public record GuardrailVerdict(GuardrailId guardrailId, String name, int version, GuardrailLevel level,
    Outcome outcome, @Nullable String field, String message, @Nullable String fixHint, @Nullable String exemption) {

  public GuardrailVerdict {
    Objects.requireNonNull(guardrailId, "guardrailId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(message, "message");
  }

  /** A verdict no exemption touched. */
  public GuardrailVerdict(GuardrailId guardrailId, String name, int version, GuardrailLevel level, Outcome outcome,
      @Nullable String field, String message, @Nullable String fixHint) {
    this(guardrailId, name, version, level, outcome, field, message, fixHint, null);
  }

  /** What a verdict means for the change. */
  public enum Outcome {
    /** The plan keeps to the guardrail. */
    PASSED,
    /** An advisory guardrail is broken: the change goes ahead with a warning. */
    WARNED,
    /** An approval guardrail is broken: the job waits {@code awaiting_approval}. */
    APPROVAL_REQUIRED,
    /** A deny guardrail is broken, or could not be evaluated: the change is refused. */
    DENIED,
    /** The guardrail is broken, or could not be evaluated, but an exemption in force lets the change through. */
    EXEMPTED;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Outcome fromWire(String value) {
      return EnumNames.parse(Outcome.class, value);
    }
  }
}
