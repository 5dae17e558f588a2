package dev.zop.provisioner.spi;

import dev.zop.provisioner.JobId;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/** What a running step knows about its job, and how it records intent durably. */
public interface StepContext {

  JobId jobId();

  UUID stepId();

  /**
   * When the current attempt of this step started. A resumed wait keeps it, so a step can tell how long it has
   * been waiting for the cloud.
   */
  Instant startedAt();

  /** 1 on the first run; higher after a transient failure, a crash or a retry. A resumed wait keeps it. */
  int attempt();

  /** The outputs of the steps before this one, and this step's own recorded intent. */
  Outputs outputs();

  /**
   * A deterministic, cloud-safe name for something this step creates: the same for every attempt of the same
   * job, different for every job. Lower-case letters, digits and '-', at most 63 characters.
   */
  default String resourceName(String suffix) {
    String id = jobId().value();
    String token = id.substring(id.indexOf('_') + 1);
    String name = ("zop-" + token + "-" + suffix).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
    name = name.length() > 63 ? name.substring(0, 63) : name;
    return name.replaceAll("-+$", "");
  }

  /** A deterministic client token (idempotency token) for a mutating call: 32 hex characters. */
  default String clientToken(String purpose) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest((jobId().value() + "|" + purpose).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * Durably records what the step is about to create, before calling the mutating API. If the engine dies
   * before the step finishes, teardown and the next attempt see it. Entries recorded already — declared with
   * {@link Step#intent} and written with the step's start, or recorded by an earlier attempt — cost no write.
   */
  void recordIntent(Map<String, String> intent);

  /**
   * The secret store of the job's space: its provider's store when the provider has one, else the engine's
   * local store. Put generated credentials here and record only the returned reference as an output.
   */
  SecretStore secrets();

  /** Appends a progress line to the job's event log. Never pass secrets. */
  void log(String message);
}
