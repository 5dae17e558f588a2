package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** The datastore engines every provider offers. */
public enum DatastoreEngine {
  POSTGRES(true, 5432),
  MYSQL(true, 3306),
  REDIS(false, 6379);

  private final boolean sql;
  private final int defaultPort;

  DatastoreEngine(boolean sql, int defaultPort) {
    this.sql = sql;
    this.defaultPort = defaultPort;
  }

  /** Whether databases and users can be created under it. */
  public boolean isSql() {
    return sql;
  }

  public int defaultPort() {
    return defaultPort;
  }

  @JsonValue
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  @JsonCreator
  public static DatastoreEngine fromWire(String value) {
    try {
      return valueOf(value.trim().toUpperCase(Locale.ROOT));
    } catch (RuntimeException e) {
      // not chained: JSON binding reports the root cause, and the answer must be in the API's words
      throw new IllegalArgumentException("'" + value + "' is not one of postgres, mysql, redis");
    }
  }
}
