package dev.zop.provisioner.remediation;

/**
 * The ids of the built-in remediation templates. A provider names them when it says which of its cloud's resource
 * types each acts on ({@link dev.zop.provisioner.spi.CloudProvider#remediationTypes()}); the cloud-neutral
 * {@code vm} and {@code db-instance} are theirs on every cloud.
 */
public final class BuiltInTemplates {
  /** Stops an idle VM: precondition running, approval, stop, validate stopped. */
  public static final String STOP_IDLE_VM = "stop-idle-vm";
  /** Stops an idle database: its data is kept. */
  public static final String STOP_IDLE_DATABASE = "stop-idle-database";
  /** Pauses a service that has no stop, as the provider defines its pause; it can be resumed. */
  public static final String PAUSE_SERVICE = "pause-service";
  /** Pauses a cluster whose only pause deletes it (GCP Dataproc): irreversible, and said so at approval. */
  public static final String PAUSE_DATAPROC = "pause-dataproc";

  private BuiltInTemplates() {}
}
