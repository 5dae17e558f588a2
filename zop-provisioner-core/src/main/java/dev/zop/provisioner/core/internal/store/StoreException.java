package dev.zop.provisioner.core.internal.store;

import java.sql.SQLException;

/** The engine database failed; carries the SQL state so callers can tell a unique violation from an outage. */
public final class StoreException extends RuntimeException {
  public StoreException(String message, SQLException cause) {
    super(message, cause);
  }

  public SQLException sqlCause() {
    return (SQLException) getCause();
  }
}
