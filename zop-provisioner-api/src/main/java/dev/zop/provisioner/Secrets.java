package dev.zop.provisioner;

/**
 * Reads secret values by reference. A separate call on purpose: listing or reading jobs, databases and
 * connections never returns a value, and a host can authorise revealing apart from reading.
 */
public interface Secrets {
  /**
   * The current value behind {@code ref}.
   *
   * @throws NotFoundException when the reference is unknown to the caller's organisation
   */
  String reveal(SecretRef ref);
}
