package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobStatus;

/** An entry of a job's history not yet written: its job is the one whose write carries it. */
record NewEvent(JobEventType type, String stepName, JobStatus status, String message) {}
