package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Identifier of a cloud account; the string form is what the REST API shows. */
public record CloudAccountId(String value) {
  public CloudAccountId {
    if (value == null || value.isBlank() || value.length() > 64) {
      throw new IllegalArgumentException("an id must be 1..64 characters");
    }
  }

  @JsonCreator
  public static CloudAccountId of(String value) {
    return new CloudAccountId(value);
  }

  /** A new random id with the conventional prefix `ca_`. */
  public static CloudAccountId random() {
    return new CloudAccountId(Ids.random("ca"));
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
