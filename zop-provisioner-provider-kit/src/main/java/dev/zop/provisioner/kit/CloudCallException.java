package dev.zop.provisioner.kit;

/**
 * A cloud call that failed, carrying the permission it needed, so the failure can name what to grant. The cause
 * is the SDK's own exception.
 */
public final class CloudCallException extends RuntimeException {
  private final String permission;

  public CloudCallException(String permission, RuntimeException cause) {
    super(permission + ": " + cause.getMessage(), cause, false, false);
    this.permission = permission;
  }

  /** The permission the failed call needed, e.g. {@code ec2:CreateVpc}. */
  public String permission() {
    return permission;
  }

  /** The permission carried by {@code error}, or null when it is not a tagged call's failure. */
  public static String permissionOf(Throwable error) {
    return error instanceof CloudCallException e ? e.permission : null;
  }

  /** The SDK exception behind {@code error}: its cause when it is a tagged call's failure, else itself. */
  public static Throwable unwrap(Throwable error) {
    return error instanceof CloudCallException e ? e.getCause() : error;
  }
}
