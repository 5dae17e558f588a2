package dev.zop.provisioner.core.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** PostgreSQL: one statement claims a batch; SKIP LOCKED keeps competing engines off each other's rows. */
final class PostgresDialect implements Dialect {

  @Override
  public String nowPlusMillis() {
    return "(CURRENT_TIMESTAMP + CAST(? AS BIGINT) * INTERVAL '1 millisecond')";
  }

  @Override
  public List<Claimed> claim(Connection connection, String owner, long leaseMillis, int limit)
      throws SQLException {
    // The claim must walk the due index in order and stop after `limit` rows. With statistics that lag a burst of
    // submits (the planner then expects a handful of due rows), PostgreSQL instead reads every due row in a bitmap
    // scan and sorts them all, at a cost that grows with every job queued. Sorting is what that plan needs, so the
    // claim's transaction forbids it. The setting lasts to the end of that transaction, which also loads the claimed
    // jobs and their steps: those reads are by key, so they need no sort either. The setting and the claim go to the
    // server in one round trip.
    String sql = "SET LOCAL enable_sort = off; UPDATE provisioning_jobs SET lease_owner = ?, lease_until = "
        + nowPlusMillis() + ", version = version + 1"
        + " WHERE id IN (SELECT id FROM provisioning_jobs WHERE " + DUE
        + " ORDER BY next_run_at LIMIT ? FOR UPDATE SKIP LOCKED)"
        + " RETURNING id, version";
    List<Claimed> claimed = new ArrayList<>();
    try (PreparedStatement ps = connection.prepareStatement(sql)) {
      ps.setString(1, owner);
      ps.setLong(2, leaseMillis);
      ps.setInt(3, limit);
      boolean rows = ps.execute();
      while (!rows) { // the SET's outcome comes first
        if (ps.getUpdateCount() == -1) {
          throw new SQLException("the claim returned no rows: " + sql);
        }
        rows = ps.getMoreResults();
      }
      try (ResultSet rs = ps.getResultSet()) {
        while (rs.next()) {
          claimed.add(new Claimed(rs.getString(1), rs.getLong(2)));
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
