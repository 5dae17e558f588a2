package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The three failure classes. Retry decisions read the category, never the message text.
 */
public enum FailureCategory {
  /** The customer must fix something (permission, quota, billing, bad input). Not retryable as is. */
  USER_ACTION,
  /** Cloud-side throttling or eventual consistency. Retryable. */
  TRANSIENT,
  /** Our code or an unsupported API. Not retryable; recorded for follow-up. */
  SYSTEM;

  public boolean retryable() {
    return this == TRANSIENT;
  }

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static FailureCategory fromWire(String value) {
    return EnumNames.parse(FailureCategory.class, value);
  }
}
