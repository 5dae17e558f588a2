package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The status of a job, with the single table of allowed transitions.
 *
 * <p>{@code pending → running → succeeded | failed | cancelled}; remediation adds {@code awaiting_user}; a guardrail
 * at the {@code approval} level holds a change {@code awaiting_approval}: a new job, a revision, a reconcile or a
 * retry (from {@code succeeded} or {@code failed}), which a person moves on to {@code pending} (approved) or back
 * (rejected: a new job to {@code cancelled}, the others to the status they left);
 * teardown adds {@code deleting → deleted}. A failed job goes back to {@code pending} (or to {@code deleting}
 * when its teardown failed) on retry; a succeeded one goes back to {@code pending} when a revision of its config is
 * applied.
 */
public enum JobStatus {
  PENDING,
  RUNNING,
  AWAITING_USER,
  AWAITING_APPROVAL,
  SUCCEEDED,
  FAILED,
  CANCELLED,
  DELETING,
  DELETED;

  private static final Map<JobStatus, Set<JobStatus>> ALLOWED = Map.of(
      PENDING, EnumSet.of(RUNNING, CANCELLED, DELETING),
      RUNNING, EnumSet.of(SUCCEEDED, FAILED, CANCELLED, AWAITING_USER),
      AWAITING_USER, EnumSet.of(RUNNING, CANCELLED, FAILED),
      AWAITING_APPROVAL, EnumSet.of(PENDING, CANCELLED, SUCCEEDED, FAILED),
      SUCCEEDED, EnumSet.of(DELETING, PENDING, AWAITING_APPROVAL),
      FAILED, EnumSet.of(PENDING, DELETING, AWAITING_APPROVAL),
      CANCELLED, EnumSet.of(DELETING),
      DELETING, EnumSet.of(DELETED, FAILED),
      DELETED, EnumSet.noneOf(JobStatus.class));

  /** Whether the table allows moving from this status to {@code next}. */
  public boolean canTransitionTo(JobStatus next) {
    return ALLOWED.get(this).contains(next);
  }

  /** No work is in progress or scheduled: the job waits for a person (retry, delete) or is gone. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == CANCELLED || this == DELETED;
  }

  /** A worker may pick the job up. */
  public boolean isRunnable() {
    return this == PENDING || this == RUNNING || this == DELETING;
  }

  /** Made once: a job's every write names its steps' statuses and phases, and its events' types. */
  private final String wire = name().toLowerCase(Locale.ROOT);

  @JsonValue
  public String wireName() {
    return wire;
  }

  @JsonCreator
  public static JobStatus fromWire(String value) {
    return EnumNames.parse(JobStatus.class, value);
  }
}
