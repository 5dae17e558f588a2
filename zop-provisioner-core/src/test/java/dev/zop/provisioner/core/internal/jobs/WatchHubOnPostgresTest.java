package dev.zop.provisioner.core.internal.jobs;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Every watch hub test on PostgreSQL, where a sequence number is given at insert and transactions commit in their
 * own order. The server is the one {@link FencedWriterOnPostgresTest} uses; an unreachable server fails the test.
 */
class WatchHubOnPostgresTest extends WatchHubTest {
  private static final String URL = env("ZOP_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
  private static final String USER = env("ZOP_TEST_PG_USER", "postgres");
  private static final String PASSWORD = env("ZOP_TEST_PG_PASSWORD", "");

  private String schema;

  @Override
  DataSource store() {
    schema = "zop_watch_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    run("CREATE SCHEMA " + schema);
    PGSimpleDataSource pg = new PGSimpleDataSource();
    pg.setUrl(URL + (URL.contains("?") ? "&" : "?") + "currentSchema=" + schema);
    pg.setUser(USER);
    pg.setPassword(PASSWORD);
    return pg;
  }

  @AfterEach
  void dropSchema() {
    run("DROP SCHEMA " + schema + " CASCADE");
  }

  private static void run(String sql) {
    try (Connection c = DriverManager.getConnection(URL, USER, PASSWORD); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL is not reachable at " + URL + " as " + USER + " ("
          + e.getMessage() + "). Start it with scripts/ensure-services.sh or set ZOP_TEST_PG_URL.", e);
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
