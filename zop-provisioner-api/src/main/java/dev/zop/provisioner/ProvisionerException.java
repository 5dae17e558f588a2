package dev.zop.provisioner;

/**
 * The root of every failure a {@link Provisioner} call reports. Each subtype carries a stable {@link #code()}.
 */
public abstract sealed class ProvisionerException extends RuntimeException
    permits ValidationException, NotFoundException, ConflictException, ForbiddenException, AwaitTimeoutException,
        ProviderException, GuardrailDeniedException {

  private final String code;

  protected ProvisionerException(String code, String message) {
    super(message);
    this.code = code;
  }

  protected ProvisionerException(String code, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
  }

  /** Stable, machine-readable: {@code validation_failed}, {@code not_found}, {@code conflict}, ... */
  public String code() {
    return code;
  }
}
