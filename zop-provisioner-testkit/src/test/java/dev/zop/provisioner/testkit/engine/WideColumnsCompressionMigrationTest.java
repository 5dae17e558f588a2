package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.internal.store.EngineMigrations;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code V13__Wide_job_columns_compressed_with_lz4}: on a PostgreSQL that has lz4, the job's wide columns compress
 * with it from then on, and what was stored before (compressed with PostgreSQL's default) reads as it did and is
 * rewritten in lz4 by the job's next write; on one that has not, the columns keep the default and the engine works.
 */
class WideColumnsCompressionMigrationTest {
  private static final Map<String, List<String>> COLUMNS = Map.of(
      "provisioning_jobs", List.of("steps", "held_events", "outputs", "spec"),
      "job_events", List.of("events"));

  @Test
  void aPostgresStoreCompressesTheJobsWideColumnsWithLz4WhereTheServerHasIt() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      Job made;
      List<JobEvent> events;
      try (EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create())
          .build()) {
        Space space = EngineBehaviour.newSpace(zop, "lz4");
        made = zop.jobs().await(zop.jobs().submit(space.id(), EngineBehaviour.network("wide")).id(),
            Duration.ofSeconds(30));
        assertThat(made.status()).isEqualTo(JobStatus.SUCCEEDED);
        events = zop.jobs().events(made.id(), 0);
      }
      boolean lz4;
      try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password())) {
        lz4 = serverHasLz4(c);
        assertThat(compression(c)).allSatisfy((column, method) ->
            assertThat(method).as(column).isEqualTo(lz4 ? "l" : ""));
        // the job's row holds wide values, compressed (it is over PostgreSQL's 2 kB): lz4's where the server has it
        assertThat(rowCompression(c, made)).isEqualTo(lz4 ? "lz4" : "pglz");
        asBeforeV13(c);
        assertThat(compression(c)).allSatisfy((column, method) -> assertThat(method).as(column).isEmpty());
        // a row written before V13, by PostgreSQL's default
        try (Statement s = c.createStatement()) {
          s.executeUpdate("UPDATE provisioning_jobs SET steps = steps || '' WHERE id = '" + made.id().value() + "'");
        }
        assertThat(rowCompression(c, made)).isEqualTo("pglz");
      }
      try (EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create())
          .build()) {
        // what was stored before reads as it was
        assertThat(zop.jobs().get(made.id()).steps()).isEqualTo(made.steps());
        assertThat(zop.jobs().get(made.id()).outputs()).isEqualTo(made.outputs());
        assertThat(zop.jobs().events(made.id(), 0)).isEqualTo(events);
        // and the job's next write stores its steps in the new way
        Job deleted = zop.jobs().await(zop.jobs().delete(made.id()).id(), Duration.ofSeconds(30));
        assertThat(deleted.status()).isEqualTo(JobStatus.DELETED);
      }
      try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password())) {
        assertThat(compression(c)).allSatisfy((column, method) ->
            assertThat(method).as(column).isEqualTo(lz4 ? "l" : ""));
        assertThat(rowCompression(c, made)).isEqualTo(lz4 ? "lz4" : "pglz");
      }
    }
  }

  /**
   * Each wide column's compression method as the catalog keeps it: {@code l} for lz4, {@code p} for pglz, empty for
   * the server's default.
   */
  private static Map<String, String> compression(Connection c) throws Exception {
    Map<String, String> methods = new LinkedHashMap<>();
    try (Statement s = c.createStatement()) {
      for (Map.Entry<String, List<String>> table : COLUMNS.entrySet()) {
        for (String column : table.getValue()) {
          try (ResultSet rs = s.executeQuery("SELECT attcompression FROM pg_attribute WHERE attrelid = '"
              + table.getKey() + "'::regclass AND attname = '" + column + "'")) {
            assertThat(rs.next()).as(table.getKey() + "." + column).isTrue();
            String method = rs.getString(1);
            methods.put(table.getKey() + "." + column, method == null ? "" : method.trim());
          }
        }
      }
    }
    return methods;
  }

  /** How the job's steps are compressed on its row ({@code pg_column_compression}); null when they are not. */
  private static String rowCompression(Connection c, Job job) throws Exception {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
        "SELECT pg_column_compression(steps) FROM provisioning_jobs WHERE id = '" + job.id().value() + "'")) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  private static boolean serverHasLz4(Connection c) throws Exception {
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_settings"
        + " WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)")) {
      rs.next();
      return rs.getInt(1) == 1;
    }
  }

  /** The store as it was before V13: the wide columns back on the server's default, V13 not in the history. */
  static void asBeforeV13(Connection c) throws Exception {
    asBeforeV14(c);
    try (Statement s = c.createStatement()) {
      if (c.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
        for (Map.Entry<String, List<String>> table : COLUMNS.entrySet()) {
          for (String column : table.getValue()) {
            s.execute("ALTER TABLE " + table.getKey() + " ALTER COLUMN " + column + " SET COMPRESSION DEFAULT");
          }
        }
      }
      s.execute("DELETE FROM \"" + EngineMigrations.HISTORY + "\" WHERE \"version\" = '13'");
    }
  }

  /**
   * Today's store as V13 left it: {@code V14__guardrails}'s tables gone (the status columns it widened may stay
   * wide: running it again widens them to the same).
   */
  static void asBeforeV14(Connection c) throws Exception {
    try (Statement s = c.createStatement()) {
      s.execute("DROP TABLE guardrail_exemptions");
      s.execute("DROP TABLE guardrail_decisions");
      s.execute("DROP TABLE guardrail_names");
      s.execute("DROP TABLE guardrails");
      s.execute("DELETE FROM \"" + EngineMigrations.HISTORY + "\" WHERE \"version\" = '14'");
    }
  }
}
