package dev.zop.provisioner;

/** {@code await} ran out of time; the job carries on in the background. {@link #lastSeen()} is its state then. */
public final class AwaitTimeoutException extends ProvisionerException {
  private final transient Job lastSeen;

  public AwaitTimeoutException(Job lastSeen) {
    super("await_timeout", "job " + lastSeen.id() + " is still " + lastSeen.status().wireName());
    this.lastSeen = lastSeen;
  }

  public Job lastSeen() {
    return lastSeen;
  }
}
