package dev.zop.provisioner.core.internal.store;

import dev.zop.provisioner.FieldError;
import java.util.List;
import java.util.Map;

/**
 * Refuses text the store cannot hold before anything is written: PostgreSQL's text columns reject U+0000, so a
 * NUL in a name would otherwise fail deep in an insert, after validation, as a store error.
 */
public final class StorableText {
  private StorableText() {}

  public static void check(String field, String value, List<FieldError> errors) {
    if (value != null && value.indexOf('\0') >= 0) {
      errors.add(FieldError.of(field, "invalid_character", "must not contain the NUL character (U+0000)"));
    }
  }

  /** Checks keys and values of a map, naming each value's field as {@code prefix.key}. */
  public static void check(String prefix, Map<String, String> values, List<FieldError> errors) {
    if (values == null) {
      return;
    }
    values.forEach((key, value) -> {
      if (key != null && key.indexOf('\0') >= 0) {
        errors.add(FieldError.of(prefix, "invalid_character", "keys must not contain the NUL character (U+0000)"));
      } else {
        check(prefix + "." + key, value, errors);
      }
    });
  }
}
