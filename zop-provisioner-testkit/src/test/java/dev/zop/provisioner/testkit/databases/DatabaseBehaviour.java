package dev.zop.provisioner.testkit.databases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Connection;
import dev.zop.provisioner.Database;
import dev.zop.provisioner.DatabaseStatus;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Databases, users and connections created for real on a database server; run once per server kind. */
abstract class DatabaseBehaviour {
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  SimCloud cloud;
  EmbeddedProvisioner zop;
  Space space;
  /** Every name this test run uses starts with it, so leftovers can be found and nothing else is touched. */
  final String prefix = "zt" + UUID.randomUUID().toString().substring(0, 6) + "_";

  abstract DatastoreEngine engine();

  abstract SimCloud.Server server();

  /** JDBC URL of a database on the server. */
  abstract String url(String database);

  abstract boolean databaseExists(String name) throws SQLException;

  abstract boolean userExists(String name) throws SQLException;

  /** Proves the server holds {@code password} for {@code user}. */
  abstract void assertPasswordAccepted(String user, String password, String database) throws Exception;

  /** Makes a database and user on the server directly, as an engine that died part-way would have left them. */
  abstract void createByHand(String database, String user) throws SQLException;

  /** Drops what this run's prefix names, whatever a failed test left. */
  abstract void dropLeftovers(String namePrefix) throws SQLException;

