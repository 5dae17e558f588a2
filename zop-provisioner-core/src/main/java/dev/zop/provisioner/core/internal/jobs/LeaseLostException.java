package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobId;

/** A fenced write found another version: the job was taken over, so this worker must stop touching it. */
public final class LeaseLostException extends RuntimeException {
  public LeaseLostException(JobId jobId) {
    super("lease on " + jobId + " was lost", null, false, false);
  }
}
