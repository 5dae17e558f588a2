package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobStatus;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * What a workflow records beside the runner's own rows (a remediation's audit trail). The runner calls the
 * {@code Connection} methods inside the fenced write of the transition they describe, so the record and the
 * transition commit together or not at all; the others after that write is durable.
 */
public interface Journal {
  /** Records nothing: a provisioning job's. */
  Journal NONE = new Journal() {};

  /** The job moved from pending to running. */
  default void started(Connection c, JobRecord job) throws SQLException {}

  /** A step succeeded; {@code approvedBy} is the request that approved a decision step, else null. */
  default void succeeded(Connection c, JobRecord job, StepRecord step, Decision.Request approvedBy)
      throws SQLException {}

  /** A step failed, and the job with it. */
  default void failed(Connection c, JobRecord job, StepRecord step, Failure failure) throws SQLException {}

  /**
   * The job is cancelled: at decision step {@code step} when it was rejected (or no decision came in time:
   * {@code by} is null), or between steps by a person's cancel request ({@code step} is null).
   */
  default void cancelled(Connection c, JobRecord job, StepRecord step, Decision.Request by, String reason)
      throws SQLException {}

  /** The job began to wait for a decision on {@code step}; called once per wait, after it is durable. */
  default void awaitingDecision(JobRecord job, StepRecord step, String message) {}

  /** The job ended with {@code status}; after it is durable. */
  default void ended(JobRecord job, JobStatus status, Failure failure) {}
}
