package dev.zop.provisioner.core.internal.jobs;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A schema of its own on the PostgreSQL server the testkit's tests use ({@code ZOP_TEST_PG_URL},
 * {@code ZOP_TEST_PG_USER}, {@code ZOP_TEST_PG_PASSWORD}; default {@code jdbc:postgresql://127.0.0.1:5432/test} as
 * {@code postgres}), for the engine module's tests, which cannot use the testkit (it depends on them). An
 * unreachable server fails the test.
 */
final class PostgresTestSchema {
  private static final String URL = env("ZOP_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
  private static final String USER = env("ZOP_TEST_PG_USER", "postgres");
  private static final String PASSWORD = env("ZOP_TEST_PG_PASSWORD", "");

  final String name;

  /** Creates a schema named {@code prefix} and a random part. */
  PostgresTestSchema(String prefix) {
    name = prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12).toLowerCase(Locale.ROOT);
    run("CREATE SCHEMA " + name);
  }

  /** Connections to the schema, named after it so that its sessions can be told from other tests'. */
  DataSource dataSource() {
    PGSimpleDataSource pg = new PGSimpleDataSource();
    pg.setUrl(URL + (URL.contains("?") ? "&" : "?") + "currentSchema=" + name);
    pg.setUser(USER);
    pg.setPassword(PASSWORD);
    pg.setApplicationName(name);
    return pg;
  }

  void drop() {
    run("DROP SCHEMA " + name + " CASCADE");
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
