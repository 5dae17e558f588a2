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

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static StepStatus fromWire(String value) {
    return Wire.parse(StepStatus.class, value);
  }
}
