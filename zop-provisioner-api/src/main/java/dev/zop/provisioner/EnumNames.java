package dev.zop.provisioner;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Lower-snake-case wire names for enums, as the REST API spells them. */
final class EnumNames {
  /**
   * Each enum's constants by their exact wire names: the store and the service read these names for every row and
   * field (a page of jobs reads a few hundred), and trimming, upper-casing and {@code Enum.valueOf} for each cost
   * more than the rest of mapping a row's enums.
   */
  private static final ClassValue<java.util.Map<String, Enum<?>>> BY_WIRE_NAME = new ClassValue<>() {
    @Override
    protected java.util.Map<String, Enum<?>> computeValue(Class<?> type) {
      return Arrays.stream((Enum<?>[]) type.getEnumConstants())
          .collect(Collectors.toUnmodifiableMap(c -> c.name().toLowerCase(Locale.ROOT), c -> c));
    }
  };

  private EnumNames() {}

  static <E extends Enum<E>> E parse(Class<E> type, String value) {
    if (value == null) {
      throw new IllegalArgumentException(type.getSimpleName() + " must not be null");
    }
    Enum<?> exact = BY_WIRE_NAME.get(type).get(value);
    if (exact != null) {
      return type.cast(exact);
    }
    try { // any case, surrounded by spaces
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
