package dev.zop.provisioner.core;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;

/**
 * Tells a failure of the engine's database being away (restarting, unreachable, its pool out of connections) from
 * any other: what was being written is not kept, and trying again once it answers is right.
 */
public final class StoreOutages {
  private StoreOutages() {}

  /** Whether {@code failure}, or anything that caused it, says the database does not answer. */
  public static boolean isStoreAway(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof SQLTransientConnectionException || t instanceof SQLRecoverableException
          || t instanceof SQLNonTransientConnectionException) {
        return true;
      }
      // connection exceptions (08) and an administrator's or a crash's shutdown (57P01-57P03)
      if (t instanceof SQLException sql && sql.getSQLState() != null
          && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P0"))) {
        return true;
      }
    }
    return false;
  }
}
