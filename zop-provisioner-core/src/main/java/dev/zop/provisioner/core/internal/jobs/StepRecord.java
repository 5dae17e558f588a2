package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.StepStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** A step of a job, as its job's row stores it (see {@link StoredSteps}). */
public record StepRecord(
    UUID id,
    String jobId,
    JobPhase phase,
    int index,
    String name,
    StepStatus status,
    int attempts,
    List<String> permissions,
    Map<String, String> outputs,
    Failure failure,
    Instant startedAt,
    Instant finishedAt,
    UUID templateStepId,
    String kind) {

  static StepRecord pending(String jobId, JobPhase phase, int index, String name, List<String> permissions) {
    return new StepRecord(UUID.randomUUID(), jobId, phase, index, name, StepStatus.PENDING, 0,
        List.copyOf(permissions), Map.of(), null, null, null, null, null);
  }

  /** A remediation step, carrying its template step's stable id and its kind. */
  public static StepRecord remediation(String jobId, int index, UUID templateStepId, String name, String kind,
      List<String> permissions) {
    return new StepRecord(UUID.randomUUID(), jobId, JobPhase.CREATE, index, name, StepStatus.PENDING, 0,
        List.copyOf(permissions), Map.of(), null, null, null, templateStepId, kind);
  }

  JobStep toView() {
    return new JobStep(id, phase, index, name, status, attempts, permissions, outputs, failure, startedAt,
        finishedAt);
  }
}
