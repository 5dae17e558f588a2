package dev.zop.provisioner;

import java.time.Instant;

/**
 * A progress event of one job. {@code seq} grows with every event of the job, so a watcher can resume after it.
 *
 * @param stepName the step the event is about, or null for job-level events
 * @param status   the job status after the event
 */
public record JobEvent(
    JobId jobId, long seq, JobEventType type, String stepName, JobStatus status, String message, Instant at) {}
