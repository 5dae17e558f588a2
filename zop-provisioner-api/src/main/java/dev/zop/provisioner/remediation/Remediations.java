package dev.zop.provisioner.remediation;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.Page;
import java.time.Duration;
import java.util.List;

/** Remediation workflows: start one from a recommendation, decide its approvals, read its audit trail. */
public interface Remediations {

  /** Starts the workflow the recommendation's action and resource type resolve to. */
  RemediationJob start(String recommendationId, SubjectType subjectType, String subjectId);

  RemediationJob get(JobId id);

  /** A page of workflows in the given order; a cursor keeps the order of the page it came from. */
  Page<RemediationJob> list(int limit, String cursor, ListOrder order);

  /** A page of workflows, newest first. */
  default Page<RemediationJob> list(int limit, String cursor) {
    return list(limit, cursor, ListOrder.NEWEST_FIRST);
  }

  /**
   * Approves a pending approval step. Only principals with the {@code admin} or {@code remediation:approve}
   * role may; of two decisions on one step exactly one wins, the other is a {@code ConflictException}.
   */
  RemediationJob approve(JobId id, StepRef step, String reason);

  /** Rejects a pending approval step; the job ends {@code cancelled}. */
  RemediationJob reject(JobId id, StepRef step, String reason);

  /** Cancels a running or parked workflow; a step already under way finishes first. */
  RemediationJob cancel(JobId id, String reason);

  /** Blocks until the job is terminal. */
  RemediationJob await(JobId id, Duration timeout);

  /** The audit timeline, oldest first. */
  List<AuditEntry> audit(JobId id);

  /** Records a recommendation in the engine's own store (when the host uses it rather than its own source). */
  void putRecommendation(Recommendation recommendation);

  /**
   * The recommendations in the engine's own store, newest first, to pick one to remediate; a host that reads them
   * from its own source lists them there.
   */
  List<Recommendation> recommendations();

  /** The built-in templates and those the host registered. */
  List<WorkflowTemplate> templates();
}
