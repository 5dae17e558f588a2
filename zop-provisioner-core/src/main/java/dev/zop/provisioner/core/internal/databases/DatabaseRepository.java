package dev.zop.provisioner.core.internal.databases;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.DatabaseStatus;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Dialect;
import dev.zop.provisioner.core.internal.store.Json;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** SQL for {@code job_databases} and {@code job_connections}, and the parent job they hang off. */
final class DatabaseRepository {

  /** What a datastore job recorded about its server. */
  record Parent(JobId id, String orgId, JobKind kind, JobStatus status, Map<String, String> outputs,
      CloudAccountId accountId, String region) {}

  /** A {@code job_databases} row. */
  record Row(DatabaseId id, String orgId, JobId jobId, String name, String owner, DatabaseStatus status,
      SecretRef secretRef, String createdBy, Instant createdAt) {}

  /** A {@code job_connections} row. */
  record ConnectionRow(ConnectionId id, JobId jobId, DatabaseId databaseId, String user, String database,
      SecretRef secretRef, String createdBy, Instant createdAt) {}

  private static final String COLUMNS = "id, org_id, job_id, name, owner_name, status, secret_ref, created_by,"
      + " created_at";
  private static final String CONNECTION_COLUMNS = "id, job_id, database_id, username, database_name, secret_ref,"
      + " created_by, created_at";

  /** The organisation's job, by its primary key alone (see {@code JobRepository.find}), or null. */
  Parent parent(Connection c, String orgId, JobId jobId) throws SQLException {
    Parent parent = Database.queryOne(c, "SELECT id, org_id, kind, status, outputs, cloud_account_id, region"
            + " FROM provisioning_jobs WHERE id = ?",
        rs -> new Parent(JobId.of(rs.getString("id")), rs.getString("org_id"), JobKind.fromWire(rs.getString("kind")),
            JobStatus.fromWire(rs.getString("status")), Json.stringMap(rs.getString("outputs")),
            CloudAccountId.of(rs.getString("cloud_account_id")), rs.getString("region")),
        jobId.value());
    return parent != null && parent.orgId().equals(orgId) ? parent : null;
  }

  Parent parentAnyOrg(Connection c, JobId jobId) throws SQLException {
    String org = Database.queryOne(c, "SELECT org_id FROM provisioning_jobs WHERE id = ?", rs -> rs.getString(1),
        jobId.value());
    return org == null ? null : parent(c, org, jobId);
  }

  void insert(Connection c, Row row, long leaseMillis, Dialect dialect) throws SQLException {
    Database.update(c, "INSERT INTO job_databases (id, org_id, job_id, name, owner_name, status, secret_ref,"
            + " lease_until, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, " + dialect.nowPlusMillis() + ", ?, ?)",
        row.id().value(), row.orgId(), row.jobId().value(), row.name(), row.owner(), row.status(),
        row.secretRef() == null ? null : row.secretRef().value(), leaseMillis, row.createdBy(), row.createdAt());
  }

