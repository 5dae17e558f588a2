package dev.zop.provisioner.spi;

import dev.zop.provisioner.SecretRef;

/**
 * Where secret values live (AWS Secrets Manager, GCP Secret Manager, Azure Key Vault, or the engine's local
 * encrypted store). Implementations never log values. The engine keeps only the returned references.
 */
public interface SecretStore {

  /** A short id of the store, e.g. {@code local} or {@code aws-secrets-manager}. */
  String id();

  /**
   * Stores {@code value} under {@code name} (a path such as {@code zop/org/job/admin}), replacing any value
   * there, and returns its reference.
   */
  SecretRef put(String name, String value);

  /**
   * The current value.
   *
   * @throws java.util.NoSuchElementException when nothing is stored under the reference
   */
  String get(SecretRef ref);

  /** Replaces the value behind an existing reference; the reference stays valid. */
  SecretRef rotate(SecretRef ref, String newValue);

  /** Removes the secret; removing one that is not there succeeds. */
  void delete(SecretRef ref);
}
