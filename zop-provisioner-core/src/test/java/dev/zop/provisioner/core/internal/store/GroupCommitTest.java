package dev.zop.provisioner.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Callers that write while a commit is under way share the next one, and sharing changes no outcome: a caller whose
 * rows fail learns it alone, and nothing of its rows is kept.
 */
class GroupCommitTest {
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final AtomicInteger commits = new AtomicInteger();
  /** How many of the next connections asked for wait for {@link #release}: their commits are then under way. */
  private final AtomicInteger hold = new AtomicInteger();
  private final CountDownLatch release = new CountDownLatch(1);
  private Database db;
  private GroupCommit group;

  @BeforeEach
  void openStore() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:group-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    db = Database.open(watched(h2));
    db.tx(c -> Database.update(c, "CREATE TABLE notes (id VARCHAR(20) PRIMARY KEY, body VARCHAR(50))"));
    db.tx(c -> Database.update(c, "CREATE TABLE tags (note VARCHAR(20), tag VARCHAR(20))"));
    group = new GroupCommit(db);
  }

  @AfterEach
  void stopThreads() {
    release.countDown();
    threads.shutdownNow();
  }

  @Test
  void callersWritingDuringACommitShareTheNextOne() throws Exception {
    hold.set(1);
    CompletableFuture<Void> leader = write(note("lead"));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> group.queued() == 0);
    List<CompletableFuture<Void>> followers = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      followers.add(write(note("n" + i)));
    }
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> group.queued() == 5);
    int before = commits.get();
    release.countDown();

    leader.get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Void> f : followers) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertThat(commits.get() - before).as("commits: the leader's, then one for all five").isEqualTo(2);
    assertThat(notes()).containsExactlyInAnyOrder("lead", "n0", "n1", "n2", "n3", "n4");
    assertThat(count("SELECT COUNT(*) FROM tags")).isEqualTo(6);
    assertThat(group.queued()).isEqualTo(-1);
  }

  @Test
  void aCallerWhoseRowsFailInASharedCommitFailsAloneAndKeepsNothing() throws Exception {
    db.tx(c -> Database.update(c, "INSERT INTO notes (id, body) VALUES ('taken', 'first')"));
    hold.set(1);
    CompletableFuture<Void> leader = write(note("lead"));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> group.queued() == 0);
    CompletableFuture<Void> before = write(note("a"));
    CompletableFuture<Void> failing = write(note("taken"));
    CompletableFuture<Void> after = write(note("b"));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> group.queued() == 3);
    release.countDown();

    leader.get(10, TimeUnit.SECONDS);
    before.get(10, TimeUnit.SECONDS);
    after.get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> failing.get(10, TimeUnit.SECONDS))
        .hasCauseInstanceOf(StoreException.class)
        .satisfies(e -> assertThat(db.dialect().isUniqueViolation(((StoreException) e.getCause()).sqlCause()))
            .isTrue());
    assertThat(notes()).containsExactlyInAnyOrder("lead", "a", "b", "taken");
    assertThat(count("SELECT COUNT(*) FROM notes WHERE body = 'first'")).isEqualTo(1);
    assertThat(count("SELECT COUNT(*) FROM tags WHERE note = 'taken'")).as("the failed caller's other row").isZero();
    assertThat(count("SELECT COUNT(*) FROM tags")).isEqualTo(3);
  }

  /** A note and its tag: the tag goes first, so a caller whose note fails has written a row that must go too. */
  private static List<RowWrite> note(String id) {
    return List.of(new RowWrite("INSERT INTO tags (note, tag) VALUES (?, ?)", id, "t"),
        new RowWrite("INSERT INTO notes (id, body) VALUES (?, ?)", id, "body of " + id));
  }

  private CompletableFuture<Void> write(List<RowWrite> rows) {
    return CompletableFuture.runAsync(() -> group.write(rows), threads);
  }

  private List<String> notes() {
    return db.read(c -> Database.query(c, "SELECT id FROM notes", rs -> rs.getString(1)));
  }

  private long count(String sql) {
    return db.read(c -> Database.queryOne(c, sql, rs -> rs.getLong(1)));
  }

  /** The store, counting commits, and holding the first connection asked for after {@link #hold} says so. */
  private DataSource watched(JdbcDataSource h2) {
    InvocationHandler source = (proxy, method, args) -> {
      try {
        if (method.getName().equals("getConnection")) {
          if (hold.getAndUpdate(n -> Math.max(0, n - 1)) > 0 && !release.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("never released");
          }
          Connection real = (Connection) method.invoke(h2, args);
          return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
              (p, m, a) -> {
                if (m.getName().equals("commit")) {
                  commits.incrementAndGet();
                }
                try {
                  return m.invoke(real, a);
                } catch (InvocationTargetException e) {
                  throw e.getCause();
                }
              });
        }
        return method.invoke(h2, args);
      } catch (InvocationTargetException e) {
        throw e.getCause();
      }
    };
    return (DataSource) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {DataSource.class},
        source);
  }
}
