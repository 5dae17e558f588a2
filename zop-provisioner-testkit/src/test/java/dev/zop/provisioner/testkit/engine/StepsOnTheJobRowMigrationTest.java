package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.core.internal.store.EngineMigrations;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose steps are rows of their own ({@code job_steps}, migrations up to V10) keeps every step when
 * {@code V11__Steps_on_the_job_row} moves them onto their jobs' rows, and a step start that the job's row held alone
 * (V10) becomes the step running in that attempt with the intent it declared. Each store is made by today's engine,
 * then turned back into the V10 layout, rows and all, and opened again.
 */
class StepsOnTheJobRowMigrationTest {
  /** {@code job_steps} as V1 made it and V3 extended it, the layout V11 reads. */
  static final String JOB_STEPS_BEFORE_V11 = "CREATE TABLE job_steps (id VARCHAR(36) NOT NULL PRIMARY KEY,"
      + " job_id VARCHAR(64) NOT NULL REFERENCES provisioning_jobs (id), phase VARCHAR(16) NOT NULL,"
      + " step_index INTEGER NOT NULL, name VARCHAR(200) NOT NULL, status VARCHAR(16) NOT NULL,"
      + " attempts INTEGER NOT NULL, permissions VARCHAR(100000) NOT NULL, outputs VARCHAR(1000000) NOT NULL,"
      + " failure VARCHAR(100000), started_at TIMESTAMP WITH TIME ZONE, finished_at TIMESTAMP WITH TIME ZONE,"
      + " template_step_id VARCHAR(36), step_kind VARCHAR(32), CONSTRAINT job_steps_index UNIQUE (job_id, phase,"
      + " step_index))";
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant HELD_START = Instant.parse("2026-12-01T10:15:30.123456Z");

  @TempDir Path dir;

