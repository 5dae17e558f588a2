package dev.zop.provisioner.core.internal.guardrails;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailExemption;
import dev.zop.provisioner.GuardrailId;
import dev.zop.provisioner.GuardrailLevel;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.GuardrailScope;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Json;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** Guardrails' versions, the names they hold, and the decisions they made. */
final class GuardrailRepository {
  private static final String COLUMNS = "id, version, name, level, rule, scope, approver_grant, description, enabled,"
      + " deleted, created_by, created_at";
  private static final String DECISION_COLUMNS = "id, job_id, space_id, action, plan_hash, outcome, verdicts, actor,"
      + " decided_at";
  private static final com.fasterxml.jackson.databind.ObjectReader VERDICTS =
      Json.MAPPER.readerFor(new com.fasterxml.jackson.core.type.TypeReference<List<GuardrailVerdict>>() {});

  /** The latest version of each of the organisation's guardrails, deleted ones included, by name. */
  List<Guardrail> latest(Connection c, String orgId) throws SQLException {
    return Database.query(c, "SELECT " + COLUMNS + " FROM guardrails g WHERE org_id = ? AND version ="
        + " (SELECT MAX(version) FROM guardrails l WHERE l.id = g.id) ORDER BY name, id", GuardrailRepository::row,
        orgId);
  }

  /** How many versions the organisation's guardrails have had: it grows with every change, and only then. */
  long versionCount(Connection c, String orgId) throws SQLException {
    return Database.queryOne(c, "SELECT COUNT(*) FROM guardrails WHERE org_id = ?", rs -> rs.getLong(1), orgId);
  }

  /** The guardrail's versions, oldest first; empty when the organisation has no such guardrail. */
  List<Guardrail> versions(Connection c, String orgId, GuardrailId id) throws SQLException {
    return Database.query(c, "SELECT " + COLUMNS + " FROM guardrails WHERE org_id = ? AND id = ? ORDER BY version",
        GuardrailRepository::row, orgId, id.value());
  }

  /** Writes a version; a version already written by another change fails on the primary key. */
  void insert(Connection c, String orgId, Guardrail g) throws SQLException {
    Database.update(c, "INSERT INTO guardrails (" + COLUMNS + ", org_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        g.id().value(), g.version(), g.name(), g.level().wireName(), Json.write(g.rule()), Json.write(g.scope()),
        g.approverGrant(), g.description() == null ? Database.NULL_TEXT : g.description(), g.enabled(), g.deleted(),
        g.createdBy(), g.createdAt(), orgId);
  }

  /** Takes {@code name} for the guardrail; a name another live guardrail holds fails on the primary key. */
  void takeName(Connection c, String orgId, String name, GuardrailId id) throws SQLException {
    Database.update(c, "INSERT INTO guardrail_names (org_id, name, guardrail_id) VALUES (?, ?, ?)", orgId, name,
        id.value());
  }

  void freeName(Connection c, String orgId, String name, GuardrailId id) throws SQLException {
    Database.update(c, "DELETE FROM guardrail_names WHERE org_id = ? AND name = ? AND guardrail_id = ?", orgId, name,
        id.value());
  }

  /** Records a decision. */
  void decided(Connection c, String orgId, GuardrailDecision d, String planJson) throws SQLException {
    Database.update(c, "INSERT INTO guardrail_decisions (" + DECISION_COLUMNS + ", plan, org_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        d.id(), d.jobId() == null ? Database.NULL_TEXT : d.jobId().value(), d.spaceId().value(), d.action(),
        d.planHash(), d.outcome().wireName(), Json.write(d.verdicts()), d.actor(), d.decidedAt(), planJson, orgId);
  }

  /** The organisation's latest {@code limit} decisions, newest first. */
  List<GuardrailDecision> latestDecisions(Connection c, String orgId, int limit) throws SQLException {
    return Database.query(c, "SELECT " + DECISION_COLUMNS + " FROM guardrail_decisions WHERE org_id = ?"
        + " ORDER BY decided_at DESC, id FETCH FIRST " + limit + " ROWS ONLY", GuardrailRepository::decision, orgId);
  }

  /** The decisions made on a job, oldest first. */
  List<GuardrailDecision> decisions(Connection c, String orgId, JobId job) throws SQLException {
    return Database.query(c, "SELECT " + DECISION_COLUMNS + " FROM guardrail_decisions WHERE job_id = ? AND org_id = ?"
        + " ORDER BY decided_at, id", GuardrailRepository::decision, job.value(), orgId);
  }

  /** A change recorded with its decision: the plan document its guardrails read. */
  record RecordedChange(JobId job, SpaceId space, String action, java.time.Instant at, String plan) {}

  /** The organisation's last {@code limit} changes guardrails decided, newest first (people's decisions left out). */
  List<RecordedChange> recentChanges(Connection c, String orgId, int limit) throws SQLException {
    return Database.query(c, "SELECT job_id, space_id, action, decided_at, plan FROM guardrail_decisions"
        + " WHERE org_id = ? AND action NOT IN ('approve', 'reject') ORDER BY decided_at DESC, id"
        + " FETCH FIRST " + limit + " ROWS ONLY", rs -> new RecordedChange(
            rs.getString(1) == null ? null : JobId.of(rs.getString(1)), SpaceId.of(rs.getString(2)), rs.getString(3),
            Database.instant(rs, 4), rs.getString(5)), orgId);
  }

