package dev.zop.provisioner;

/** The caller is known but may not do this (for example, approve a remediation step). */
public final class ForbiddenException extends ProvisionerException {
  public ForbiddenException(String message) {
    super("forbidden", message);
  }

  /** With a code other than {@code forbidden}, such as {@code unauthenticated} for a missing or unknown token. */
  public ForbiddenException(String code, String message) {
    super(code, message);
  }
}
