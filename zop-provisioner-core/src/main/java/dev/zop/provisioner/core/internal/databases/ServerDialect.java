package dev.zop.provisioner.core.internal.databases;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * The SQL for databases and their owners on one kind of server. Names reaching here are validated
 * identifiers and are still quoted. Passwords never appear in statement text: each dialect sends a hash
 * computed on this side, so neither server logs nor ours can show one.
 */
interface ServerDialect {

  String jdbcUrl(String host, int port, String database);

  /** Creates a login role/user with the password; fails if it exists. */
  void createOwner(Connection admin, String owner, String password) throws SQLException;

  /** Creates the database owned by (or fully granted to) {@code owner}, closed to everyone else; fails if it exists. */
  void createDatabase(Connection admin, String database, String owner) throws SQLException;

  boolean databaseExists(Connection admin, String database) throws SQLException;

  boolean ownerExists(Connection admin, String owner) throws SQLException;

  void dropDatabase(Connection admin, String database) throws SQLException;

  void dropOwner(Connection admin, String owner) throws SQLException;

  static ServerDialect forEngine(String engine) {
    return switch (engine) {
      case "postgres" -> new PostgresServer();
      case "mysql" -> new MySqlServer();
      default -> throw new IllegalArgumentException("no SQL dialect for engine " + engine);
    };
  }
}
