package dev.zop.provisioner.core.internal.secrets;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.sql.SQLException;

/** The {@code secret_refs} table: which store holds each reference the engine issued, and for which organisation. */
final class SecretRefRepository {
  /** Where a reference's value lives. */
  record Issued(String store, CloudAccountId accountId, String region) {}

  /** Records an issued reference; false when it was already recorded (a value put again under its name). */
  boolean insert(Connection c, Database db, SecretRef ref, String orgId, String store, CloudAccountId accountId,
      String region) throws SQLException {
    try {
      Database.update(c, "INSERT INTO secret_refs (ref, org_id, store, cloud_account_id, region, created_at)"
          + " VALUES (?, ?, ?, ?, ?, CURRENT_TIMESTAMP)", ref.value(), orgId, store, accountId.value(), region);
      return true;
    } catch (SQLException e) {
      if (!db.dialect().isUniqueViolation(e)) {
        throw e;
      }
      return false;
    }
  }

  /** Where {@code ref} lives; {@code orgId} null looks across organisations (engine use only). */
  Issued find(Connection c, String orgId, SecretRef ref) throws SQLException {
    String sql = "SELECT store, cloud_account_id, region FROM secret_refs WHERE ref = ?"
        + (orgId == null ? "" : " AND org_id = ?");
    Object[] args = orgId == null ? new Object[] {ref.value()} : new Object[] {ref.value(), orgId};
    return Database.queryOne(c, sql, rs -> new Issued(rs.getString(1), CloudAccountId.of(rs.getString(2)),
        rs.getString(3)), args);
  }

  void delete(Connection c, String orgId, SecretRef ref) throws SQLException {
    Database.update(c, "DELETE FROM secret_refs WHERE org_id = ? AND ref = ?", orgId, ref.value());
  }
}
