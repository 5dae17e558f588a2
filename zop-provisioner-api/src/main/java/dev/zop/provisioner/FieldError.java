package dev.zop.provisioner;

import java.util.Objects;

/**
 * One invalid field of a request, named by its JSON path (for example {@code config.nodeGroups[0].max}).
 */
public record FieldError(String field, String code, String message) {
  public FieldError {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  public static FieldError of(String field, String code, String message) {
    return new FieldError(field, code, message);
  }

  public static FieldError required(String field) {
    return new FieldError(field, "required", field + " is required");
  }

  /** The same error one level deeper, e.g. {@code name} under {@code config} becomes {@code config.name}. */
  public FieldError under(String prefix) {
    return new FieldError(prefix + "." + field, code, message);
  }
}
