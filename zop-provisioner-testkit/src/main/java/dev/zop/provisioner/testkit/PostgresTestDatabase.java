package dev.zop.provisioner.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;

/**
 * A fresh schema on a real PostgreSQL server, dropped on close, so tests never see each other's rows.
 *
 * <p>The server comes from {@code ZOP_TEST_PG_URL}, {@code ZOP_TEST_PG_USER} and {@code ZOP_TEST_PG_PASSWORD}
 * (default {@code jdbc:postgresql://127.0.0.1:5432/test}, user {@code postgres}, no password). When the server
 * cannot be reached this fails loudly: a test that needs PostgreSQL must not pass without it.
 */
public final class PostgresTestDatabase implements AutoCloseable {
  private final String baseUrl;
  private final String user;
  private final String password;
  private final String schema;

  private PostgresTestDatabase(String baseUrl, String user, String password, String schema) {
    this.baseUrl = baseUrl;
    this.user = user;
    this.password = password;
    this.schema = schema;
  }

  public static PostgresTestDatabase create() {
    String url = env("ZOP_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
    String user = env("ZOP_TEST_PG_USER", "postgres");
    String password = env("ZOP_TEST_PG_PASSWORD", "");
    String schema = "zop_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)
        .toLowerCase(Locale.ROOT);
    try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA " + schema);
    } catch (SQLException e) {
      throw new IllegalStateException("PostgreSQL is not reachable at " + url + " as " + user
          + " (" + e.getMessage() + "). Start it with scripts/ensure-services.sh or set ZOP_TEST_PG_URL.", e);
    }
    return new PostgresTestDatabase(url, user, password, schema);
  }

  /** A JDBC URL whose connections use this schema only. */
  public String url() {
    return baseUrl + (baseUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  public String user() {
    return user;
  }

  public String password() {
    return password;
  }

  public String schema() {
    return schema;
  }

  @Override
  public void close() {
    try (Connection c = DriverManager.getConnection(baseUrl, user, password); Statement s = c.createStatement()) {
      s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    } catch (SQLException e) {
      throw new IllegalStateException("could not drop test schema " + schema, e);
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
