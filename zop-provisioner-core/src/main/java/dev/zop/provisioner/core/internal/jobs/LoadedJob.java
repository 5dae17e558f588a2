package dev.zop.provisioner.core.internal.jobs;

import java.util.List;

/**
 * A job with all its steps, read on one connection: what a run starts from.
 *
 * @param heldEvents how many history entries its row held (see {@link JobRepository#HOLD})
 */
record LoadedJob(JobRecord job, List<StepRecord> steps, int heldEvents) {}
