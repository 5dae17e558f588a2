package dev.zop.provisioner;

import java.util.List;
import java.util.stream.Collectors;

/** The request is invalid; {@link #fieldErrors()} names every bad field at once. */
public final class ValidationException extends ProvisionerException {
  private final List<FieldError> fieldErrors;

  public ValidationException(List<FieldError> fieldErrors) {
    super("validation_failed", describe(fieldErrors));
    this.fieldErrors = List.copyOf(fieldErrors);
  }

  public static ValidationException of(String field, String code, String message) {
    return new ValidationException(List.of(FieldError.of(field, code, message)));
  }

  /** Throws when {@code errors} is not empty. */
  public static void throwIfAny(List<FieldError> errors) {
    if (!errors.isEmpty()) {
      throw new ValidationException(errors);
    }
  }

  public List<FieldError> fieldErrors() {
    return fieldErrors;
  }

  private static String describe(List<FieldError> errors) {
    return "invalid request: " + errors.stream()
        .map(e -> e.field() + " (" + e.message() + ")")
        .collect(Collectors.joining("; "));
  }
}
