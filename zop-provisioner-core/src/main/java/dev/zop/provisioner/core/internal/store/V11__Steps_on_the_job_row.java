package dev.zop.provisioner.core.internal.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A job's steps move from rows of their own ({@code job_steps}) to one JSON array on the job's row
 * ({@code provisioning_jobs.steps}, written by {@code jobs.StoredSteps}, whose fields this writes). Every write a
 * step makes already updates the job's row (its fence); with the steps there, that update is the step's whole
 * write, where it used to be a second row, and a second row costs PostgreSQL about as much as the first (measured
 * in docs/benchmarks.md, "Steps on the job's row").
 *
 * <p>A start the job's row held alone (migration V10: {@code step_started} and the columns after it) is applied as
 * reads used to apply it: the step is running in that attempt while its job is, and the intent it declared is among
 * its outputs. Those columns and the steps' table then go. Written in Java so that H2 and PostgreSQL get the same
 * JSON.
 */
public final class V11__Steps_on_the_job_row extends BaseJavaMigration {
  private static final int BATCH = 500;

  @Override
  public void migrate(Context context) throws Exception {
    Connection c = context.getConnection();
    try (Statement s = c.createStatement()) {
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN steps VARCHAR(1000000) DEFAULT '[]' NOT NULL");
    }
    String select = "SELECT s.job_id, s.id, s.phase, s.step_index, s.name, s.status, s.attempts, s.permissions,"
        + " s.outputs, s.failure, s.started_at, s.finished_at, s.template_step_id, s.step_kind, j.status,"
        + " j.step_started, j.step_attempt, j.step_started_at, j.step_intent"
        + " FROM job_steps s JOIN provisioning_jobs j ON j.id = s.job_id ORDER BY s.job_id, s.phase, s.step_index";
    try (PreparedStatement read = c.prepareStatement(select);
        PreparedStatement write = c.prepareStatement("UPDATE provisioning_jobs SET steps = ? WHERE id = ?")) {
      read.setFetchSize(BATCH);
      String job = null;
      ArrayNode steps = null;
      int pending = 0;
      try (ResultSet rs = read.executeQuery()) {
        while (rs.next()) {
          if (!rs.getString(1).equals(job)) {
            if (job != null) {
              pending = add(write, job, steps, pending);
            }
            job = rs.getString(1);
            steps = Json.MAPPER.createArrayNode();
          }
          steps.add(step(rs));
        }
      }
      if (job != null) {
        add(write, job, steps, pending);
      }
      write.executeBatch();
    }
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE job_steps");
      for (String column : new String[] {"step_started", "step_attempt", "step_started_at", "step_intent"}) {
        s.execute("ALTER TABLE provisioning_jobs DROP COLUMN " + column);
      }
    }
  }

  private static int add(PreparedStatement write, String job, ArrayNode steps, int pending) throws Exception {
    write.setString(1, Json.MAPPER.writeValueAsString(steps));
    write.setString(2, job);
    write.addBatch();
    if (++pending == BATCH) {
      write.executeBatch();
      return 0;
    }
    return pending;
  }

  private static ObjectNode step(ResultSet rs) throws Exception {
    String id = rs.getString(2);
    String status = rs.getString(6);
    int attempts = rs.getInt(7);
    ObjectNode outputs = (ObjectNode) Json.MAPPER.readTree(rs.getString(9));
    Instant startedAt = Database.instant(rs, 11);
    String jobStatus = rs.getString(15);
    if (id.equals(rs.getString(16))) {
      int heldAttempt = rs.getInt(17);
      if (status.equals("pending") && (jobStatus.equals("running") || jobStatus.equals("deleting"))
          && heldAttempt > attempts) {
        status = "running";
        attempts = heldAttempt;
        if (startedAt == null) {
          startedAt = Database.instant(rs, 18);
        }
      }
      String intent = rs.getString(19);
      if (intent != null) {
        for (Map.Entry<String, String> declared : Json.stringMap(intent).entrySet()) {
          outputs.put(declared.getKey(), declared.getValue());
        }
      }
    }
    ObjectNode step = Json.MAPPER.createObjectNode();
    step.put("id", id);
    step.put("phase", rs.getString(3));
    step.put("index", rs.getInt(4));
    step.put("name", rs.getString(5));
    step.put("status", status);
    step.put("attempts", attempts);
    step.set("permissions", Json.MAPPER.readTree(rs.getString(8)));
    step.set("outputs", outputs);
    String failure = rs.getString(10);
    if (failure != null) {
      step.set("failure", Json.MAPPER.readTree(failure));
    }
    if (startedAt != null) {
      step.put("startedAt", startedAt.toString());
    }
    Instant finishedAt = Database.instant(rs, 12);
    if (finishedAt != null) {
      step.put("finishedAt", finishedAt.toString());
    }
    if (rs.getString(13) != null) {
      step.put("templateStepId", rs.getString(13));
    }
    if (rs.getString(14) != null) {
      step.put("kind", rs.getString(14));
    }
    return step;
  }
}
