package dev.zop.provisioner.spi;

import dev.zop.provisioner.JobId;
import java.util.Map;
import java.util.UUID;

/** What a running step knows about its job, and how it records intent durably. */
public interface StepContext {

  JobId jobId();

  UUID stepId();

  /** 1 on the first run; higher after a transient failure, a crash or a retry. A resumed wait keeps it. */
  int attempt();

  /** The outputs of the steps before this one, and this step's own recorded intent. */
  Outputs outputs();

  /**
   * A deterministic, cloud-safe name for something this step creates: the same for every attempt of the same
   * job, different for every job. Lower-case letters, digits and '-', at most 63 characters.
   */
  String resourceName(String suffix);

  /** A deterministic client token (idempotency token) for a mutating call. */
  String clientToken(String purpose);

  /**
   * Durably records what the step is about to create, before calling the mutating API. If the engine dies
   * before the step finishes, teardown and the next attempt see it.
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
