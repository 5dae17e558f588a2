package dev.zop.provisioner;

import java.util.Map;

/**
 * Optional parts of a submit. The same {@code idempotencyKey} returns the same job instead of a second one.
 */
public record SubmitOptions(String idempotencyKey, String name, Map<String, String> tags) {
  public SubmitOptions {
    tags = tags == null ? Map.of() : Tags.copyOf(tags);
    if (idempotencyKey != null && (idempotencyKey.isBlank() || idempotencyKey.length() > 200)) {
      throw ValidationException.of("idempotencyKey", "invalid", "idempotency key must be 1..200 characters");
    }
  }

  public static SubmitOptions none() {
    return new SubmitOptions(null, null, Map.of());
  }

  public static SubmitOptions idempotencyKey(String key) {
    return new SubmitOptions(key, null, Map.of());
  }

  public SubmitOptions withName(String jobName) {
    return new SubmitOptions(idempotencyKey, jobName, tags);
  }

  public SubmitOptions withTags(Map<String, String> jobTags) {
    return new SubmitOptions(idempotencyKey, name, jobTags);
  }
}
