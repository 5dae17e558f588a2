package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Which step list a job is working through: building its resources or tearing them down. */
public enum JobPhase {
  CREATE,
  TEARDOWN;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static JobPhase fromWire(String value) {
    return Wire.parse(JobPhase.class, value);
  }
}
