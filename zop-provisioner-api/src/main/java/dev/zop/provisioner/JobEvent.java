package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A progress event of one job. {@code seq} grows with every event of the job, so a watcher can resume after it.
 *
 * @param stepName the step the event is about, or null for job-level events
 * @param status   the job status after the event
 */
@NullMarked
public record JobEvent(
    JobId jobId, long seq, JobEventType type, @Nullable String stepName, JobStatus status, @Nullable String message,
    Instant at) {
  public JobEvent {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(at, "at");
  }
}
