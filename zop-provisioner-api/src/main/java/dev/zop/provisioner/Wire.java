package dev.zop.provisioner;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

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
      // not chained: JSON binding reports the root cause, and the answer must be in the API's words
      throw new IllegalArgumentException("'" + value + "' is not one of " + names(type));
    }
  }

  /** The wire names of an enum's constants, comma-separated. */
  static String names(Class<? extends Enum<?>> type) {
    return Arrays.stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining(", "));
  }
}
