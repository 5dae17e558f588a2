package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The two job families that share one table and one state machine. */
public enum JobType {
  PROVISIONING,
  REMEDIATION;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static JobType fromWire(String value) {
    return EnumNames.parse(JobType.class, value);
  }
}
