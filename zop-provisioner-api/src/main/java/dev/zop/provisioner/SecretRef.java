package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Objects;

/**
 * A reference to a secret held in a secret store ({@code local:...}, an AWS Secrets Manager ARN, ...). This is
 * all the engine stores or returns; the value itself is read through {@link Secrets#reveal}.
 */
public record SecretRef(String value) {
  public SecretRef {
    Objects.requireNonNull(value, "value");
    if (value.isBlank() || value.length() > 1000) {
      throw new IllegalArgumentException("a secret reference must be 1..1000 characters");
    }
  }

  @JsonCreator
  public static SecretRef of(String value) {
    return new SecretRef(value);
  }

  @JsonValue
  @Override
  public String toString() {
    return value;
  }
}
