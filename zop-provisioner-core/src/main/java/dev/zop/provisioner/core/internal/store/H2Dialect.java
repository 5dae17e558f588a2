package dev.zop.provisioner.core.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * H2: no SKIP LOCKED, so candidates are read and each is claimed with an optimistic
 * {@code UPDATE ... WHERE id = ? AND version = ?}; a row another engine took in between simply isn't claimed.
 */
final class H2Dialect implements Dialect {
  /**
   * The due jobs, earliest first. H2 keeps NULLs first in an ascending index and reads a range with no lower
   * bound from the index's start, so without the first condition every finished job (its {@code next_run_at}
   * is NULL) would be read on every claim, and a claim would grow slower with every job ever finished.
   * No job is due before 1970, so the bound only skips the NULLs.
   */
  static final String CANDIDATES = "SELECT id, version FROM provisioning_jobs"
      + " WHERE next_run_at > TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00' AND " + DUE
      + " ORDER BY next_run_at LIMIT ?";

  @Override
  public String nowPlusMillis() {
    return "DATEADD(MILLISECOND, CAST(? AS BIGINT), CURRENT_TIMESTAMP)";
  }

  @Override
  public List<Claimed> claim(Connection connection, String owner, long leaseMillis, int limit)
      throws SQLException {
    List<Claimed> candidates = new ArrayList<>();
    try (PreparedStatement ps = connection.prepareStatement(CANDIDATES)) {
      ps.setInt(1, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          candidates.add(new Claimed(rs.getString(1), rs.getLong(2)));
        }
      }
    }
    List<Claimed> claimed = new ArrayList<>();
    try (PreparedStatement ps = connection.prepareStatement(
        "UPDATE provisioning_jobs SET lease_owner = ?, lease_until = " + nowPlusMillis()
            + ", version = version + 1 WHERE id = ? AND version = ? AND " + DUE)) {
      for (Claimed candidate : candidates) {
        ps.setString(1, owner);
        ps.setLong(2, leaseMillis);
        ps.setString(3, candidate.jobId());
        ps.setLong(4, candidate.version());
        if (ps.executeUpdate() == 1) {
          claimed.add(new Claimed(candidate.jobId(), candidate.version() + 1));
        }
      }
    }
    return claimed;
  }

  @Override
  public boolean isUniqueViolation(SQLException e) {
    return "23505".equals(e.getSQLState());
  }
}
