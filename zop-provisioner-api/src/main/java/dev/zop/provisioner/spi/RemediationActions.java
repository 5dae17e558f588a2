package dev.zop.provisioner.spi;

/**
 * Acts on existing cloud resources for remediation: observe, start, stop, and the provider-owned pause for
 * resources without a stop primitive. States are lower-case words: {@code running}, {@code stopped},
 * {@code paused}, {@code terminated}, {@code starting}, {@code stopping}.
 *
 * <p>Errors may be thrown; the session classifies them like any step's.
 */
public interface RemediationActions {

  String observe(String resourceType, String resourceId) throws Exception;

  void start(String resourceType, String resourceId) throws Exception;

  void stop(String resourceType, String resourceId) throws Exception;

  /** Pauses a resource that has no stop; for some (GCP Dataproc) this is terminal and cannot be undone. */
  void pause(String resourceType, String resourceId) throws Exception;

  /** The IAM operation each verb calls for a resource type, for plans and fix hints. */
  String permission(String verb, String resourceType);
}
