package dev.zop.provisioner.core.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The engine's schema, migrated by Flyway from its own location with its own history table, so that a host
 * application's Flyway (Flyway's default location {@code db/migration} and table {@code flyway_schema_history})
 * and the engine share one database without either seeing the other's migrations, in whichever order they run.
 *
 * <p>A store made before the engine had its own table kept the engine's history in Flyway's default one. It is
 * carried over once: the new table starts from a baseline at the highest engine version already applied, and
 * the engine's rows leave the default table (which is dropped if nothing else is left in it). The tables and
 * their data are not touched.
 */
public final class EngineMigrations {
  public static final String LOCATION = "classpath:dev/zop/provisioner/core/db";
  public static final String HISTORY = "zop_engine_history";
  static final String DEFAULT_HISTORY = "flyway_schema_history";

  /** The engine's migrations as they were applied before the move: fixed history, never to change. */
  private static final List<String> BEFORE_THE_MOVE = List.of("V1__jobs_spaces_accounts.sql",
      "V2__secrets_databases_connections.sql", "V3__remediation.sql", "V4__cluster_access.sql");

  private EngineMigrations() {}

  public static void migrate(DataSource dataSource) {
    String carriedOver = legacyVersion(dataSource);
    var flyway = Flyway.configure(EngineMigrations.class.getClassLoader()).dataSource(dataSource)
        .locations(LOCATION).table(HISTORY)
        .javaMigrations(new V6__Job_rows_leave_room_for_updates(), new V11__Steps_on_the_job_row(),
            new V13__Wide_job_columns_compressed_with_lz4());
    // a schema that already holds tables (a host application's) is no reason to refuse: the engine's history
    // starts empty at 0 there, or, for a store from before the move, at the version it had reached
    flyway.baselineOnMigrate(true).baselineVersion(carriedOver != null ? carriedOver : "0")
        .baselineDescription(carriedOver != null ? "carried over from " + DEFAULT_HISTORY : "shared schema");
    flyway.load().migrate();
    forgetLegacyRows(dataSource);
  }

  /**
   * The highest engine version recorded in Flyway's default table of a store that has no history table of its
   * own yet; null for a new store or one already carried over.
   */
  private static String legacyVersion(DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      if (exists(c, HISTORY) || !exists(c, DEFAULT_HISTORY)) {
        return null;
      }
      String highest = null;
      try (PreparedStatement ps = c.prepareStatement("SELECT \"version\", \"script\" FROM \"" + DEFAULT_HISTORY
          + "\" WHERE \"success\" = TRUE")) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            if (BEFORE_THE_MOVE.contains(rs.getString("script"))
                && (highest == null || Integer.parseInt(rs.getString("version")) > Integer.parseInt(highest))) {
              highest = rs.getString("version");
            }
          }
        }
      }
      return highest;
    } catch (SQLException e) {
      throw new StoreException("cannot read the engine's migration history", e);
    }
  }

  /** The engine's rows leave Flyway's default table, so a host application's Flyway never sees them. */
  private static void forgetLegacyRows(DataSource dataSource) {
    try (Connection c = dataSource.getConnection()) {
      if (!exists(c, DEFAULT_HISTORY)) {
        return;
      }
      try (PreparedStatement ps = c.prepareStatement("DELETE FROM \"" + DEFAULT_HISTORY + "\" WHERE \"script\" = ?")) {
        for (String script : BEFORE_THE_MOVE) {
          ps.setString(1, script);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      boolean empty;
      try (Statement s = c.createStatement();
          // Flyway's own marker rows (the schema or the table it created) are not migrations
          ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM \"" + DEFAULT_HISTORY
              + "\" WHERE \"type\" NOT IN ('SCHEMA', 'TABLE')")) {
        rs.next();
        empty = rs.getLong(1) == 0;
      }
      if (empty) {
        try (Statement s = c.createStatement()) {
          s.execute("DROP TABLE \"" + DEFAULT_HISTORY + "\"");
        }
      }
    } catch (SQLException e) {
      throw new StoreException("cannot clean the engine's rows out of " + DEFAULT_HISTORY, e);
    }
  }

  private static boolean exists(Connection c, String table) throws SQLException {
    try (ResultSet rs = c.getMetaData().getTables(c.getCatalog(), c.getSchema(), table, new String[] {"TABLE"})) {
      return rs.next();
    }
  }
}