  @Test
  void anH2StoreKeepsItsStepsAndItsHeldStart() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("zop").toAbsolutePath();
    keepsItsSteps(url, "sa", "", () -> TestEngines.h2(dir, SimCloud.create()));
  }

  @Test
  void aPostgresStoreKeepsItsStepsAndItsHeldStart() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      keepsItsSteps(db.url(), db.user(), db.password(),
          () -> TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create()));
    }
  }

  private static void keepsItsSteps(String url, String user, String password,
      Supplier<EmbeddedProvisionerBuilder> engine) throws Exception {
    Job finished;
    Job interrupted;
    try (EmbeddedProvisioner zop = engine.get().build()) {
      Space space = EngineBehaviour.newSpace(zop, "steps-row");
      finished = zop.jobs().await(zop.jobs().submit(space.id(), EngineBehaviour.network("kept")).id(),
          Duration.ofSeconds(30));
      interrupted = zop.jobs().await(zop.jobs().submit(space.id(), EngineBehaviour.network("held")).id(),
          Duration.ofSeconds(30));
    }
    assertThat(finished.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(finished.steps()).hasSize(4).allMatch(step -> step.status() == StepStatus.SUCCEEDED);
    JobStep held = interrupted.steps().get(1);
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      asBeforeV11(c);
      // the second job stopped in its second step, whose start (attempt 1) and intent its row alone held
      try (Statement s = c.createStatement()) {
        s.execute("UPDATE provisioning_jobs SET status = 'running', finished_at = NULL WHERE id = '"
            + interrupted.id().value() + "'");
        s.execute("UPDATE job_steps SET status = 'pending', attempts = 0, started_at = NULL, finished_at = NULL,"
            + " outputs = '{}' WHERE job_id = '" + interrupted.id().value() + "' AND step_index >= 1");
      }
      try (PreparedStatement ps = c.prepareStatement("UPDATE provisioning_jobs SET step_started = ?,"
          + " step_attempt = 1, step_started_at = ?, step_intent = ? WHERE id = ?")) {
        ps.setString(1, held.id().toString());
        ps.setObject(2, OffsetDateTime.ofInstant(HELD_START, ZoneOffset.UTC));
        ps.setString(3, "{\"declared\":\"subnet-held\"}");
        ps.setString(4, interrupted.id().value());
        ps.executeUpdate();
      }
    }

    try (EmbeddedProvisioner zop = engine.get().runWorkers(false).build()) {
      assertThat(zop.jobs().get(finished.id()).steps()).isEqualTo(finished.steps());
      List<JobStep> steps = zop.jobs().get(interrupted.id()).steps();
      JobStep resumed = steps.get(1);
      assertThat(resumed.id()).isEqualTo(held.id());
      assertThat(resumed.status()).isEqualTo(StepStatus.RUNNING);
      assertThat(resumed.attempts()).isEqualTo(1);
      assertThat(resumed.startedAt()).isEqualTo(HELD_START);
      assertThat(resumed.outputs()).containsExactly(Map.entry("declared", "subnet-held"));
      assertThat(steps.get(0)).isEqualTo(interrupted.steps().get(0));
      assertThat(steps.subList(2, 4)).allMatch(step -> step.status() == StepStatus.PENDING
          && step.attempts() == 0 && step.startedAt() == null);
    }
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      assertThat(tableExists(c, "job_steps")).isFalse();
      assertThat(columns(c, "provisioning_jobs")).contains("steps").doesNotContain("step_started",
          "step_attempt", "step_started_at", "step_intent");
    }
  }

  /** Today's store in the layout V10 left: each job's steps back in rows of their own, V10's columns back. */
  private static void asBeforeV11(Connection c) throws Exception {
    EventsOnTheJobRowMigrationTest.asBeforeV12(c);
    Map<String, String> stepsByJob = new LinkedHashMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, steps FROM provisioning_jobs")) {
      while (rs.next()) {
        stepsByJob.put(rs.getString(1), rs.getString(2));
      }
    }
    try (Statement s = c.createStatement()) {
      s.execute(JOB_STEPS_BEFORE_V11);
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN step_started VARCHAR(36)");
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN step_attempt INTEGER");
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN step_started_at TIMESTAMP WITH TIME ZONE");
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN step_intent VARCHAR(100000)");
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO job_steps (id, job_id, phase, step_index, name,"
        + " status, attempts, permissions, outputs, failure, started_at, finished_at, template_step_id, step_kind)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      for (Map.Entry<String, String> job : stepsByJob.entrySet()) {
        for (JsonNode step : JSON.readTree(job.getValue())) {
          ps.setString(1, step.get("id").asText());
          ps.setString(2, job.getKey());
          ps.setString(3, step.get("phase").asText());
          ps.setInt(4, step.get("index").asInt());
          ps.setString(5, step.get("name").asText());
          ps.setString(6, step.get("status").asText());
          ps.setInt(7, step.get("attempts").asInt());
          ps.setString(8, JSON.writeValueAsString(step.get("permissions")));
          ps.setString(9, JSON.writeValueAsString(step.get("outputs")));
          ps.setString(10, step.has("failure") ? JSON.writeValueAsString(step.get("failure")) : null);
          ps.setObject(11, time(step, "startedAt"));
          ps.setObject(12, time(step, "finishedAt"));
          ps.setString(13, step.has("templateStepId") ? step.get("templateStepId").asText() : null);
          ps.setString(14, step.has("kind") ? step.get("kind").asText() : null);
          ps.addBatch();
        }
      }
      ps.executeBatch();
    }
    try (Statement s = c.createStatement()) {
      s.execute("ALTER TABLE provisioning_jobs DROP COLUMN steps");
      s.execute("DELETE FROM \"" + EngineMigrations.HISTORY + "\" WHERE \"version\" = '11'");
    }
  }

  private static OffsetDateTime time(JsonNode step, String field) {
    return step.has(field) ? OffsetDateTime.ofInstant(Instant.parse(step.get(field).asText()), ZoneOffset.UTC)
        : null;
  }

  private static boolean tableExists(Connection c, String table) throws SQLException {
    for (String name : List.of(table, table.toUpperCase())) {
      try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), c.getSchema(), name, null)) {
        if (rs.next()) {
          return true;
        }
      }
    }
    return false;
  }

  private static List<String> columns(Connection c, String table) throws SQLException {
    List<String> columns = new ArrayList<>();
    for (String name : List.of(table, table.toUpperCase())) {
      try (ResultSet rs = c.getMetaData().getColumns(c.getCatalog(), c.getSchema(), name, null)) {
        while (rs.next()) {
          columns.add(rs.getString("COLUMN_NAME").toLowerCase());
        }
      }
    }
    return columns;
  }
}
