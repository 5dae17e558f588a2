package dev.zop.provisioner.kit;

/**
 * A cloud account's credentials could not be loaded before a call was sent: nothing is set where the account's
 * credentials reference points, or a role could not be assumed. Raised by a provider's credentials lookup and
 * classified {@code user_action} {@code credentials_missing} by {@link HttpStatusClassifier#credentialsMissing},
 * never as a transient fault: waiting does not make credentials appear.
 *
 * @see #fixHint() what the user should set, and where, for this account
 */
public final class CredentialsUnavailableException extends RuntimeException {
  private final String fixHint;

  public CredentialsUnavailableException(String message, String fixHint, Throwable cause) {
    super(message, cause);
    this.fixHint = fixHint;
  }

  public String fixHint() {
    return fixHint;
  }

  /** The first {@code CredentialsUnavailableException} among {@code error} and its causes, or null. */
  public static CredentialsUnavailableException in(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof CredentialsUnavailableException found) {
        return found;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return null;
  }
}
