package dev.zop.provisioner;

import dev.zop.provisioner.remediation.Remediations;

/**
 * The entry point. {@code EmbeddedProvisioner} runs the engine in this JVM; {@code ProvisionerClient} talks to
 * a running service. Both implement this interface and behave the same.
 *
 * <p>Every call acts as {@link #principal()}: it sees only its organisation's rows and is recorded as its actor.
 */
public interface Provisioner extends AutoCloseable {

  Spaces spaces();

  CloudAccounts accounts();

  Jobs jobs();

  Secrets secrets();

  Remediations remediations();

  /** The organisation's guardrails, and the approvals of the jobs they hold. */
  Guardrails guardrails();

  /** The in-cluster components spaces can install ({@code jobs().installComponent(...)}). */
  Catalog catalog();

  /** The same provisioner acting as another principal. Closing the view does not close the engine. */
  Provisioner as(Principal principal);

  Principal principal();

  @Override
  void close();
}
