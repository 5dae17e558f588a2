package dev.zop.provisioner.testkit.databases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import dev.zop.provisioner.sim.SimCloud;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Databases on the machine's MariaDB server (the MySQL dialect). */
class MariaDbDatabasesTest extends DatabaseBehaviour {
  private static final SimCloud.Server SERVER = TestDatabaseServers.mariadb();

  @Override
  DatastoreEngine engine() {
    return DatastoreEngine.MYSQL;
  }

  @Override
  SimCloud.Server server() {
    return SERVER;
  }

  @Override
  String url(String database) {
    return TestDatabaseServers.mariadbUrl(SERVER, database);
  }

  private Connection admin() throws SQLException {
    return DriverManager.getConnection(url(""), SERVER.adminUser(), SERVER.adminPassword());
  }

  @Override
  boolean databaseExists(String name) throws SQLException {
    try (Connection c = admin();
        var ps = c.prepareStatement("SELECT 1 FROM information_schema.schemata WHERE schema_name = ?")) {
      ps.setString(1, name);
      return ps.executeQuery().next();
    }
  }

  @Override
  boolean userExists(String name) throws SQLException {
    try (Connection c = admin(); var ps = c.prepareStatement("SELECT 1 FROM mysql.user WHERE user = ?")) {
      ps.setString(1, name);
      return ps.executeQuery().next();
    }
  }

  /** MariaDB checks passwords on loopback: logging in is the proof. */
  @Override
  void assertPasswordAccepted(String user, String password, String database) throws Exception {
    try (Connection c = DriverManager.getConnection(url(database), user, password)) {
      assertThat(c.isValid(5)).isTrue();
    }
    assertThatThrownBy(() -> DriverManager.getConnection(url(database), user, password + "x").close())
        .isInstanceOf(SQLException.class);
  }

  @Override
  void createByHand(String database, String user) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      s.execute("CREATE USER '" + user + "'@'%'");
      s.execute("CREATE DATABASE `" + database + "`");
      s.execute("GRANT ALL ON `" + database + "`.* TO '" + user + "'@'%'");
    }
  }

  @Override
  void dropLeftovers(String namePrefix) throws SQLException {
    try (Connection c = admin(); Statement s = c.createStatement()) {
      for (String db : names(c, "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE ?",
          namePrefix)) {
        s.execute("DROP DATABASE IF EXISTS `" + db + "`");
      }
      for (String user : names(c, "SELECT DISTINCT user FROM mysql.user WHERE user LIKE ?", namePrefix)) {
        s.execute("DROP USER IF EXISTS '" + user + "'@'%'");
      }
    }
  }

  /**
   * An admin that may create databases and users but not grant: the GRANT after CREATE DATABASE fails, and the
   * create is undone on the server.
   */
  @Test
  void aFailureAfterCreateDatabaseUndoesEverything() throws Exception {
    String limited = prefix + "limited";
    try (Connection c = admin(); Statement s = c.createStatement()) {
      s.execute("CREATE USER '" + limited + "'@'%' IDENTIFIED BY 'limited-pw'");
      s.execute("GRANT CREATE, DROP, CREATE USER ON *.* TO '" + limited + "'@'%'");
      s.execute("GRANT SELECT ON mysql.user TO '" + limited + "'@'%'");
    }
    cloud.backDatastores(DatastoreEngine.MYSQL,
        new SimCloud.Server(SERVER.host(), SERVER.port(), limited, "limited-pw"));
    Job job = datastore();

    assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(prefix + "ungranted", prefix + "ungranted_owner"))
        .isInstanceOfSatisfying(ProviderException.class, e -> {
          assertThat(e.failure().category()).isEqualTo(FailureCategory.USER_ACTION);
          assertThat(e.failure().code()).isEqualTo("insufficient_privilege");
          assertThat(e.failure().fixHint()).contains("GRANT");
        });
    assertThat(databaseExists(prefix + "ungranted")).isFalse();
    assertThat(userExists(prefix + "ungranted_owner")).isFalse();
    assertThat(zop.jobs().databases(job.id()).list()).isEmpty();
  }

  private static List<String> names(Connection c, String sql, String prefix) throws SQLException {
    try (var ps = c.prepareStatement(sql)) {
      ps.setString(1, prefix + "%");
      var rs = ps.executeQuery();
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }
}
