package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Identifier of a job; the string form is what the REST API shows. */
public record JobId(String value) {
  public JobId {
    if (value == null || value.isBlank() || value.length() > 64) {
      throw new IllegalArgumentException("an id must be 1..64 characters");
    }
  }

  @JsonCreator
  public static JobId of(String value) {
    return new JobId(value);
  }

  /** A new random id with the conventional prefix `job_`. */
  public static JobId random() {
    return new JobId(Ids.random("job"));
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
