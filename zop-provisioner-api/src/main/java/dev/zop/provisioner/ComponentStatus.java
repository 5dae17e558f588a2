package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a catalog component's upstream project stands. */
public enum ComponentStatus {
  /** Its project still releases and fixes it. */
  MAINTAINED,
  /** Still released, but its project asks users to move to something else. */
  DEPRECATED,
  /** No more releases or security fixes from its project; installed only for those who already depend on it. */
  RETIRED;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static ComponentStatus fromWire(String value) {
    return EnumNames.parse(ComponentStatus.class, value);
  }
}
