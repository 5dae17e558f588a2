package dev.zop.provisioner.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.flywaydb.core.Flyway;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** The keys of jobs submitted before the keys had a table of their own move there, with their request hashes. */
class IdempotencyKeysMigrationTest {

  @Test
  void keysRecordedOnTheJobsMoveToTheirOwnTable() throws Exception {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:keys-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    Flyway.configure(getClass().getClassLoader()).dataSource(h2).locations(EngineMigrations.LOCATION)
        .javaMigrations(new V6__Job_rows_leave_room_for_updates()).table(EngineMigrations.HISTORY).target("6")
        .load().migrate();
    try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
      for (String[] job : List.of(new String[] {"j-1", "'key-1'", "'hash-1'"},
          new String[] {"j-2", "NULL", "NULL"}, new String[] {"j-3", "'key-3'", "'hash-3'"})) {
        s.execute("INSERT INTO provisioning_jobs (id, org_id, space_id, job_type, kind, name, tags, provider,"
            + " cloud_account_id, spec, status, phase, outputs, idempotency_key, request_hash, created_by,"
            + " created_at, updated_at, version) VALUES ('" + job[0] + "', 'acme', 'sp_1', 'provisioning',"
            + " 'registry', 'r', '{}', 'sim', 'ca_1', '{}', 'pending', 'create', '{}', " + job[1] + ", " + job[2]
            + ", 'alice', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 0)");
      }
    }

    EngineMigrations.migrate(h2);

    try (Connection c = h2.getConnection(); Statement s = c.createStatement()) {
      assertThat(rows(s, "SELECT org_id, idempotency_key, job_id, request_hash FROM job_idempotency_keys"
          + " ORDER BY job_id")).containsExactly("acme key-1 j-1 hash-1", "acme key-3 j-3 hash-3");
      assertThat(rows(s, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_NAME = 'PROVISIONING_JOBS'"
          + " AND COLUMN_NAME IN ('IDEMPOTENCY_KEY', 'REQUEST_HASH')")).containsExactly("0");
      assertThat(rows(s, "SELECT COUNT(*) FROM provisioning_jobs")).containsExactly("3");
    }
  }

  private static List<String> rows(Statement s, String sql) throws Exception {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery(sql)) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        List<String> values = new ArrayList<>();
        for (int i = 1; i <= columns; i++) {
          values.add(rs.getString(i));
        }
        rows.add(String.join(" ", values));
      }
    }
    return rows;
  }
}
