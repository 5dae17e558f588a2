package dev.zop.provisioner.core.internal.jobs;

import java.util.List;

/**
 * Runs a claimed job whose steps are not provider steps (a remediation workflow). The worker claims, leases and
 * fences every job alike and hands these over; the workflow engine lives with its feature, not here.
 */
@FunctionalInterface
public interface WorkflowRunner {
  void run(Lease lease, JobRecord job, List<StepRecord> steps);
}
