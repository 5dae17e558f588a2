package dev.zop.provisioner;

/** {@code await} ran out of time; the job carries on in the background. {@link #lastSeen()} is its state then. */
public final class AwaitTimeoutException extends ProvisionerException {
  private final transient Job lastSeen;

  public AwaitTimeoutException(Job lastSeen) {
    super("await_timeout", "job " + lastSeen.id() + " is still " + lastSeen.status().wireName());
    this.lastSeen = lastSeen;
  }

  /** For a job whose provisioning view is not at hand (a remediation job awaited over HTTP). */
  public AwaitTimeoutException(JobId id, JobStatus status) {
    super("await_timeout", "job " + id + " is still " + status.wireName());
    this.lastSeen = null;
  }

  /** The job as it stood when time ran out; null when it was awaited as a remediation job over HTTP. */
  public Job lastSeen() {
    return lastSeen;
  }
}
