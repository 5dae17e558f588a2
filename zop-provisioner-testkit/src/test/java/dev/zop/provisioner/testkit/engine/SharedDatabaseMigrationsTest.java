package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.internal.store.EngineMigrations;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine on a database a host application migrates with its own Flyway (Flyway's defaults: location
 * {@code db/migration}, table {@code flyway_schema_history}; this test's resources hold such a {@code V1__}), and
 * a store made before the engine kept its own history.
 */
class SharedDatabaseMigrationsTest {
  @TempDir Path dir;

  private static void hostMigrates(PostgresTestDatabase db) {
    Flyway.configure().dataSource(db.url(), db.user(), db.password()).load().migrate();
  }

  private static CloudAccount engineWorks(PostgresTestDatabase db) {
    try (EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create()).build()) {
      return zop.accounts().create(CloudAccountRequest.of("sim", "shared-" + System.nanoTime()));
    }
  }

  private static void hostWorks(PostgresTestDatabase db) throws SQLException {
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO orders VALUES (" + System.nanoTime() + ", 'widget')");
    }
  }

  private static List<String> scripts(String url, String user, String password, String table) throws SQLException {
    List<String> scripts = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT \"script\" FROM \"" + table + "\" ORDER BY \"installed_rank\"")) {
      while (rs.next()) {
        scripts.add(rs.getString(1));
      }
    }
    return scripts;
  }

  @Test
  void onPostgresTheJobsTableLeavesRoomInItsPagesForHeapOnlyUpdates() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      engineWorks(db);
      assertThat(scripts(db.url(), db.user(), db.password(), EngineMigrations.HISTORY))
          .anyMatch(script -> script.endsWith("V6__Job_rows_leave_room_for_updates"));
      try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT c.relname, array_to_string(c.reloptions, ',') FROM pg_class c"
              + " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema()"
              + " AND c.relname IN ('provisioning_jobs', 'job_events') ORDER BY c.relname")) {
        List<String> options = new ArrayList<>();
        while (rs.next()) {
          options.add(rs.getString(1) + ":" + rs.getString(2));
        }
        // events are only ever inserted: their pages stay full
        assertThat(options).containsExactly("job_events:null", "provisioning_jobs:fillfactor=70");
      }
    }
  }

  @Test
  void aHostsFlywayAndTheEngineShareOneDatabaseWhenTheHostMigratesFirst() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      hostMigrates(db);
      engineWorks(db);
      hostMigrates(db); // the host's next start validates its history: nothing of the engine's is in it
      hostWorks(db);
      assertThat(scripts(db.url(), db.user(), db.password(), "flyway_schema_history"))
          .containsExactly("V1__orders.sql");
      assertThat(scripts(db.url(), db.user(), db.password(), EngineMigrations.HISTORY))
          .contains("V1__jobs_spaces_accounts.sql").doesNotContain("V1__orders.sql");
    }
  }

  @Test
  void aHostsFlywayAndTheEngineInItsOwnSchemaShareOneDatabaseWhenTheEngineMigratesFirst() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      String engineSchema = db.schema() + "_engine";
      try {
        CloudAccount made;
        try (EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create())
            .schema(engineSchema).build()) {
          made = zop.accounts().create(CloudAccountRequest.of("sim", "own-schema"));
        }
        // the host's schema is still empty for its Flyway, which migrates as on a database of its own
        hostMigrates(db);
        hostWorks(db);
        try (EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create())
            .schema(engineSchema).build()) {
          assertThat(zop.accounts().get(made.id()).name()).isEqualTo("own-schema");
        }
        assertThat(scripts(db.url(), db.user(), db.password(), "flyway_schema_history"))
            .containsExactly("V1__orders.sql");
        assertThat(tableExists(db.url(), db.user(), db.password(), "cloud_accounts")).isFalse();
      } finally {
        try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + engineSchema + " CASCADE");
        }
      }
    }
  }

  /**
   * Turns a store of today's code back into the layout of one made before the engine had its own history: the
   * same tables and rows, the history in Flyway's default table under its default constraint and index names,
   * and what the migrations written since the move (V5 on) added taken away again, as such a store never had it.
   */
  private static void asBeforeTheMove(String url, String user, String password) throws Exception {
    String history = EngineMigrations.HISTORY;
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      // V13__Wide_job_columns_compressed_with_lz4 and V12__Events_held_on_the_job_row
      EventsOnTheJobRowMigrationTest.asBeforeV12(c);
    }
    try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
      // V11__Steps_on_the_job_row (these stores hold no job, so the steps' table comes back empty)
      s.execute("ALTER TABLE provisioning_jobs DROP COLUMN steps");
      s.execute(StepsOnTheJobRowMigrationTest.JOB_STEPS_BEFORE_V11);
      for (String column : List.of("then_type", "then_step_name", "then_status", "then_message")) {
        s.execute("ALTER TABLE job_events DROP COLUMN " + column); // V10__fewer_rows_a_step
      }
      s.execute("ALTER TABLE provisioning_jobs DROP COLUMN trace_parent"); // V5__job_trace_parent
      if (c.getMetaData().getDatabaseProductName().equals("PostgreSQL")) {
        s.execute("ALTER TABLE provisioning_jobs RESET (fillfactor)"); // V6__Job_rows_leave_room_for_updates
      }
      s.execute("DROP TABLE job_drift"); // V9__drift_and_import (its column on job_revisions goes with V8's table)
      s.execute("DROP TABLE job_revisions"); // V8__job_revisions
      s.execute("DROP TABLE job_idempotency_keys"); // V7__idempotency_keys_table
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN idempotency_key VARCHAR(200)");
      s.execute("ALTER TABLE provisioning_jobs ADD COLUMN request_hash VARCHAR(64)");
      s.execute("ALTER TABLE provisioning_jobs ADD CONSTRAINT provisioning_jobs_idempotency"
          + " UNIQUE (org_id, idempotency_key)");
      s.execute("DELETE FROM \"" + history + "\" WHERE \"version\" IN ('5', '6', '7', '8', '9', '10', '11', '12')");
      s.execute("ALTER TABLE \"" + history + "\" RENAME TO \"flyway_schema_history\"");
      s.execute("ALTER TABLE \"flyway_schema_history\" RENAME CONSTRAINT \"" + history
          + "_pk\" TO \"flyway_schema_history_pk\"");
      s.execute("ALTER INDEX \"" + history + "_s_idx\" RENAME TO \"flyway_schema_history_s_idx\"");
    }
  }

  private static boolean tableExists(String url, String user, String password, String table) throws SQLException {
    try (Connection c = DriverManager.getConnection(url, user, password);
        ResultSet rs = c.getMetaData().getTables(c.getCatalog(), c.getSchema(), table, null)) {
      return rs.next();
    }
  }

  @Test
  void aPostgresStoreMadeBeforeTheMoveKeepsItsDataAndLeavesFlywaysDefaultTable() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      CloudAccount made = engineWorks(db);
      asBeforeTheMove(db.url(), db.user(), db.password());
      try (EmbeddedProvisioner zop = TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create())
          .build()) {
        assertThat(zop.accounts().get(made.id()).name()).isEqualTo(made.name());
      }
      assertThat(tableExists(db.url(), db.user(), db.password(), "flyway_schema_history")).isFalse();
      // the engine's history starts from a baseline at the version the old store had reached, then migrates on
      assertThat(history(db.url(), db.user(), db.password()))
          .containsExactly("BASELINE 4", "SQL 5", "JDBC 6", "SQL 7", "SQL 8", "SQL 9", "SQL 10", "JDBC 11",
              "SQL 12", "JDBC 13", "SQL 14");
      // and a host application can now bring its own Flyway to the same schema: after the engine, as on any
      // non-empty schema, it starts its history from a baseline below its first migration
      Flyway.configure().dataSource(db.url(), db.user(), db.password()).baselineOnMigrate(true)
          .baselineVersion("0").load().migrate();
      hostWorks(db);
    }
  }

  @Test
  void theDefaultH2StoreMadeBeforeTheMoveKeepsItsData() throws Exception {
    CloudAccount made;
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, SimCloud.create()).build()) {
      made = zop.accounts().create(CloudAccountRequest.of("sim", "from-before"));
    }
    String url = "jdbc:h2:file:" + dir.resolve("zop").toAbsolutePath();
    asBeforeTheMove(url, "sa", "");
    try (EmbeddedProvisioner zop = TestEngines.h2(dir, SimCloud.create()).build()) {
      assertThat(zop.accounts().get(made.id()).name()).isEqualTo("from-before");
    }
    assertThat(tableExists(url, "sa", "", "flyway_schema_history")).isFalse();
    assertThat(history(url, "sa", ""))
        .containsExactly("BASELINE 4", "SQL 5", "JDBC 6", "SQL 7", "SQL 8", "SQL 9", "SQL 10", "JDBC 11",
            "SQL 12", "JDBC 13", "SQL 14");
  }

  private static List<String> history(String url, String user, String password) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement();
        // Flyway's own marker rows (the table or schema it created) left out
        ResultSet rs = s.executeQuery("SELECT \"type\", \"version\" FROM \"" + EngineMigrations.HISTORY
            + "\" WHERE \"type\" NOT IN ('SCHEMA', 'TABLE') ORDER BY \"installed_rank\"")) {
      while (rs.next()) {
        rows.add(rs.getString(1) + " " + rs.getString(2));
      }
    }
    return rows;
  }
}
