package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * The order of a list: newest first (the default everywhere, so a busy space's first page shows the job just
 * submitted) or oldest first. On the wire, the {@code order} query parameter: {@code newest} or {@code oldest}.
 */
public enum ListOrder {
  NEWEST_FIRST("newest"),
  OLDEST_FIRST("oldest");

  private final String wireName;

  ListOrder(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  /** {@code newest} or {@code oldest}; anything else is an {@link IllegalArgumentException}. */
  @JsonCreator
  public static ListOrder fromWire(String value) {
    for (ListOrder order : values()) {
      if (order.wireName.equals(value.toLowerCase(Locale.ROOT))) {
        return order;
      }
    }
    throw new IllegalArgumentException("order must be newest or oldest, not '" + value + "'");
  }
}
