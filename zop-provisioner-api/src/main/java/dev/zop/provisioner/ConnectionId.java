package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Identifier of a connection; the string form is what the REST API shows. */
public record ConnectionId(String value) {
  public ConnectionId {
    if (value == null || value.isBlank() || value.length() > 64) {
      throw new IllegalArgumentException("an id must be 1..64 characters");
    }
  }

  @JsonCreator
  public static ConnectionId of(String value) {
    return new ConnectionId(value);
  }

  /** A new random id with the conventional prefix `conn_`. */
  public static ConnectionId random() {
    return new ConnectionId(Ids.random("conn"));
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
