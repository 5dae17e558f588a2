package dev.zop.provisioner;

import java.util.Locale;

/** Lower-snake-case wire names for enums, as the REST API spells them. */
final class Wire {
  private Wire() {}

  static <E extends Enum<E>> E parse(Class<E> type, String value) {
    if (value == null) {
      throw new IllegalArgumentException(type.getSimpleName() + " must not be null");
    }
    try {
      return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown " + type.getSimpleName() + " '" + value + "'", e);
    }
  }
}
