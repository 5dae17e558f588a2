package dev.zop.provisioner.remediation;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What a remediation acts on. */
public enum SubjectType {
  RESOURCE;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static SubjectType fromWire(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      // not chained: JSON binding reports the root cause, and the answer must be in the API's words
      throw new IllegalArgumentException("unknown subject type '" + value + "': expected resource");
    }
  }
}
