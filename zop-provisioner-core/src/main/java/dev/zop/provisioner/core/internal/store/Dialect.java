package dev.zop.provisioner.core.internal.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** The SQL that differs between the databases the engine runs on. Everything else is shared. */
public interface Dialect {

  /** An expression for "the database's clock plus {@code ?} milliseconds"; takes one bound long. */
  String nowPlusMillis();

  /**
   * Claims up to {@code limit} due, unleased jobs for {@code owner} for {@code leaseMillis}, bumping each
   * claimed row's version. Returns what was claimed, with the new version as the fencing token.
   */
  List<Claimed> claim(Connection connection, String owner, long leaseMillis, int limit) throws SQLException;

  boolean isUniqueViolation(SQLException e);

  /** Whether {@code e} reports a null written to a column that must not be null. */
  default boolean isNotNullViolation(SQLException e) {
    return "23502".equals(e.getSQLState()); // SQL standard; H2 and PostgreSQL both report it
  }

  /** A claimed job id and the version the claimer must carry on every write. */
  record Claimed(String jobId, long version) {}

  /**
   * Due, unleased jobs; shared by both dialects. A job awaiting a person is due only when a decision arrived or
   * its approval timed out: then its {@code next_run_at} is set, otherwise it is null.
   */
  String DUE = "status IN ('pending', 'running', 'deleting', 'awaiting_user') AND next_run_at <= CURRENT_TIMESTAMP"
      + " AND (lease_until IS NULL OR lease_until < CURRENT_TIMESTAMP)";
}
