package dev.zop.provisioner.core.internal.store;

import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * On PostgreSQL, a running job's row (its steps, the history entries it holds, its outputs and spec) is wider than
 * the 2 kB at which PostgreSQL compresses a row's widest values, and every step's fence writes a new version of it:
 * each fence compresses the steps and held entries again, and appending an entry first decompresses what the row
 * holds. With PostgreSQL's default method (pglz) such a fence cost PostgreSQL 80-81 us in the pgbench harness, and
 * 69-70 us with lz4, whose rows also come out smaller (docs/benchmarks.md, "lz4 for the job's row, and less JSON a
 * step"). Values written from now on use lz4; those already stored are read as they are.
 *
 * <p>lz4 needs PostgreSQL 14 or later built with it (Debian's packages are). Where the server refuses it, the columns
 * keep the default and the migration only records that it ran; other databases have no such setting.
 */
public final class V13__Wide_job_columns_compressed_with_lz4 extends BaseJavaMigration {
  private static final Logger LOG = LoggerFactory.getLogger(V13__Wide_job_columns_compressed_with_lz4.class);

  /** The columns a step's fence rewrites or a read decompresses, by table. */
  private static final List<String> JOB_COLUMNS = List.of("steps", "held_events", "outputs", "spec");
  private static final List<String> EVENT_COLUMNS = List.of("events");

  /** PostgreSQL's code for a feature this server does not have: here, a build without lz4. */
  private static final String FEATURE_NOT_SUPPORTED = "0A000";

  @Override
  public void migrate(Context context) throws Exception {
    var connection = context.getConnection();
    if (!"PostgreSQL".equals(connection.getMetaData().getDatabaseProductName())
        || connection.getMetaData().getDatabaseMajorVersion() < 14) {
      return;
    }
    Savepoint before = connection.setSavepoint();
    try (Statement s = connection.createStatement()) {
      s.execute(alter("provisioning_jobs", JOB_COLUMNS));
      s.execute(alter("job_events", EVENT_COLUMNS));
      connection.releaseSavepoint(before);
    } catch (SQLException e) {
      if (!FEATURE_NOT_SUPPORTED.equals(e.getSQLState())) {
        throw e;
      }
      connection.rollback(before);
      LOG.info("this PostgreSQL has no lz4 ({}); the job's wide columns keep its default compression",
          e.getMessage());
    }
  }

  private static String alter(String table, List<String> columns) {
    StringBuilder sql = new StringBuilder("ALTER TABLE ").append(table);
    for (int i = 0; i < columns.size(); i++) {
      sql.append(i == 0 ? " " : ", ").append("ALTER COLUMN ").append(columns.get(i)).append(" SET COMPRESSION lz4");
    }
    return sql.toString();
  }
}
