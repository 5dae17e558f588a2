package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The status of one step of a job. */
public enum StepStatus {
  PENDING,
  RUNNING,
  WAITING,
  SUCCEEDED,
  FAILED;

  /** Made once: a job's every write names its steps' statuses and phases, and its events' types. */
  private final String wire = name().toLowerCase(Locale.ROOT);

  @JsonValue
  public String wireName() {
    return wire;
  }

  @JsonCreator
  public static StepStatus fromWire(String value) {
    return EnumNames.parse(StepStatus.class, value);
  }
}
