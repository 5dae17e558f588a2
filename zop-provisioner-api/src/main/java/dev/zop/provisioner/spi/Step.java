package dev.zop.provisioner.spi;

import java.util.List;

/**
 * One durable unit of work. The engine persists its status and outputs; after a crash it runs the step again,
 * so {@link #run} observes the cloud first and adopts what already exists.
 */
public interface Step {

  /** Unique within its job's step list, stable across resumes (e.g. {@code create-cluster}). */
  String name();

  /** The cloud IAM operations this step may call, e.g. {@code eks:CreateCluster}, {@code iam:PassRole}. */
  List<String> permissions();

  /**
   * Does or continues the work. Errors may be thrown; the provider session classifies them.
   */
  StepResult run(StepContext context) throws Exception;
}
