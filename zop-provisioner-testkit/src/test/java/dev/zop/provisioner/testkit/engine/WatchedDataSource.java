package dev.zop.provisioner.testkit.engine;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.sql.DataSource;

/**
 * A data source that lets a test see what the engine asks of its database: how many statements of a kind it
 * prepares, and a hold on one thread's next request for a connection, as a slow database call would hold it.
 */
final class WatchedDataSource implements AutoCloseable {
  private final HikariDataSource target;
  private final AtomicReference<String> counted = new AtomicReference<>();
  private final AtomicInteger statements = new AtomicInteger();
  private final AtomicReference<Hold> hold = new AtomicReference<>();

  private WatchedDataSource(HikariDataSource target) {
    this.target = target;
  }

  /** Watches a pool of its own on the engine's default H2 store in {@code dataDirectory}. */
  static WatchedDataSource h2(Path dataDirectory) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl("jdbc:h2:file:" + EmbeddedProvisionerBuilder.h2Database(dataDirectory)
        + ";DB_CLOSE_ON_EXIT=FALSE");
    config.setUsername("sa");
    config.setPassword("");
    return new WatchedDataSource(new HikariDataSource(config));
  }

  /** The store itself, unwatched: for a test's own reads. */
  DataSource unwatched() {
    return target;
  }

  @Override
  public void close() {
    target.close();
  }

  /** From now on, counts the statements prepared whose text starts with {@code prefix}. */
  void countStatements(String prefix) {
    statements.set(0);
    counted.set(prefix);
  }

  int statements() {
    return statements.get();
  }

  /** Holds the next request for a connection made on the thread named {@code threadName}. */
  Hold holdNextConnectionOf(String threadName) {
    Hold next = new Hold(threadName);
    hold.set(next);
    return next;
  }

  /** A held request for a connection: whether it was reached, its release, and whether it was interrupted. */
  static final class Hold {
    final String threadName;
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean interrupted;

    private Hold(String threadName) {
      this.threadName = threadName;
    }

    private void await() {
      reached.countDown();
      try {
        release.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        interrupted = true;
        Thread.currentThread().interrupt();
      }
    }
  }

  /** The watched data source, for the engine. */
  DataSource dataSource() {
    return proxy(DataSource.class, target, (method, args, result) -> {
      return result instanceof Connection c ? proxy(Connection.class, c, this::onConnectionCall) : result;
    }, (method, args) -> {
      Hold held = hold.get();
      if (method.getName().equals("getConnection") && held != null
          && Thread.currentThread().getName().equals(held.threadName) && hold.compareAndSet(held, null)) {
        held.await();
      }
    });
  }

  private Object onConnectionCall(Method method, Object[] args, Object result) {
    String prefix = counted.get();
    if (method.getName().equals("prepareStatement") && prefix != null && ((String) args[0]).startsWith(prefix)) {
      statements.incrementAndGet();
    }
    return result;
  }

  private interface After {
    Object apply(Method method, Object[] args, Object result);
  }

  private interface Before {
    void accept(Method method, Object[] args);
  }

  private static <T> T proxy(Class<T> type, T target, After after) {
    return proxy(type, target, after, (method, args) -> { });
  }

  private static <T> T proxy(Class<T> type, T target, After after, Before before) {
    InvocationHandler handler = (proxy, method, args) -> {
      before.accept(method, args);
      try {
        return after.apply(method, args, method.invoke(target, args));
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler));
  }
}
