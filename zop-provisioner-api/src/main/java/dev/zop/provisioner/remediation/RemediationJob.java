package dev.zop.provisioner.remediation;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A remediation workflow run. It lives in the same job table and state machine as provisioning jobs, with
 * {@code awaiting_user} while an approval is pending.
 */
@NullMarked
public record RemediationJob(
    JobId id,
    String recommendationId,
    SubjectType subjectType,
    String subjectId,
    String templateId,
    int templateVersion,
    boolean irreversible,
    JobStatus status,
    List<RemediationStep> steps,
    @Nullable Failure lastFailure,
    String createdBy,
    Instant createdAt,
    Instant updatedAt) {

  public RemediationJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(recommendationId, "recommendationId");
    Objects.requireNonNull(subjectType, "subjectType");
    Objects.requireNonNull(subjectId, "subjectId");
    Objects.requireNonNull(templateId, "templateId");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    steps = List.copyOf(steps);
  }

  /** The approval step waiting for a decision, or null. */
  public RemediationStep pendingApproval() {
    return status != JobStatus.AWAITING_USER ? null : steps.stream()
        .filter(s -> s.kind() == StepKind.APPROVAL && s.status() == StepStatus.WAITING)
        .findFirst().orElse(null);
  }
}