  private static final String EXEMPTION_COLUMNS = "id, guardrail_id, job_id, space_id, reason, expires_at,"
      + " granted_by, granted_at, revoked_by, revoked_at";

  void insertExemption(Connection c, String orgId, GuardrailExemption e) throws SQLException {
    Database.update(c, "INSERT INTO guardrail_exemptions (" + EXEMPTION_COLUMNS + ", org_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", e.id(), e.guardrailId().value(),
        e.jobId() == null ? Database.NULL_TEXT : e.jobId().value(),
        e.spaceId() == null ? Database.NULL_TEXT : e.spaceId().value(), e.reason(), e.expiresAt(), e.grantedBy(),
        e.grantedAt(), Database.NULL_TEXT, Database.NULL_TIMESTAMP, orgId);
  }

  /** The organisation's exemptions, newest first. */
  List<GuardrailExemption> exemptions(Connection c, String orgId) throws SQLException {
    return Database.query(c, "SELECT " + EXEMPTION_COLUMNS + " FROM guardrail_exemptions WHERE org_id = ?"
        + " ORDER BY granted_at DESC, id", GuardrailRepository::exemption, orgId);
  }

  /** The organisation's exemptions not revoked that end after {@code now}. */
  List<GuardrailExemption> exemptionsInForce(Connection c, String orgId, java.time.Instant now) throws SQLException {
    return Database.query(c, "SELECT " + EXEMPTION_COLUMNS + " FROM guardrail_exemptions WHERE org_id = ?"
        + " AND revoked_at IS NULL AND expires_at > ?", GuardrailRepository::exemption, orgId, now);
  }

  /** Marks the exemption revoked unless it was; false when the organisation has no such exemption. */
  boolean revokeExemption(Connection c, String orgId, String id, String by, java.time.Instant at)
      throws SQLException {
    Database.update(c, "UPDATE guardrail_exemptions SET revoked_by = ?, revoked_at = ? WHERE org_id = ? AND id = ?"
        + " AND revoked_at IS NULL", by, at, orgId, id);
    return Database.queryOne(c, "SELECT COUNT(*) FROM guardrail_exemptions WHERE org_id = ? AND id = ?",
        rs -> rs.getLong(1), orgId, id) > 0;
  }

  GuardrailExemption exemption(Connection c, String orgId, String id) throws SQLException {
    return Database.queryOne(c, "SELECT " + EXEMPTION_COLUMNS + " FROM guardrail_exemptions WHERE org_id = ?"
        + " AND id = ?", GuardrailRepository::exemption, orgId, id);
  }

  /** Whether the organisation has the job, or the space: an exemption names one it has. */
  boolean has(Connection c, String orgId, String table, String id) throws SQLException {
    return Database.queryOne(c, "SELECT COUNT(*) FROM " + table + " WHERE org_id = ? AND id = ?",
        rs -> rs.getLong(1), orgId, id) > 0;
  }

  private static GuardrailExemption exemption(ResultSet rs) throws SQLException {
    String job = rs.getString(3);
    String space = rs.getString(4);
    return new GuardrailExemption(rs.getString(1), GuardrailId.of(rs.getString(2)), job == null ? null : JobId.of(job),
        space == null ? null : SpaceId.of(space), rs.getString(5), Database.instant(rs, 6), rs.getString(7),
        Database.instant(rs, 8), rs.getString(9), Database.instant(rs, 10));
  }

  private static Guardrail row(ResultSet rs) throws SQLException {
    try {
      return new Guardrail(GuardrailId.of(rs.getString(1)), rs.getString(3), rs.getInt(2),
          GuardrailLevel.fromWire(rs.getString(4)), Json.MAPPER.readValue(rs.getString(5), GuardrailRule.class),
          Json.MAPPER.readValue(rs.getString(6), GuardrailScope.class), rs.getString(7), rs.getString(8),
          rs.getBoolean(9), rs.getBoolean(10), rs.getString(11), Database.instant(rs, 12));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("guardrail " + rs.getString(1) + " v" + rs.getInt(2) + " is unreadable", e);
    }
  }

  private static GuardrailDecision decision(ResultSet rs) throws SQLException {
    try {
      String job = rs.getString(2);
      return new GuardrailDecision(rs.getString(1), job == null ? null : JobId.of(job), SpaceId.of(rs.getString(3)),
          rs.getString(4), rs.getString(5), GuardrailDecision.Outcome.fromWire(rs.getString(6)),
          VERDICTS.readValue(rs.getString(7)), rs.getString(8), Database.instant(rs, 9));
    } catch (java.io.IOException e) {
      throw new IllegalStateException("guardrail decision " + rs.getString(1) + " is unreadable", e);
    }
  }
}
