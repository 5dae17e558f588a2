package dev.zop.provisioner.core.internal.databases;

import dev.zop.provisioner.core.internal.store.Database;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Locale;

/** MySQL and MariaDB: a user per database with every privilege on that database and nothing else. */
final class MySqlServer implements ServerDialect {

  @Override
  public String jdbcUrl(String host, int port, String database) {
    return "jdbc:mariadb://" + host + ":" + port + "/" + (database == null ? "" : database);
  }

  @Override
  public void createOwner(Connection admin, String owner, String password) throws SQLException {
    // IDENTIFIED BY PASSWORD takes the mysql_native_password hash, so the password itself is never sent as SQL.
    execute(admin, "CREATE USER " + account(owner) + " IDENTIFIED BY PASSWORD '" + nativePasswordHash(password)
        + "'");
  }

  @Override
  public void createDatabase(Connection admin, String database, String owner) throws SQLException {
    execute(admin, "CREATE DATABASE " + quote(database));
    execute(admin, "GRANT ALL PRIVILEGES ON " + quote(database) + ".* TO " + account(owner));
  }

  @Override
  public boolean databaseExists(Connection admin, String database) throws SQLException {
    return Database.queryOne(admin, "SELECT 1 FROM information_schema.schemata WHERE schema_name = ?",
        rs -> 1, database) != null;
  }

  @Override
  public boolean ownerExists(Connection admin, String owner) throws SQLException {
    return Database.queryOne(admin, "SELECT 1 FROM mysql.user WHERE user = ? AND host = '%'", rs -> 1, owner)
        != null;
  }

  @Override
  public void dropDatabase(Connection admin, String database) throws SQLException {
    execute(admin, "DROP DATABASE IF EXISTS " + quote(database));
  }

  @Override
  public void dropOwner(Connection admin, String owner) throws SQLException {
    execute(admin, "DROP USER IF EXISTS " + account(owner));
  }

  /** {@code *} and the upper-case hex of SHA1(SHA1(password)): what mysql_native_password stores. */
  static String nativePasswordHash(String password) {
    try {
      MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
      byte[] once = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
      return "*" + HexFormat.of().formatHex(sha1.digest(once)).toUpperCase(Locale.ROOT);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String quote(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }

  private static String account(String user) {
    return "'" + user.replace("'", "''") + "'@'%'";
  }

  private static void execute(Connection c, String sql) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
