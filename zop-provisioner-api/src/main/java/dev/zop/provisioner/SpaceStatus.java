package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Whether jobs may be submitted into a space. */
public enum SpaceStatus {
  ACTIVE,
  INACTIVE;

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static SpaceStatus fromWire(String value) {
    return EnumNames.parse(SpaceStatus.class, value);
  }
}
