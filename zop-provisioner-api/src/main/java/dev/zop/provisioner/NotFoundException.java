package dev.zop.provisioner;

/** The addressed object does not exist, or belongs to another organisation (which is the same to the caller). */
public final class NotFoundException extends ProvisionerException {
  public NotFoundException(String what, Object id) {
    super("not_found", what + " " + id + " not found");
  }

  /** With a message composed elsewhere, such as the one a remote service sent. */
  public NotFoundException(String message) {
    super("not_found", message);
  }
}
