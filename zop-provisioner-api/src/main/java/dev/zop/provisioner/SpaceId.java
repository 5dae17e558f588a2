package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Identifier of a space; the string form is what the REST API shows. */
public record SpaceId(String value) {
  public SpaceId {
    if (value == null || value.isBlank() || value.length() > 64) {
      throw new IllegalArgumentException("an id must be 1..64 characters");
    }
  }

  @JsonCreator
  public static SpaceId of(String value) {
    return new SpaceId(value);
  }

  /** A new random id with the conventional prefix `spc_`. */
  public static SpaceId random() {
    return new SpaceId(Ids.random("spc"));
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
