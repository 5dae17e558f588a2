package dev.zop.provisioner.kit;

/**
 * A step called the cloud with a permission it does not declare: the plan would not have listed it. A bug in
 * the provider, classified as a system failure.
 */
public final class UndeclaredPermissionException extends IllegalStateException {
  private final String permission;

  UndeclaredPermissionException(String permission) {
    super("the running step calls " + permission + " but does not declare it");
    this.permission = permission;
  }

  public String permission() {
    return permission;
  }
}
