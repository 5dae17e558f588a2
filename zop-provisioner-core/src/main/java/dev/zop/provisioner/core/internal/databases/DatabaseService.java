package dev.zop.provisioner.core.internal.databases;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Connection;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.Database;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.DatabaseStatus;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.store.StoreException;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.SecretStore;
import dev.zop.provisioner.spi.SharedOutputs;
import java.security.SecureRandom;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Databases and connections under datastore jobs. Creating one issues {@code CREATE USER} and
 * {@code CREATE DATABASE} on the job's server over JDBC; the generated password goes only to the secret store.
 * A create or delete is recorded before it starts, so an engine that dies part-way leaves a row another
 * engine undoes (create) or finishes (delete) once its lease has passed.
 */
public final class DatabaseService {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseService.class);
  /** Lower-case identifiers need no case folding on either server and cannot smuggle syntax. */
  private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");
  /** MySQL user names are at most 32 characters; database names 64 on both servers, 63 on PostgreSQL. */
  private static final int MAX_NAME = 63;
  private static final int MAX_OWNER = 32;
  private static final Set<String> RESERVED = Set.of("postgres", "template0", "template1", "mysql", "sys",
      "information_schema", "performance_schema", "root", "mariadb_sys", "public", "pg_signal_backend");
  private static final char[] PASSWORD_ALPHABET =
      "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();
  private static final long OPERATION_LEASE_MILLIS = 120_000;

  private final dev.zop.provisioner.core.internal.store.Database db;
  private final DatabaseRepository rows = new DatabaseRepository();
  private final SecretService secrets;
  private final SecureRandom random = new SecureRandom();

  public DatabaseService(dev.zop.provisioner.core.internal.store.Database db, SecretService secrets) {
    this.db = db;
    this.secrets = secrets;
  }

  /** The datastore's server as its job recorded it. */
  private record Server(String engine, String host, int port, String adminUser, SecretRef adminSecret) {}

  public Database create(Principal principal, JobId jobId, String name, String owner) {
    List<FieldError> errors = new ArrayList<>();
    checkIdentifier(errors, "name", name, MAX_NAME);
    checkIdentifier(errors, "owner", owner, MAX_OWNER);
    ValidationException.throwIfAny(errors);
    DatabaseRepository.Parent parent = parent(principal, jobId);
    Server server = server(parent);
    if (owner.equals(server.adminUser())) {
      throw ValidationException.of("owner", "reserved", "owner must not be the server's admin user");
    }
    DatabaseRepository.Row existing = db.read(c -> rows.findByNameOrOwner(c, jobId, name, owner));
    if (existing != null) {
      throw new ConflictException("database_exists", existing.name().equals(name)
          ? "a database named '" + name + "' exists on this datastore"
          : "user '" + owner + "' already owns database '" + existing.name() + "'");
    }

    DatabaseRepository.Row row = new DatabaseRepository.Row(DatabaseId.random(), principal.orgId(), jobId, name,
        owner, DatabaseStatus.CREATING, null, principal.actor(), Timestamps.now());
    try {
      db.tx(c -> {
        rows.insert(c, row, OPERATION_LEASE_MILLIS, db.dialect());
        return null;
      });
    } catch (StoreException e) {
      if (db.dialect().isUniqueViolation(e.sqlCause())) {
        throw new ConflictException("database_exists", "a database '" + name + "' or user '" + owner
            + "' was created on this datastore at the same moment");
      }
      throw e;
    }

    SecretStore store = secrets.storeFor(principal.orgId(), parent.accountId(), parent.region());
    ServerDialect dialect = ServerDialect.forEngine(server.engine());
    boolean serverObjectsOurs = false;
    try {
      String password = generatePassword();
      SecretRef ref = store.put("zop/" + principal.orgId() + "/" + jobId + "/databases/" + name + "/owner",
          password);
      db.tx(c -> {
        rows.setSecret(c, row.id(), ref);
        return null;
      });
      try (java.sql.Connection admin = admin(server, dialect)) {
        if (dialect.databaseExists(admin, name) || dialect.ownerExists(admin, owner)) {
          throw new ConflictException("exists_on_server", "the " + server.engine() + " server already has a"
              + " database '" + name + "' or a user '" + owner + "' that this engine did not create");
        }
        serverObjectsOurs = true; // from here on, whatever exists under these names was made by this call
        dialect.createOwner(admin, owner, password);
        dialect.createDatabase(admin, name, owner);
      }
      db.tx(c -> {
        rows.markReady(c, row.id());
        return null;
      });
    } catch (SQLException | RuntimeException e) {
      undoCreate(principal.orgId(), row.id(), server, name, owner, serverObjectsOurs);
      if (e instanceof SQLException sql) {
        throw new ProviderException(classify(sql, server));
      }
      throw (RuntimeException) e;
    }
    return get(principal, jobId, row.id());
  }

  public List<Database> list(Principal principal, JobId jobId) {
    DatabaseRepository.Parent parent = parent(principal, jobId);
    Server server = server(parent);
    return db.read(c -> rows.list(c, principal.orgId(), jobId)).stream().map(r -> view(r, server)).toList();
  }

  public Database get(Principal principal, JobId jobId, DatabaseId id) {
    Server server = server(parent(principal, jobId));
    return view(row(principal, jobId, id), server);
  }

  public void delete(Principal principal, JobId jobId, DatabaseId id) {
    Server server = server(parent(principal, jobId));
    DatabaseRepository.Row row = row(principal, jobId, id);
    boolean marked = db.tx(c -> rows.markDeleting(c, id, OPERATION_LEASE_MILLIS, db.dialect()));
    if (!marked) {
      throw new ConflictException("database_busy", "database " + id + " is " + row.status().wireName());
    }
    try {
      finishDelete(row, server);
    } catch (SQLException e) {
      throw new ProviderException(classify(e, server));
    }
  }

  /** Whether a datastore job still has databases; its teardown must wait until they are deleted. */
  public boolean hasDatabases(JobId jobId) {
    return db.read(c -> rows.any(c, jobId));
  }

  // ---- connections ---------------------------------------------------------------------------------------

  public Connection createConnection(Principal principal, JobId jobId, DatabaseId databaseId) {
    Server server = server(parent(principal, jobId));
    DatabaseRepository.ConnectionRow row;
    if (databaseId == null) {
      row = new DatabaseRepository.ConnectionRow(ConnectionId.random(), jobId, null, server.adminUser(), null,
          server.adminSecret(), principal.actor(), Timestamps.now());
    } else {
      DatabaseRepository.Row database = row(principal, jobId, databaseId);
      if (database.status() != DatabaseStatus.READY) {
        throw new ConflictException("database_busy", "database " + databaseId + " is "
            + database.status().wireName());
      }
      row = new DatabaseRepository.ConnectionRow(ConnectionId.random(), jobId, databaseId, database.owner(),
          database.name(), database.secretRef(), principal.actor(), Timestamps.now());
    }
    db.tx(c -> {
      rows.insertConnection(c, principal.orgId(), row);
      return null;
    });
    return view(row, server);
  }

  public List<Connection> connections(Principal principal, JobId jobId, DatabaseId databaseId) {
    Server server = server(parent(principal, jobId));
    if (databaseId != null) {
      row(principal, jobId, databaseId);
    }
    return db.read(c -> rows.connections(c, principal.orgId(), jobId, databaseId)).stream()
        .map(r -> view(r, server)).toList();
  }

  public Connection connection(Principal principal, JobId jobId, DatabaseId databaseId, ConnectionId id) {
    return connections(principal, jobId, databaseId).stream().filter(c -> c.id().equals(id)).findFirst()
        .orElseThrow(() -> new NotFoundException("connection", id));
  }

  public void deleteConnection(Principal principal, JobId jobId, DatabaseId databaseId, ConnectionId id) {
    parent(principal, jobId);
    boolean deleted = db.tx(c -> rows.deleteConnection(c, principal.orgId(), jobId, databaseId, id));
    if (!deleted) {
      throw new NotFoundException("connection", id);
    }
  }

  // ---- recovery ------------------------------------------------------------------------------------------

  /** Undoes creates and finishes deletes that an engine left part-way; returns how many it handled. */
  public int recover() {
    int handled = 0;
    for (DatabaseRepository.Row row : db.read(rows::abandoned)) {
      if (!db.tx(c -> rows.claimAbandoned(c, row.id(), OPERATION_LEASE_MILLIS, db.dialect()))) {
        continue;
      }
      try {
        DatabaseRepository.Parent parent = db.read(c -> rows.parentAnyOrg(c, row.jobId()));
        Server server = server(parent);
        if (row.status() == DatabaseStatus.CREATING) {
          LOG.info("undoing the interrupted creation of database {} ({})", row.name(), row.id());
          // the create checked the names were free before making anything, so what exists now is its work
          undoCreate(row.orgId(), row.id(), server, row.name(), row.owner(), true);
        } else {
          LOG.info("finishing the interrupted deletion of database {} ({})", row.name(), row.id());
          finishDelete(row, server);
        }
        handled++;
      } catch (SQLException | RuntimeException e) {
        LOG.warn("could not recover database {} ({}); will try again", row.name(), row.id(), e);
      }
    }
    return handled;
  }

  // ---- internals -----------------------------------------------------------------------------------------

  private void finishDelete(DatabaseRepository.Row row, Server server) throws SQLException {
    ServerDialect dialect = ServerDialect.forEngine(server.engine());
    try (java.sql.Connection admin = admin(server, dialect)) {
      dialect.dropDatabase(admin, row.name());
      dialect.dropOwner(admin, row.owner());
    }
    if (row.secretRef() != null) {
      secrets.delete(row.orgId(), row.secretRef());
    }
    db.tx(c -> {
      rows.delete(c, row.id());
      return null;
    });
  }

  /**
   * Removes whatever a create made, in reverse; each part tolerates never having been made. Server objects are
   * dropped only when {@code serverObjectsOurs}: names that were taken before the create are never touched.
   */
  private void undoCreate(String orgId, DatabaseId id, Server server, String name, String owner,
      boolean serverObjectsOurs) {
    if (serverObjectsOurs) {
      ServerDialect dialect = ServerDialect.forEngine(server.engine());
      try (java.sql.Connection admin = admin(server, dialect)) {
        dialect.dropDatabase(admin, name);
        dialect.dropOwner(admin, owner);
      } catch (SQLException | RuntimeException e) {
        LOG.warn("undoing database {} left it for the recovery sweep: {}", name, e.toString());
        return; // the row stays 'creating'; recovery retries once its lease passes
      }
    }
    DatabaseRepository.Row row = db.read(c -> rows.findById(c, id));
    if (row != null && row.secretRef() != null) {
      secrets.delete(orgId, row.secretRef());
    }
    db.tx(c -> {
      rows.delete(c, id);
      return null;
    });
  }

  private java.sql.Connection admin(Server server, ServerDialect dialect) throws SQLException {
    String password = server.adminSecret() == null ? "" : secretValue(server);
    java.sql.Connection c = DriverManager.getConnection(dialect.jdbcUrl(server.host(), server.port(), null),
        server.adminUser(), password);
    c.setAutoCommit(true); // CREATE DATABASE cannot run inside a transaction
    return c;
  }

  private String secretValue(Server server) {
    return secrets.resolveForEngine(server.adminSecret());
  }

  private DatabaseRepository.Parent parent(Principal principal, JobId jobId) {
    DatabaseRepository.Parent parent = db.read(c -> rows.parent(c, principal.orgId(), jobId));
    if (parent == null) {
      throw new NotFoundException("job", jobId);
    }
    if (parent.kind() != JobKind.DATASTORE) {
      throw ValidationException.of("jobID", "not_a_datastore",
          "job " + jobId + " is a " + parent.kind().wireName() + " job; databases live under datastore jobs");
    }
    return parent;
  }

  private Server server(DatabaseRepository.Parent parent) {
    Outputs state = Outputs.of(parent.outputs());
    String engine = state.get(SharedOutputs.ENGINE);
    if (engine != null && !engine.equals("postgres") && !engine.equals("mysql")) {
      throw ValidationException.of("jobID", "not_sql_datastore",
          "job " + parent.id() + " is a " + engine + " datastore; databases need postgres or mysql");
    }
    if (parent.status() != JobStatus.SUCCEEDED) {
      throw new ConflictException("parent_not_ready",
          "datastore job " + parent.id() + " is " + parent.status().wireName() + "; it must have succeeded");
    }
    String host = state.get(SharedOutputs.HOST);
    Integer port = state.get(SharedOutputs.PORT);
    String adminUser = state.get(SharedOutputs.ADMIN_USER);
    SecretRef adminSecret = state.get(SharedOutputs.ADMIN_SECRET_REF);
    if (engine == null || host == null || port == null || adminUser == null) {
      throw new ConflictException("no_server",
          "datastore job " + parent.id() + " recorded no reachable server (host, port, admin login)");
    }
    return new Server(engine, host, port, adminUser, adminSecret);
  }

  private DatabaseRepository.Row row(Principal principal, JobId jobId, DatabaseId id) {
    DatabaseRepository.Row row = db.read(c -> rows.find(c, principal.orgId(), jobId, id));
    if (row == null) {
      throw new NotFoundException("database", id);
    }
    return row;
  }

  private static Database view(DatabaseRepository.Row row, Server server) {
    return new Database(row.id(), row.jobId(), row.name(), row.owner(), row.status(), server.engine(),
        server.host(), server.port(), row.secretRef(), row.createdBy(), row.createdAt());
  }

  private static Connection view(DatabaseRepository.ConnectionRow row, Server server) {
    return new Connection(row.id(), row.jobId(), row.databaseId(), server.engine(), server.host(), server.port(),
        row.database(), row.user(), row.secretRef(), row.createdBy(), row.createdAt());
  }

  private static void checkIdentifier(List<FieldError> errors, String field, String value, int max) {
    if (value == null || value.isEmpty()) {
      errors.add(FieldError.required(field));
    } else if (value.length() > max) {
      errors.add(FieldError.of(field, "too_long", field + " must be at most " + max + " characters"));
    } else if (!IDENTIFIER.matcher(value).matches()) {
      errors.add(FieldError.of(field, "invalid_identifier",
          field + " must be lower-case letters, digits and '_', starting with a letter or '_'"));
    } else if (RESERVED.contains(value.toLowerCase(Locale.ROOT)) || value.startsWith("pg_")) {
      errors.add(FieldError.of(field, "reserved", "'" + value + "' is reserved by the server"));
    }
  }

  private String generatePassword() {
    char[] out = new char[32];
    for (int i = 0; i < out.length; i++) {
      out[i] = PASSWORD_ALPHABET[random.nextInt(PASSWORD_ALPHABET.length)];
    }
    return new String(out);
  }

  /** SQL states by class: 08 connection, 28 authorisation, 42501 insufficient privilege, 53 resources. */
  private static Failure classify(SQLException e, Server server) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    String where = server.engine() + " server " + server.host() + ":" + server.port();
    if (state.startsWith("08")) {
      return Failure.transientFailure("server_unreachable", "cannot reach the " + where + ": " + e.getMessage());
    }
    if (state.startsWith("28")) {
      return Failure.userAction("admin_login_failed", "the " + where + " refused the admin login",
          "Check the datastore's admin credentials in the secret store.", null);
    }
    if (state.equals("42501") || e.getErrorCode() == 1044 || e.getErrorCode() == 1045 || e.getErrorCode() == 1227) {
      return Failure.userAction("insufficient_privilege", "the admin user may not create databases or users on the "
          + where + ": " + e.getMessage(), "Grant CREATEDB and CREATEROLE (PostgreSQL) or CREATE USER and GRANT"
          + " OPTION (MySQL) to the admin user.", null);
    }
    if (state.startsWith("53")) {
      return Failure.transientFailure("server_busy", "the " + where + " is out of resources: " + e.getMessage());
    }
    return Failure.system("sql_error", "the " + where + " failed: " + e.getMessage());
  }
}
