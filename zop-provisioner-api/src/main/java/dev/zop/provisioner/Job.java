package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.spec.ResourceSpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A provisioning job as it stands: its spec, status, steps with their outputs, and the last failure.
 *
 * @param spec      the config last applied to the job's resources (the one it was submitted with until a revision
 *     is applied); a revision being applied, or one that failed, is {@code revision}, never this
 * @param outputs   the outputs every completed step recorded (endpoint, ARN, ...), merged in step order
 * @param lastFailure the failure that ended or last interrupted the job, or null
 * @param finishedAt when the job last reached a terminal status, or null
 * @param revision  the revision being applied, or the one that failed, beside the config last applied; null when
 *     the latest config the job was given is applied
 */
@NullMarked
public record Job(
    JobId id,
    SpaceId spaceId,
    JobType jobType,
    JobKind kind,
    String name,
    Map<String, String> tags,
    JobStatus status,
    JobPhase phase,
    @JsonProperty("config") ResourceSpec spec,
    Map<String, String> outputs,
    @Nullable Failure lastFailure,
    List<JobStep> steps,
    String createdBy,
    Instant createdAt,
    Instant updatedAt,
    @Nullable Instant finishedAt,
    @Nullable JobRevision revision) {

  public Job {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(jobType, "jobType");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(status, "status");
    tags = Map.copyOf(tags);
    outputs = Map.copyOf(outputs);
    steps = List.copyOf(steps);
  }

  /** A job whose latest config is applied. */
  public Job(JobId id, SpaceId spaceId, JobType jobType, JobKind kind, String name, Map<String, String> tags,
      JobStatus status, JobPhase phase, ResourceSpec spec, Map<String, String> outputs, @Nullable Failure lastFailure,
      List<JobStep> steps, String createdBy, Instant createdAt, Instant updatedAt, @Nullable Instant finishedAt) {
    this(id, spaceId, jobType, kind, name, tags, status, phase, spec, outputs, lastFailure, steps, createdBy,
        createdAt, updatedAt, finishedAt, null);
  }

  /** The step currently being worked on or the one that failed, or null when none is. */
  public JobStep currentStep() {
    return steps.stream()
        .filter(s -> s.phase() == phase && s.status() != StepStatus.SUCCEEDED && s.status() != StepStatus.PENDING)
        .findFirst()
        .orElse(null);
  }
}
