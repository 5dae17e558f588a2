package dev.zop.provisioner.server;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.sql.DataSource;

/** Rows per table of an H2 store, to show that a refused request wrote nothing. */
final class StoreRows {
  private StoreRows() {}

  /**
   * Rows per table but the audit log, which records every mutating call, refused ones included, and Flyway's
   * history.
   */
  static Map<String, Long> count(DataSource store) throws Exception {
    Map<String, Long> counts = new TreeMap<>();
    try (Connection c = store.getConnection(); Statement s = c.createStatement()) {
      List<String> tables = new ArrayList<>();
      try (ResultSet t = s.executeQuery("SELECT table_name FROM information_schema.tables"
          + " WHERE table_schema = 'PUBLIC' AND table_type = 'BASE TABLE'")) {
        while (t.next()) {
          tables.add(t.getString(1));
        }
      }
      for (String table : tables) {
        String upper = table.toUpperCase(Locale.ROOT);
        if (upper.equals("AUDIT_LOG") || upper.startsWith("FLYWAY")) {
          continue;
        }
        try (ResultSet count = s.executeQuery("SELECT COUNT(*) FROM \"" + table + "\"")) {
          count.next();
          counts.put(table, count.getLong(1));
        }
      }
    }
    return counts;
  }
}
