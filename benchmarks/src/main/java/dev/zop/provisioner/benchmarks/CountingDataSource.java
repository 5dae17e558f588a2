package dev.zop.provisioner.benchmarks;

import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A data source that counts the statements sent through it, by their SQL: every execute of a statement counts
 * one, a batch counts the statements it holds, and a commit or rollback is counted apart. PostgreSQL here has no
 * {@code pg_stat_statements} loaded (it needs a restart with the library preloaded), so the engine's statements are
 * counted where it sends them. The proxies cost a map lookup a call, the same for every engine measured.
 */
final class CountingDataSource implements DataSource {
  private final DataSource target;
  private final Map<String, LongAdder> bySql = new ConcurrentHashMap<>();
  /**
   * The same counters by the text each statement was sent with, so that counting a statement is one map lookup
   * rather than the regular expression that makes its key (which would weigh on the measured side's CPU).
   */
  private final Map<String, LongAdder> bySent = new ConcurrentHashMap<>();
  private final LongAdder commits = new LongAdder();

  CountingDataSource(DataSource target) {
    this.target = target;
  }

  /** Statements counted so far, by their SQL's first line cut to 100 characters, most first. */
  Map<String, Long> statements() {
    Map<String, Long> sorted = new LinkedHashMap<>();
    bySql.entrySet().stream()
        .sorted(Comparator.comparingLong((Map.Entry<String, LongAdder> e) -> e.getValue().sum()).reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue().sum()));
    return sorted;
  }

  long total() {
    return bySql.values().stream().mapToLong(LongAdder::sum).sum();
  }

  long commits() {
    return commits.sum();
  }

  void reset() {
    bySql.clear();
    bySent.clear();
    commits.reset();
  }

  private void count(String sql, long n) {
    bySent.computeIfAbsent(sql == null ? "?" : sql, this::counter).add(n);
  }

  /** The counter of a statement's text as sent: its SQL's whitespace made single spaces, cut to 100 characters. */
  private LongAdder counter(String sql) {
    String key = sql.strip().replaceAll("\\s+", " ");
    return bySql.computeIfAbsent(key.length() > 100 ? key.substring(0, 100) : key, k -> new LongAdder());
  }

  @Override
  public Connection getConnection() throws SQLException {
    return connection(target.getConnection());
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return connection(target.getConnection(username, password));
  }

  private Connection connection(Connection real) {
    InvocationHandler handler = (proxy, method, args) -> {
      String name = method.getName();
      if (name.equals("commit") || name.equals("rollback") && (args == null || args.length == 0)) {
        commits.increment();
      }
      Object result = invoke(real, method, args);
      if (result instanceof PreparedStatement ps && name.startsWith("prepare")) {
        return statement(ps, PreparedStatement.class, (String) args[0]);
      }
      if (result instanceof Statement s && name.equals("createStatement")) {
        return statement(s, Statement.class, null);
      }
      return result;
    };
    return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
        handler);
  }

  private <T extends Statement> T statement(T real, Class<T> type, String prepared) {
    long[] batched = {0};
    InvocationHandler handler = (proxy, method, args) -> {
      String name = method.getName();
      switch (name) {
        case "addBatch" -> batched[0]++;
        case "executeBatch", "executeLargeBatch" -> {
          count(prepared, batched[0]);
          batched[0] = 0;
        }
        case "execute", "executeQuery", "executeUpdate", "executeLargeUpdate" ->
            count(args != null && args.length > 0 && args[0] instanceof String sql ? sql : prepared, 1);
        default -> { }
      }
      return invoke(real, method, args);
    };
    return type.cast(Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type}, handler));
  }

  private static Object invoke(Object target, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return target.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    target.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    target.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return target.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return target.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> iface) throws SQLException {
    return iface.isInstance(this) ? iface.cast(this) : target.unwrap(iface);
  }

  @Override
  public boolean isWrapperFor(Class<?> iface) throws SQLException {
    return iface.isInstance(this) || target.isWrapperFor(iface);
  }
}