  @BeforeEach
  void start() {
    cloud = SimCloud.create().backDatastores(engine(), server());
    zop = TestEngines.h2(dir, cloud).build();
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "db-tests"));
    space = zop.spaces().create(SpaceRequest.of("sim", "db-space", account.id()).region("sim-east-1"));
  }

  @AfterEach
  void stop() throws SQLException {
    if (zop != null) {
      zop.close();
    }
    dropLeftovers(prefix);
  }

  Job datastore() {
    DatastoreSpec.Builder spec = engine() == DatastoreEngine.POSTGRES ? DatastoreSpec.postgres() : DatastoreSpec.mysql();
    Job job = zop.jobs().submit(space.id(), spec.name(prefix.replace('_', '-') + "db").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(20));
    Job done = zop.jobs().await(job.id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.outputs()).containsKeys("host", "port", "adminUser", "adminSecretRef");
    return done;
  }

  String adminUrl() {
    return url(engine() == DatastoreEngine.POSTGRES ? "postgres" : "");
  }

  @Test
  void fullLifecycleOnARealServerLeavesNoPasswordBehind() throws Exception {
    PrintStream originalErr = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(new PrintStream(new TeeStream(originalErr, captured), true, StandardCharsets.UTF_8));
    List<String> passwords = new ArrayList<>();
    Job job;
    try {
      job = datastore();
      Database app = zop.jobs().databases(job.id()).create(prefix + "app", prefix + "app_owner");
      Database other = zop.jobs().databases(job.id()).create(prefix + "other", prefix + "other_owner");
      assertThat(app.status()).isEqualTo(DatabaseStatus.READY);
      assertThat(app.host()).isEqualTo(server().host());
      assertThat(app.port()).isEqualTo(server().port());
      assertThat(app.secretRef().value()).startsWith("local:");
      assertThat(zop.jobs().databases(job.id()).list()).extracting(Database::name)
          .containsExactly(prefix + "other", prefix + "app"); // newest first
      assertThat(zop.jobs().databases(job.id()).get(app.id())).isEqualTo(app);

      Connection connection = zop.jobs().databases(job.id()).connections(app.id()).create();
      assertThat(connection.user()).isEqualTo(prefix + "app_owner");
      assertThat(connection.database()).isEqualTo(prefix + "app");
      assertThat(connection.secretRef()).isEqualTo(app.secretRef());
      String password = zop.secrets().reveal(connection.secretRef());
      passwords.add(password);
      passwords.add(zop.secrets().reveal(zop.jobs().databases(job.id()).connections(other.id()).create().secretRef()));
      assertThat(password).hasSize(32).matches("[A-Za-z0-9]+");
      assertPasswordAccepted(connection.user(), password, connection.database());

      // the owner works in its own database and cannot in another
      try (java.sql.Connection login = DriverManager.getConnection(url(connection.database()), connection.user(),
          password); Statement s = login.createStatement()) {
        s.execute("CREATE TABLE orders (id INT PRIMARY KEY)");
        s.execute("INSERT INTO orders VALUES (1)");
      }
      assertThatThrownBy(() -> {
        try (java.sql.Connection login = DriverManager.getConnection(url(prefix + "other"), connection.user(),
            password); Statement s = login.createStatement()) {
          s.execute("CREATE TABLE stolen (id INT)");
        }
      }).isInstanceOf(SQLException.class);

      // a job-scoped connection carries the server's admin login
      Connection admin = zop.jobs().connections(job.id()).create();
      assertThat(admin.user()).isEqualTo(server().adminUser());
      assertThat(admin.database()).isNull();
      assertThat(zop.jobs().connections(job.id()).list()).containsExactly(admin);

      // deleting a connection keeps the user
      zop.jobs().databases(job.id()).connections(app.id()).delete(connection.id());
      assertThat(zop.jobs().databases(job.id()).connections(app.id()).list()).isEmpty();
      assertThat(userExists(prefix + "app_owner")).isTrue();

      // the datastore cannot be torn down under its databases
      assertThatThrownBy(() -> zop.jobs().delete(job.id()))
          .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("job_has_dependents"));

      zop.jobs().databases(job.id()).delete(app.id());
      assertThat(databaseExists(prefix + "app")).isFalse();
      assertThat(userExists(prefix + "app_owner")).isFalse();
      assertThatThrownBy(() -> DriverManager.getConnection(url(prefix + "app"), prefix + "app_owner", password)
          .close()).isInstanceOf(SQLException.class);
      assertThatThrownBy(() -> zop.secrets().reveal(app.secretRef())).isInstanceOf(NotFoundException.class);
      assertThatThrownBy(() -> zop.jobs().databases(job.id()).get(app.id())).isInstanceOf(NotFoundException.class);

      zop.jobs().databases(job.id()).delete(other.id());
      assertThat(databaseExists(prefix + "other")).isFalse();
      assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
      assertThatThrownBy(() -> zop.secrets().reveal(admin.secretRef())).isInstanceOf(NotFoundException.class);
    } finally {
      System.setErr(originalErr);
    }

    String dump = dumpOurDatabase();
    assertThat(dump).contains(job.id().value()); // the dump is real: it holds the job
    String logs = captured.toString(StandardCharsets.UTF_8);
    for (String password : passwords) {
      assertThat(dump).doesNotContain(password);
      assertThat(logs).doesNotContain(password);
      assertThat(filesContaining(dir, password)).isEmpty();
    }
  }

  @Test
  void hostileNamesAreRejectedAndCreateNothing() throws Exception {
    Job job = datastore();
    List<String> hostile = List.of("a\"b", "x'; DROP DATABASE test; --", "semi;colon", "ünïcödé", "Upper",
        "1starts_with_digit", "with space", "dash-ed", "back`tick", "a".repeat(64), "", "postgres", "mysql",
        "pg_catalog_copy");
    for (String name : hostile) {
      assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(name, prefix + "owner"))
          .as(name).isInstanceOfSatisfying(ValidationException.class,
              e -> assertThat(e.fieldErrors()).extracting(FieldError::field).containsExactly("name"));
      assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(prefix + "db", name))
          .as(name).isInstanceOfSatisfying(ValidationException.class,
              e -> assertThat(e.fieldErrors()).extracting(FieldError::field).containsExactly("owner"));
    }
    assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(prefix + "db", "o".repeat(33)))
        .isInstanceOf(ValidationException.class);
    assertThat(zop.jobs().databases(job.id()).list()).isEmpty();
    assertThat(databaseExists(prefix + "db")).isFalse();
    assertThat(userExists(prefix + "owner")).isFalse();
  }

  @Test
  void duplicatesForeignNamesAndUnsuitableParentsGetTypedErrors() throws Exception {
    Job job = datastore();
    zop.jobs().databases(job.id()).create(prefix + "dup", prefix + "dup_owner");
    assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(prefix + "dup", prefix + "second"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("database_exists"));
    assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(prefix + "third", prefix + "dup_owner"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("database_exists"));

    // a database another tool made on the server is never adopted, and never dropped by the failed create
    createByHand(prefix + "foreign", prefix + "foreign_owner");
    assertThatThrownBy(() -> zop.jobs().databases(job.id()).create(prefix + "foreign", prefix + "new_owner"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("exists_on_server"));
    assertThat(databaseExists(prefix + "foreign")).isTrue();
    assertThat(userExists(prefix + "new_owner")).isFalse();

    Job redis = zop.jobs().await(zop.jobs().submit(space.id(), DatastoreSpec.redis().name(prefix.replace('_', '-')
        + "cache").version("7.1").instanceClass("cache.t3.small")).id(), WAIT);
    assertThatThrownBy(() -> zop.jobs().databases(redis.id()).create(prefix + "x", prefix + "x_owner"))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.fieldErrors()).extracting(FieldError::code).containsExactly("not_sql_datastore"));

    Job cluster = zop.jobs().await(zop.jobs().submit(space.id(), KubernetesSpec.named(prefix.replace('_', '-')
        + "k8s").version("1.30").nodeGroup("ng", "m5.large", 1, 1)).id(), WAIT);
    assertThatThrownBy(() -> zop.jobs().databases(cluster.id()).list())
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.fieldErrors()).extracting(FieldError::code).containsExactly("not_a_datastore"));

    cloud.stuckCreating("db-instance");
    DatastoreSpec.Builder spec = engine() == DatastoreEngine.POSTGRES ? DatastoreSpec.postgres() : DatastoreSpec.mysql();
    Job pending = zop.jobs().submit(space.id(), spec.name(prefix.replace('_', '-') + "slow").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(20));
    assertThatThrownBy(() -> zop.jobs().databases(pending.id()).create(prefix + "early", prefix + "early_owner"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("parent_not_ready"));

    assertThatThrownBy(() -> zop.as(Principal.of("another-org", "eve").withRoles(Principal.ADMIN)).jobs().databases(job.id()).list())
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void aRestartedEngineUndoesAnInterruptedCreateAndFinishesAnInterruptedDelete() throws Exception {
    Job job = datastore();
    Database kept = zop.jobs().databases(job.id()).create(prefix + "deleting", prefix + "deleting_owner");
    zop.close();

    // what an engine that died part-way leaves: a 'creating' row whose server objects exist, and a
    // 'deleting' row whose database is still there; both leases long expired
    createByHand(prefix + "halfmade", prefix + "halfmade_owner");
    try (java.sql.Connection c = DriverManager.getConnection(h2Url(), "sa", ""); Statement s = c.createStatement()) {
      s.executeUpdate("INSERT INTO job_databases (id, org_id, job_id, name, owner_name, status, lease_until,"
          + " created_by, created_at) VALUES ('db_halfmade', 'default', '" + job.id() + "', '" + prefix
          + "halfmade', '" + prefix + "halfmade_owner', 'creating', DATEADD(MINUTE, -10, CURRENT_TIMESTAMP),"
          + " 'local', CURRENT_TIMESTAMP)");
      s.executeUpdate("UPDATE job_databases SET status = 'deleting', lease_until = DATEADD(MINUTE, -10,"
          + " CURRENT_TIMESTAMP) WHERE id = '" + kept.id() + "'");
    }

    zop = TestEngines.h2(dir, cloud).build();
    await().atMost(WAIT).until(() -> zop.jobs().databases(job.id()).list().isEmpty());
    assertThat(databaseExists(prefix + "halfmade")).isFalse();
    assertThat(userExists(prefix + "halfmade_owner")).isFalse();
    assertThat(databaseExists(prefix + "deleting")).isFalse();
    assertThat(userExists(prefix + "deleting_owner")).isFalse();
    assertThatThrownBy(() -> zop.secrets().reveal(kept.secretRef())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void theSpacesProviderSecretStoreIsUsedWhenItHasOne() throws Exception {
    cloud.secretStore(true);
    Job job = datastore();
    assertThat(job.outputs().get("adminSecretRef")).startsWith("sim-secrets:");
    Database db = zop.jobs().databases(job.id()).create(prefix + "vaulted", prefix + "vaulted_owner");
    assertThat(db.secretRef().value()).startsWith("sim-secrets:");
    String password = zop.secrets().reveal(db.secretRef());
    assertThat(cloud.secretValues()).containsValue(password);
    assertPasswordAccepted(prefix + "vaulted_owner", password, prefix + "vaulted");
    assertThatThrownBy(() -> zop.as(Principal.of("another-org", "eve").withRoles(Principal.ADMIN)).secrets().reveal(db.secretRef()))
        .isInstanceOf(NotFoundException.class);
    zop.jobs().databases(job.id()).delete(db.id());
    assertThat(cloud.secretValues()).doesNotContainValue(password);
  }

  String h2Url() {
    return "jdbc:h2:file:" + dir.resolve("zop").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE;QUERY_CACHE_SIZE=64";
  }

  /** Every statement and row of the engine's database, as H2's SCRIPT writes them. */
  String dumpOurDatabase() throws SQLException {
    StringBuilder dump = new StringBuilder();
    try (java.sql.Connection c = DriverManager.getConnection(h2Url(), "sa", ""); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SCRIPT")) {
      while (rs.next()) {
        dump.append(rs.getString(1)).append('\n');
      }
    }
    return dump.toString();
  }

  /** Files under {@code root} whose bytes contain {@code text}: the database file, secrets, keys. */
  static List<Path> filesContaining(Path root, String text) throws IOException {
    byte[] needle = text.getBytes(StandardCharsets.UTF_8);
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).filter(f -> {
        try {
          return indexOf(Files.readAllBytes(f), needle) >= 0;
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }).toList();
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /** Writes to two streams: the real stderr, and a buffer the test reads. */
  private static final class TeeStream extends java.io.OutputStream {
    private final java.io.OutputStream a;
    private final java.io.OutputStream b;

    TeeStream(java.io.OutputStream a, java.io.OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int value) throws IOException {
      a.write(value);
      b.write(value);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }
  }
}
