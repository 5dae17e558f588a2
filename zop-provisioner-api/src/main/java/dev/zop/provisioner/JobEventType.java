package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a progress event reports. */
public enum JobEventType {
  SUBMITTED,
  STATUS,
  STEP_STARTED,
  STEP_SUCCEEDED,
  STEP_WAITING,
  STEP_RETRYING,
  STEP_FAILED,
  RETRIED,
  /** Something the plan warned of (a retired component, say), repeated when the job is submitted. */
  WARNING,
  /** A drift check found the cloud changed from the job's config (a new finding, not a repeat of the last). */
  DRIFTED,
  LOG,
  /** An advisory guardrail the job's change breaks: the change went ahead. */
  GUARDRAIL_WARNING,
  /** Guardrails hold the job for approval, or a person decided it. */
  GUARDRAIL_DECISION;

  /** Made once: a job's every write names its steps' statuses and phases, and its events' types. */
  private final String wire = name().toLowerCase(Locale.ROOT);

  @JsonValue
  public String wireName() {
    return wire;
  }

  @JsonCreator
  public static JobEventType fromWire(String value) {
    return EnumNames.parse(JobEventType.class, value);
  }
}
