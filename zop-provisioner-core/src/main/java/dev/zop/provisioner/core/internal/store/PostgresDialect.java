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

  /**
   * One index lookup per job. Given {@code job_id IN (...)} and statistics older than the table's growth (or none
   * yet), PostgreSQL reads the whole table and filters it, at a cost that grows with every job ever run (figures
   * in docs/benchmark-history.md). A lateral subquery by one job id is an index lookup
   * under any statistics; its ORDER BY keeps the planner from flattening it back into that join.
   */
  @Override
  public String stepsOfJobs(String columns, String from, int jobs) {
    return "SELECT steps.* FROM unnest(ARRAY[" + Database.marks(jobs) + "]::varchar[]) AS wanted(job)"
        + " CROSS JOIN LATERAL (SELECT " + columns + " FROM " + from + " WHERE s.job_id = wanted.job"
        + " ORDER BY s.phase, s.step_index) steps";
  }

  @Override
  public List<Claimed> claim(Connection connection, String owner, long leaseMillis, int limit)
      throws SQLException {
    // The claim must walk the due index in order and stop after `limit` rows. With statistics that lag a burst of
    // submits (the planner then expects a handful of due rows), PostgreSQL instead reads every due row in a bitmap
    // scan and sorts them all, at a cost that grows with every job queued. Sorting is
    // what that plan needs, so the claim's transaction forbids it. The setting lasts to the end of that transaction,
    // which also loads the claimed jobs and steps: those reads are by key, and each job's steps come in the order of
    // their unique index (job, phase, index), so they need no sort either. The setting and the claim go to the server in
    // one round trip.
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
