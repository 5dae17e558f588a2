package dev.zop.provisioner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A job's tags as a submit or a change gives them: every key and value a string, null neither. */
final class Tags {
  private Tags() {}

  /** An unmodifiable copy of {@code tags}; a null key or value is refused, naming it, rather than copied. */
  static Map<String, String> copyOf(Map<String, String> tags) {
    List<FieldError> errors = new ArrayList<>();
    tags.forEach((key, value) -> {
      if (key == null) {
        errors.add(FieldError.of("tags", "required", "a tag's key is a string, not null"));
      } else if (value == null) {
        errors.add(FieldError.of("tags." + key, "required", "a tag's value is a string, not null (\"\" for none)"));
      }
    });
    ValidationException.throwIfAny(errors);
    return Map.copyOf(tags);
  }
}
