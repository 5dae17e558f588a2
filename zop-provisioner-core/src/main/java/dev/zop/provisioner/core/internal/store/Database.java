package dev.zop.provisioner.core.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/** The engine's database: a data source, its dialect, transactions and plain JDBC helpers. */
public final class Database {

  /** Work done on one connection. */
  @FunctionalInterface
  public interface Work<T> {
    T run(Connection connection) throws SQLException;
  }

  /** Maps the current row of a result set. */
  @FunctionalInterface
  public interface RowMapper<T> {
    T map(ResultSet rs) throws SQLException;
  }

  /**
   * A row write whose row count nobody checks, kept as data so that the same statement of several transactions'
   * writers can go to the database as one JDBC batch (one round trip on PostgreSQL).
   */
  public record RowWrite(String sql, Object... args) {}

  /**
   * A null bound with its column's type: the rows of one batch then keep one parameter type (pgjdbc plans a batch's
   * statement again when a parameter's type changes from one row to the next).
   */
  public record TypedNull(int sqlType) {}

  public static final TypedNull NULL_TEXT = new TypedNull(Types.VARCHAR);
  public static final TypedNull NULL_TIMESTAMP = new TypedNull(Types.TIMESTAMP_WITH_TIMEZONE);

  private final DataSource dataSource;
  private final Dialect dialect;

  private Database(DataSource dataSource, Dialect dialect) {
    this.dataSource = dataSource;
    this.dialect = dialect;
  }

  /** Opens the database behind {@code dataSource}, choosing the dialect from its metadata, and migrates it. */
  public static Database open(DataSource dataSource) {
    Dialect dialect;
    try (Connection c = dataSource.getConnection()) {
      String product = c.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
      if (product.contains("postgres")) {
        dialect = new PostgresDialect();
      } else if (product.contains("h2")) {
        dialect = new H2Dialect();
      } else {
        throw new IllegalArgumentException("unsupported database: " + product + " (use H2 or PostgreSQL)");
      }
    } catch (SQLException e) {
      throw new StoreException("cannot connect to the engine database", e);
    }
    EngineMigrations.migrate(dataSource);
    return new Database(dataSource, dialect);
  }

  public DataSource dataSource() {
    return dataSource;
  }

  public Dialect dialect() {
    return dialect;
  }

  /** Runs {@code work} in one transaction: committed when it returns, rolled back when it throws. */
  public <T> T tx(Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(false);
      try {
        T result = work.run(c);
        c.commit();
        return result;
      } catch (SQLException | RuntimeException | Error e) {
        try {
          c.rollback();
        } catch (SQLException rollback) {
          // a connection that broke fails its rollback too: the first failure is the one that says why
          e.addSuppressed(rollback);
        }
        throw e;
      }
    } catch (SQLException e) {
      throw new StoreException(e.getMessage(), e);
    }
  }

  /** Runs {@code work} outside a transaction (each statement commits on its own). */
  public <T> T read(Work<T> work) {
    try (Connection c = dataSource.getConnection()) {
      c.setAutoCommit(true);
      return work.run(c);
    } catch (SQLException e) {
      throw new StoreException(e.getMessage(), e);
    }
  }

  /**
   * A comma-separated column list qualified by a table alias, each column labelled {@code labelPrefix + column}, for
   * joins whose rows a table's own mapper reads by label.
   */
  public static String qualified(String columns, String alias, String labelPrefix) {
    return java.util.Arrays.stream(columns.split(", "))
        .map(column -> alias + "." + column + " AS " + labelPrefix + column)
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** {@code count} bind markers, comma-separated, for {@code IN (...)} and the like. */
  public static String marks(int count) {
    return String.join(", ", java.util.Collections.nCopies(count, "?"));
  }

  public static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      return ps.executeUpdate();
    }
  }

  public static int execute(Connection c, RowWrite statement) throws SQLException {
    return update(c, statement.sql(), statement.args());
  }

  /**
   * Runs the statements as one batch per distinct SQL text, in the order each text first appears; statements with
   * the same text keep their order. Returns each statement's row count, in the order given.
   */
  public static int[] executeBatched(Connection c, List<RowWrite> statements) throws SQLException {
    java.util.Map<String, List<Integer>> bySql = new java.util.LinkedHashMap<>();
    for (int i = 0; i < statements.size(); i++) {
      bySql.computeIfAbsent(statements.get(i).sql(), k -> new ArrayList<>()).add(i);
    }
    int[] counts = new int[statements.size()];
    for (java.util.Map.Entry<String, List<Integer>> group : bySql.entrySet()) {
      List<Integer> positions = group.getValue();
      if (positions.size() == 1) {
        counts[positions.get(0)] = execute(c, statements.get(positions.get(0)));
        continue;
      }
      try (PreparedStatement ps = c.prepareStatement(group.getKey())) {
        for (int position : positions) {
          bind(ps, statements.get(position).args());
          ps.addBatch();
        }
        int[] batch = ps.executeBatch();
        for (int i = 0; i < batch.length; i++) {
          counts[positions.get(i)] = batch[i];
        }
      }
    }
    return counts;
  }

  public static <T> List<T> query(Connection c, String sql, RowMapper<T> mapper, Object... args)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      bind(ps, args);
      try (ResultSet rs = ps.executeQuery()) {
        List<T> rows = new ArrayList<>();
        while (rs.next()) {
          rows.add(mapper.map(rs));
        }
        return rows;
      }
    }
  }

  public static <T> T queryOne(Connection c, String sql, RowMapper<T> mapper, Object... args)
      throws SQLException {
    List<T> rows = query(c, sql, mapper, args);
    return rows.isEmpty() ? null : rows.get(0);
  }

  public static Instant instant(ResultSet rs, String column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  public static Instant instant(ResultSet rs, int column) throws SQLException {
    OffsetDateTime value = rs.getObject(column, OffsetDateTime.class);
    return value == null ? null : value.toInstant();
  }

  private static void bind(PreparedStatement ps, Object... args) throws SQLException {
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      if (arg == null) {
        ps.setNull(i + 1, Types.NULL); // untyped, so the server infers the column type
      } else if (arg instanceof TypedNull typed) {
        ps.setNull(i + 1, typed.sqlType());
      } else if (arg instanceof Instant instant) {
        ps.setObject(i + 1, instant.atOffset(ZoneOffset.UTC));
      } else if (arg instanceof Timestamp ts) {
        ps.setTimestamp(i + 1, ts);
      } else if (arg instanceof Enum<?> e) {
        ps.setString(i + 1, e.name().toLowerCase(java.util.Locale.ROOT));
      } else {
        ps.setObject(i + 1, arg);
      }
    }
  }
}
