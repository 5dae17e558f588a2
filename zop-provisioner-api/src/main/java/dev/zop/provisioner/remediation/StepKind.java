package dev.zop.provisioner.remediation;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a remediation step does; one dispatcher runs each kind. */
public enum StepKind {
  /** Checks the resource is in the expected state before any change. */
  PRECONDITION,
  /** Parks the job in {@code awaiting_user} until someone approves or rejects. */
  APPROVAL,
  /** Starts or stops the resource through the provider's remediation actions. */
  EXECUTE,
  /** Provider-owned pause for resources without a stop primitive; may be irreversible. */
  PAUSE_SERVICE,
  /** Checks the final state after the cloud action. */
  VALIDATE;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static StepKind fromWire(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      // not chained: JSON binding reports the root cause, and the answer must be in the API's words
      throw new IllegalArgumentException("unknown step kind '" + value + "'");
    }
  }
}
