package dev.zop.provisioner.core.internal.accounts;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.ClusterAccessGrant;
import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;

/** The {@code cluster_access} table: which clusters an account may mint kubeconfigs for. */
public final class ClusterAccessRepository {
  public ClusterAccessGrant find(Connection c, String orgId, CloudAccountId account, String region, String cluster)
      throws SQLException {
    return Database.queryOne(c, "SELECT account_id, region, cluster_name, registered_by, registered_at"
            + " FROM cluster_access WHERE org_id = ? AND account_id = ? AND region = ? AND cluster_name = ?",
        rs -> new ClusterAccessGrant(CloudAccountId.of(rs.getString(1)), rs.getString(2), rs.getString(3),
            rs.getString(4), Database.instant(rs, "registered_at")),
        orgId, account.value(), region, cluster);
  }

  /** Records the grant unless it exists; returns whether a row was added. */
  public boolean insertIfAbsent(Connection c, String orgId, CloudAccountId account, String region, String cluster,
      String registeredBy, String jobId, Instant at) throws SQLException {
    if (find(c, orgId, account, region, cluster) != null) {
      return false;
    }
    Database.update(c, "INSERT INTO cluster_access (org_id, account_id, region, cluster_name, registered_by,"
        + " registered_by_job, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        orgId, account.value(), region, cluster, registeredBy, jobId, at);
    return true;
  }

  public boolean delete(Connection c, String orgId, CloudAccountId account, String region, String cluster)
      throws SQLException {
    return Database.update(c, "DELETE FROM cluster_access WHERE org_id = ? AND account_id = ? AND region = ?"
        + " AND cluster_name = ?", orgId, account.value(), region, cluster) > 0;
  }

  /** A cluster job's teardown: the cluster is gone, so is its registration. */
  public void deleteRegisteredBy(Connection c, String jobId) throws SQLException {
    Database.update(c, "DELETE FROM cluster_access WHERE registered_by_job = ?", jobId);
  }
}
