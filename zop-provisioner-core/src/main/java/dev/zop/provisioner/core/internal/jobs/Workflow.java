package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.Step;
import java.util.List;

/**
 * A job whose steps come from a feature rather than a provider's driver: a remediation workflow. The runner runs
 * it as it runs every job, under the same {@link OutcomeRule}, lease and fenced writes; the workflow gives the
 * steps, the requests people made to stop it, and a {@link Journal} of its own.
 */
public interface Workflow {

  /** Classifies what the steps throw, as a provisioning job's session does. */
  ProviderSession session();

  /** The job's steps, in the order and with the names of its step rows. */
  List<Step> steps();

  /** A person's request to cancel the job, or null; read before each step. */
  Decision.Request cancelRequested();

  Journal journal();

  /** Opens the workflow of a claimed job that is not a provisioning job. */
  @FunctionalInterface
  interface Source {
    Workflow open(JobRecord job, List<StepRecord> steps);
  }
}
