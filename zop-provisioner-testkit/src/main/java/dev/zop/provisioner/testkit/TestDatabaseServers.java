package dev.zop.provisioner.testkit;

import dev.zop.provisioner.sim.SimCloud;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The real database servers a simulated datastore can stand for. Settings come from the environment, with the
 * local test machine's servers as defaults; a server that cannot be reached fails loudly instead of skipping.
 *
 * <ul>
 *   <li>PostgreSQL: {@code ZOP_TEST_PG_HOST} (127.0.0.1), {@code ZOP_TEST_PG_PORT} (5432),
 *       {@code ZOP_TEST_PG_USER} (postgres), {@code ZOP_TEST_PG_PASSWORD} (empty)</li>
 *   <li>MariaDB/MySQL: {@code ZOP_TEST_MYSQL_HOST} (127.0.0.1), {@code ZOP_TEST_MYSQL_PORT} (3306),
 *       {@code ZOP_TEST_MYSQL_USER} (root), {@code ZOP_TEST_MYSQL_PASSWORD} (empty)</li>
 * </ul>
 */
public final class TestDatabaseServers {
  private TestDatabaseServers() {}

  public static SimCloud.Server postgres() {
    SimCloud.Server server = new SimCloud.Server(env("ZOP_TEST_PG_HOST", "127.0.0.1"),
        Integer.parseInt(env("ZOP_TEST_PG_PORT", "5432")), env("ZOP_TEST_PG_USER", "postgres"),
        env("ZOP_TEST_PG_PASSWORD", ""));
    check(postgresUrl(server, "postgres"), server);
    return server;
  }

  public static SimCloud.Server mariadb() {
    SimCloud.Server server = new SimCloud.Server(env("ZOP_TEST_MYSQL_HOST", "127.0.0.1"),
        Integer.parseInt(env("ZOP_TEST_MYSQL_PORT", "3306")), env("ZOP_TEST_MYSQL_USER", "root"),
        env("ZOP_TEST_MYSQL_PASSWORD", ""));
    check(mariadbUrl(server, ""), server);
    return server;
  }

  public static String postgresUrl(SimCloud.Server server, String database) {
    return "jdbc:postgresql://" + server.host() + ":" + server.port() + "/" + database;
  }

  public static String mariadbUrl(SimCloud.Server server, String database) {
    return "jdbc:mariadb://" + server.host() + ":" + server.port() + "/" + database;
  }

  private static void check(String url, SimCloud.Server server) {
    try (Connection c = DriverManager.getConnection(url, server.adminUser(), server.adminPassword())) {
      c.isValid(5);
    } catch (SQLException e) {
      throw new IllegalStateException("no database server at " + url + " (" + e.getMessage()
          + "); start it with scripts/ensure-services.sh or point the ZOP_TEST_* variables elsewhere", e);
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }
}
