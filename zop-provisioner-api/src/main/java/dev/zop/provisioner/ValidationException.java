package dev.zop.provisioner;

import dev.zop.provisioner.spec.ResourceSpec;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The request is invalid; {@link #fieldErrors()} names every bad field at once. A refusal that compared the request's
 * config with what the cloud has (an import) also carries that as {@link #observedConfig()}, so the caller can ask
 * again with it.
 */
public final class ValidationException extends ProvisionerException {
  private final List<FieldError> fieldErrors;
  private final ResourceSpec observedConfig;

  public ValidationException(List<FieldError> fieldErrors) {
    this(fieldErrors, null);
  }

  /** A refusal of a config that differs from {@code observedConfig}, the config the cloud's resources have. */
  public ValidationException(List<FieldError> fieldErrors, ResourceSpec observedConfig) {
    super("validation_failed", describe(fieldErrors));
    this.fieldErrors = List.copyOf(fieldErrors);
    this.observedConfig = observedConfig;
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

  /** The config the cloud's resources have, where the refusal compared the request with it; else null. */
  public ResourceSpec observedConfig() {
    return observedConfig;
  }

  private static String describe(List<FieldError> errors) {
    return "invalid request: " + errors.stream()
        .map(e -> e.field() + " (" + e.message() + ")")
        .collect(Collectors.joining("; "));
  }
}
