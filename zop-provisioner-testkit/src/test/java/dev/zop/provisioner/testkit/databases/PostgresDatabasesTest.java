package dev.zop.provisioner.testkit.databases;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;

/** Databases on the machine's PostgreSQL server. */
class PostgresDatabasesTest extends DatabaseBehaviour {
  private static final SimCloud.Server SERVER = TestDatabaseServers.postgres();

  @Override
  DatastoreEngine engine() {
    return DatastoreEngine.POSTGRES;
  }

  @Override
  SimCloud.Server server() {
    return SERVER;
  }

  @Override
  String url(String database) {
    return TestDatabaseServers.postgresUrl(SERVER, database);
  }

  private Connection admin() throws SQLException {
    return DriverManager.getConnection(url("postgres"), SERVER.adminUser(), SERVER.adminPassword());
  }

  @Override
  boolean databaseExists(String name) throws SQLException {
    try (Connection c = admin(); var ps = c.prepareStatement("SELECT 1 FROM pg_database WHERE datname = ?")) {
      ps.setString(1, name);
      return ps.executeQuery().next();
    }
  }

  @Override
  boolean userExists(String name) throws SQLException {
    try (Connection c = admin(); var ps = c.prepareStatement("SELECT 1 FROM pg_roles WHERE rolname = ?")) {
      ps.setString(1, name);
      return ps.executeQuery().next();
    }
  }

  /**
   * The test server trusts loopback logins, so a login would accept any password. Instead the stored SCRAM
   * verifier is checked against the password, as the server would on a password-authenticated login.
   */
  @Override
  void assertPasswordAccepted(String user, String password, String database) throws Exception {
    String verifier;
    try (Connection c = admin(); var ps = c.prepareStatement("SELECT rolpassword FROM pg_authid WHERE rolname = ?")) {
      ps.setString(1, user);
      var rs = ps.executeQuery();
      assertThat(rs.next()).isTrue();
      verifier = rs.getString(1);
    }
    // SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>
    assertThat(verifier).startsWith("SCRAM-SHA-256$");
    String[] parts = verifier.substring("SCRAM-SHA-256$".length()).split("[$:]");
    int iterations = Integer.parseInt(parts[0]);
    byte[] salt = Base64.getDecoder().decode(parts[1]);
    byte[] storedKey = Base64.getDecoder().decode(parts[2]);
    byte[] salted = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256")
        .generateSecret(new PBEKeySpec(password.toCharArray(), salt, iterations, 256)).getEncoded();
    Mac hmac = Mac.getInstance("HmacSHA256");
    hmac.init(new SecretKeySpec(salted, "HmacSHA256"));
    byte[] clientKey = hmac.doFinal("Client Key".getBytes(StandardCharsets.US_ASCII));
    assertThat(MessageDigest.getInstance("SHA-256").digest(clientKey)).isEqualTo(storedKey);
  }

  @Override
  void createByHand(String database, String user) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      s.execute("CREATE ROLE \"" + user + "\" LOGIN");
      s.execute("CREATE DATABASE \"" + database + "\" OWNER \"" + user + "\"");
    }
  }

  @Override
  void dropLeftovers(String namePrefix) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      List<String> databases = names(c, "SELECT datname FROM pg_database WHERE datname LIKE ?", namePrefix);
      for (String db : databases) {
        s.execute("DROP DATABASE IF EXISTS \"" + db + "\" WITH (FORCE)");
      }
      for (String role : names(c, "SELECT rolname FROM pg_roles WHERE rolname LIKE ?", namePrefix)) {
        s.execute("DROP OWNED BY \"" + role + "\"");
        s.execute("DROP ROLE IF EXISTS \"" + role + "\"");
      }
    }
  }

  private static List<String> names(Connection c, String sql, String prefix) throws SQLException {
    try (var ps = c.prepareStatement(sql)) {
      ps.setString(1, prefix + "%");
      var rs = ps.executeQuery();
      List<String> out = new java.util.ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }
}
