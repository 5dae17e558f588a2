package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Identifier of a guardrail, the same across its versions; the string form is what the REST API shows. */
public record GuardrailId(String value) {
  public GuardrailId {
    if (value == null || value.isBlank() || value.length() > 64) {
      throw new IllegalArgumentException("an id must be 1..64 characters");
    }
  }

  @JsonCreator
  public static GuardrailId of(String value) {
    return new GuardrailId(value);
  }

  /** A new random id with the conventional prefix {@code grd_}. */
  public static GuardrailId random() {
    return new GuardrailId(Ids.random("grd"));
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
