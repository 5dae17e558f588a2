package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.SubjectType;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;

/** SQL for {@code remediation_jobs}, {@code remediation_commands} and {@code remediation_audit}. */
public final class RemediationRepository {

  /** What a remediation job acts on and which template it follows. */
  record Details(JobId jobId, String recommendationId, SubjectType subjectType, String subjectId, String templateId,
      int templateVersion, boolean irreversible, String resourceType, String resourceId) {}

  /** A caller's request the reconciler has not applied yet. */
  record Command(long seq, String command, UUID stepId, String actor, String reason) {}

  void insert(Connection c, Details d) throws SQLException {
    Database.update(c, "INSERT INTO remediation_jobs (job_id, recommendation_id, subject_type, subject_id,"
            + " template_id, template_version, irreversible, resource_type, resource_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        d.jobId().value(), d.recommendationId(), d.subjectType(), d.subjectId(), d.templateId(), d.templateVersion(),
        d.irreversible(), d.resourceType(), d.resourceId());
  }

  Details details(Connection c, JobId jobId) throws SQLException {
    return Database.queryOne(c, "SELECT recommendation_id, subject_type, subject_id, template_id, template_version,"
            + " irreversible, resource_type, resource_id FROM remediation_jobs WHERE job_id = ?",
        rs -> new Details(jobId, rs.getString(1), SubjectType.fromWire(rs.getString(2)), rs.getString(3),
            rs.getString(4), rs.getInt(5), rs.getBoolean(6), rs.getString(7), rs.getString(8)),
        jobId.value());
  }

  /** Records a command; a second decision on the same step (or a second cancel) violates the unique key. */
  void enqueue(Connection c, JobId jobId, String command, UUID stepId, String actor, String reason)
      throws SQLException {
    String key = jobId.value() + ":" + (stepId == null ? command : "decision:" + stepId);
    Database.update(c, "INSERT INTO remediation_commands (job_id, command, step_id, actor, reason, decision_key,"
            + " created_at) VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
        jobId.value(), command, stepId == null ? null : stepId.toString(), actor, reason, key);
  }

  List<Command> pending(Connection c, JobId jobId) throws SQLException {
    return Database.query(c, "SELECT seq, command, step_id, actor, reason FROM remediation_commands"
            + " WHERE job_id = ? AND applied_at IS NULL ORDER BY seq",
        rs -> new Command(rs.getLong(1), rs.getString(2),
            rs.getString(3) == null ? null : UUID.fromString(rs.getString(3)), rs.getString(4), rs.getString(5)),
        jobId.value());
  }

  void applied(Connection c, long seq) throws SQLException {
    Database.update(c, "UPDATE remediation_commands SET applied_at = CURRENT_TIMESTAMP WHERE seq = ?", seq);
  }

  /** Makes a job that waits for a person (or a backoff) due now, so the reconciler applies a new command. */
  void nudge(Connection c, JobId jobId) throws SQLException {
    Database.update(c, "UPDATE provisioning_jobs SET next_run_at = CURRENT_TIMESTAMP WHERE id = ?"
        + " AND status IN ('pending', 'running', 'awaiting_user')", jobId.value());
  }

  /** The reconciler is the only caller: the audit trail has one writer. */
  void audit(Connection c, JobId jobId, UUID stepId, String stepName, String eventType, String actor, String reason)
      throws SQLException {
    Database.update(c, "INSERT INTO remediation_audit (job_id, step_id, step_name, event_type, actor, reason,"
            + " created_at) VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)",
        jobId.value(), stepId == null ? null : stepId.toString(), stepName, eventType, actor, reason);
  }

  List<AuditEntry> auditTrail(Connection c, JobId jobId) throws SQLException {
    return Database.query(c, "SELECT seq, step_name, event_type, actor, reason, created_at FROM remediation_audit"
            + " WHERE job_id = ? ORDER BY seq",
        rs -> new AuditEntry(rs.getLong(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
            Database.instant(rs, "created_at")),
        jobId.value());
  }
}
