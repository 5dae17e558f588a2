package dev.zop.provisioner.core.internal.guardrails;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
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

  /** The decisions made on a job, oldest first. */
  List<GuardrailDecision> decisions(Connection c, String orgId, JobId job) throws SQLException {
    return Database.query(c, "SELECT " + DECISION_COLUMNS + " FROM guardrail_decisions WHERE job_id = ? AND org_id = ?"
        + " ORDER BY decided_at, id", GuardrailRepository::decision, job.value(), orgId);
  }

  /** The organisation's last {@code limit} plans' documents as recorded with their decisions, newest first. */
  List<String> recentPlans(Connection c, String orgId, int limit) throws SQLException {
    return Database.query(c, "SELECT plan FROM guardrail_decisions WHERE org_id = ? ORDER BY decided_at DESC, id"
        + " FETCH FIRST " + limit + " ROWS ONLY", rs -> rs.getString(1), orgId);
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
