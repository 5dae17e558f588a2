package dev.zop.provisioner;

/** The caller is known but may not do this (for example, approve a remediation step). */
public final class ForbiddenException extends ProvisionerException {
  public ForbiddenException(String message) {
    super("forbidden", message);
  }
}
