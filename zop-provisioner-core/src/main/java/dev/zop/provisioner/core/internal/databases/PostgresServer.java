package dev.zop.provisioner.core.internal.databases;

import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.postgresql.PGConnection;

/** PostgreSQL: a login role per database, the database owned by it, CONNECT revoked from PUBLIC. */
final class PostgresServer implements ServerDialect {

  @Override
  public String jdbcUrl(String host, int port, String database) {
    return "jdbc:postgresql://" + host + ":" + port + "/" + (database == null ? "postgres" : database);
  }

  @Override
  public void createOwner(Connection admin, String owner, String password) throws SQLException {
    execute(admin, "CREATE ROLE " + quote(owner) + " LOGIN");
    // The driver computes the SCRAM-SHA-256 verifier here and sends only that.
    admin.unwrap(PGConnection.class).alterUserPassword(owner, password.toCharArray(), "scram-sha-256");
  }

  @Override
  public void createDatabase(Connection admin, String database, String owner) throws SQLException {
    execute(admin, "CREATE DATABASE " + quote(database) + " OWNER " + quote(owner));
    execute(admin, "REVOKE ALL ON DATABASE " + quote(database) + " FROM PUBLIC");
    execute(admin, "GRANT ALL PRIVILEGES ON DATABASE " + quote(database) + " TO " + quote(owner));
  }

  @Override
  public boolean databaseExists(Connection admin, String database) throws SQLException {
    return Database.queryOne(admin, "SELECT 1 FROM pg_database WHERE datname = ?", rs -> 1, database) != null;
  }

  @Override
  public boolean ownerExists(Connection admin, String owner) throws SQLException {
    return Database.queryOne(admin, "SELECT 1 FROM pg_roles WHERE rolname = ?", rs -> 1, owner) != null;
  }

  @Override
  public void dropDatabase(Connection admin, String database) throws SQLException {
    execute(admin, "DROP DATABASE IF EXISTS " + quote(database) + " WITH (FORCE)");
  }

  @Override
  public void dropOwner(Connection admin, String owner) throws SQLException {
    if (ownerExists(admin, owner)) {
      // privileges it still holds elsewhere (the database is already gone) would block DROP ROLE
      execute(admin, "DROP OWNED BY " + quote(owner));
      execute(admin, "DROP ROLE IF EXISTS " + quote(owner));
    }
  }

  static String quote(String identifier) {
    return "\"" + identifier.replace("\"", "\"\"") + "\"";
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