  Row find(Connection c, String orgId, JobId jobId, DatabaseId id) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM job_databases WHERE org_id = ? AND job_id = ? AND id = ?",
        DatabaseRepository::map, orgId, jobId.value(), id.value());
  }

  Row findById(Connection c, DatabaseId id) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM job_databases WHERE id = ?", DatabaseRepository::map,
        id.value());
  }

  Row findByNameOrOwner(Connection c, JobId jobId, String name, String owner) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM job_databases WHERE job_id = ?"
        + " AND (name = ? OR owner_name = ?)", DatabaseRepository::map, jobId.value(), name, owner);
  }

  List<Row> list(Connection c, String orgId, JobId jobId) throws SQLException {
    return Database.query(c, "SELECT " + COLUMNS + " FROM job_databases WHERE org_id = ? AND job_id = ?"
        + " ORDER BY created_at DESC, id DESC", DatabaseRepository::map, orgId, jobId.value());
  }

  boolean any(Connection c, JobId jobId) throws SQLException {
    return Database.queryOne(c, "SELECT 1 FROM job_databases WHERE job_id = ?", rs -> 1, jobId.value()) != null;
  }

  /** Rows whose create or delete was left part-way by an engine that is gone. */
  List<Row> abandoned(Connection c) throws SQLException {
    return Database.query(c, "SELECT " + COLUMNS + " FROM job_databases WHERE status IN ('creating', 'deleting')"
        + " AND lease_until < CURRENT_TIMESTAMP", DatabaseRepository::map);
  }

  /** Takes over an abandoned row by extending its lease, unless another engine just did. */
  boolean claimAbandoned(Connection c, DatabaseId id, long leaseMillis, Dialect dialect) throws SQLException {
    return Database.update(c, "UPDATE job_databases SET lease_until = " + dialect.nowPlusMillis()
        + " WHERE id = ? AND lease_until < CURRENT_TIMESTAMP", leaseMillis, id.value()) == 1;
  }

  void setSecret(Connection c, DatabaseId id, SecretRef ref) throws SQLException {
    Database.update(c, "UPDATE job_databases SET secret_ref = ? WHERE id = ?", ref.value(), id.value());
  }

  void markReady(Connection c, DatabaseId id) throws SQLException {
    Database.update(c, "UPDATE job_databases SET status = 'ready', lease_until = NULL WHERE id = ?", id.value());
  }

  /** Marks a ready database for deletion; false when it was not ready (already going, or still being made). */
  boolean markDeleting(Connection c, DatabaseId id, long leaseMillis, Dialect dialect) throws SQLException {
    return Database.update(c, "UPDATE job_databases SET status = 'deleting', lease_until = "
        + dialect.nowPlusMillis() + " WHERE id = ? AND status = 'ready'", leaseMillis, id.value()) == 1;
  }

  void delete(Connection c, DatabaseId id) throws SQLException {
    Database.update(c, "DELETE FROM job_connections WHERE database_id = ?", id.value());
    Database.update(c, "DELETE FROM job_databases WHERE id = ?", id.value());
  }

  void insertConnection(Connection c, String orgId, ConnectionRow row) throws SQLException {
    Database.update(c, "INSERT INTO job_connections (" + CONNECTION_COLUMNS + ", org_id)"
            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        row.id().value(), row.jobId().value(), row.databaseId() == null ? null : row.databaseId().value(), row.user(),
        row.database(), row.secretRef().value(), row.createdBy(), row.createdAt(), orgId);
  }

  List<ConnectionRow> connections(Connection c, String orgId, JobId jobId, DatabaseId databaseId)
      throws SQLException {
    return Database.query(c, "SELECT " + CONNECTION_COLUMNS + " FROM job_connections WHERE org_id = ? AND job_id = ?"
            + " AND " + (databaseId == null ? "database_id IS NULL" : "database_id = ?")
            + " ORDER BY created_at DESC, id DESC",
        DatabaseRepository::mapConnection, databaseId == null
            ? new Object[] {orgId, jobId.value()} : new Object[] {orgId, jobId.value(), databaseId.value()});
  }

  boolean deleteConnection(Connection c, String orgId, JobId jobId, DatabaseId databaseId, ConnectionId id)
      throws SQLException {
    return Database.update(c, "DELETE FROM job_connections WHERE org_id = ? AND job_id = ? AND id = ? AND "
            + (databaseId == null ? "database_id IS NULL" : "database_id = ?"),
        databaseId == null ? new Object[] {orgId, jobId.value(), id.value()}
            : new Object[] {orgId, jobId.value(), id.value(), databaseId.value()}) == 1;
  }

  private static Row map(ResultSet rs) throws SQLException {
    String ref = rs.getString("secret_ref");
    return new Row(DatabaseId.of(rs.getString("id")), rs.getString("org_id"), JobId.of(rs.getString("job_id")),
        rs.getString("name"), rs.getString("owner_name"), DatabaseStatus.fromWire(rs.getString("status")),
        ref == null ? null : SecretRef.of(ref), rs.getString("created_by"), Database.instant(rs, "created_at"));
  }

  private static ConnectionRow mapConnection(ResultSet rs) throws SQLException {
    String db = rs.getString("database_id");
    return new ConnectionRow(ConnectionId.of(rs.getString("id")), JobId.of(rs.getString("job_id")),
        db == null ? null : DatabaseId.of(db), rs.getString("username"), rs.getString("database_name"),
        SecretRef.of(rs.getString("secret_ref")), rs.getString("created_by"), Database.instant(rs, "created_at"));
  }
}
