package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Identifier of a database; the string form is what the REST API shows. */
public record DatabaseId(String value) {
  public DatabaseId {
    if (value == null || value.isBlank() || value.length() > 64) {
      throw new IllegalArgumentException("an id must be 1..64 characters");
    }
  }

  @JsonCreator
  public static DatabaseId of(String value) {
    return new DatabaseId(value);
  }

  /** A new random id with the conventional prefix `db_`. */
  public static DatabaseId random() {
    return new DatabaseId(Ids.random("db"));
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
