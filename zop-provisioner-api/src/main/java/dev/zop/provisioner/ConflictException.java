package dev.zop.provisioner;

/**
 * The call is well formed but the current state refuses it: an illegal status transition, a space that still
 * holds jobs, an idempotency key reused for another request.
 */
public final class ConflictException extends ProvisionerException {
  public ConflictException(String code, String message) {
    super(code, message);
  }
}
