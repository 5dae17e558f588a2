package dev.zop.provisioner.spi;

import java.util.List;
import java.util.Map;

/**
 * One durable unit of work. The engine persists its status and outputs; after a crash it runs the step again,
 * so {@link #run} observes the cloud first and adopts what already exists.
 */
public interface Step {

  /** Unique within its job's step list, stable across resumes (e.g. {@code create-cluster}). */
  String name();

  /**
   * What the step does, without the names a spec chose: {@code create-nodegroup} for {@code
   * create-nodegroup-default}. It labels the step's meters, so a provider's kinds must be a small fixed set
   * whatever the specs say; the default, the name, suits a step whose name holds nothing a spec chose.
   */
  default String kind() {
    return name();
  }

  /** The cloud IAM operations this step may call, e.g. {@code eks:CreateCluster}, {@code iam:PassRole}. */
  List<String> permissions();

  /**
   * Does or continues the work. Errors may be thrown; the provider session classifies them.
   */
  StepResult run(StepContext context) throws Exception;

  /**
   * What this step records with {@link StepContext#recordIntent} before it creates something, when that is known
   * before it runs (a name derived from the job, say); empty when it is not, the default. The engine records it
   * with the step's start, in the write that already makes the step before this one durable, so the step's own
   * {@code recordIntent} of the same entries is durable already and costs no write or wait of its own. Entries
   * recorded this way stay recorded even if the step then adopts what exists or creates nothing, as any recorded
   * intent does: teardown treats them as something that may exist, and looks before it deletes.
   *
   * <p>Called just before the step starts, with what the step will see: the outputs of the steps before it and
   * its own recorded intent. The context's {@code recordIntent}, {@code log} and {@code secrets} are not available
   * here. An exception declares nothing; the step then records its intent itself.
   */
  default Map<String, String> intent(StepContext context) {
    return Map.of();
  }
}
