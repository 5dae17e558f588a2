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
    group = new GroupCommit(db, 1);
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

  @Test
  void twoLanesAtOnceEachCarryTheirBatchAndLeaveNoLaneBehind() throws Exception {
    group = new GroupCommit(db, 2);
    hold.set(2);
    CompletableFuture<Void> first = write(note("first"));
    CompletableFuture<Void> second = write(note("second"));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> group.queued() == 0);
    List<CompletableFuture<Void>> followers = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      followers.add(write(note("n" + i)));
    }
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> group.queued() == 6);
    int before = commits.get();
    release.countDown();

    first.get(10, TimeUnit.SECONDS);
    second.get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Void> f : followers) {
      f.get(10, TimeUnit.SECONDS);
    }
    assertThat(notes()).hasSize(8);
    assertThat(commits.get() - before).as("the two leaders', then one for the six queued").isEqualTo(3);
    assertThat(group.queued()).as("every lane handed on was given back").isEqualTo(-1);
    before = commits.get();
    group.write(note("alone"));
    assertThat(commits.get() - before).isEqualTo(1);
  }

  /**
   * Many callers on two lanes, writing notes whose ids mostly collide: a caller told its write succeeded finds its own note
   * stored, and one told it failed was refused for a note another caller stored. A caller must never learn an
   * outcome before its rows are settled, whichever lane carried them.
   */
  @Test
  void everyCallerLearnsTheOutcomeItsRowsHad() throws Exception {
    group = new GroupCommit(db, 2);
    record Outcome(String id, String body, boolean written) {}
    List<CompletableFuture<List<Outcome>>> callers = new ArrayList<>();
    for (int t = 0; t < 16; t++) {
      int caller = t;
      callers.add(CompletableFuture.supplyAsync(() -> {
        List<Outcome> outcomes = new ArrayList<>();
        for (int n = 0; n < 60; n++) {
          // callers at the same step contend for three ids: most writes collide, in shared transactions and alone
          String id = n + "-" + java.util.concurrent.ThreadLocalRandom.current().nextInt(3);
          String body = caller + "-" + n;
          try {
            group.write(List.of(new RowWrite("INSERT INTO tags (note, tag) VALUES (?, ?)", id, body),
                new RowWrite("INSERT INTO notes (id, body) VALUES (?, ?)", id, body)));
            outcomes.add(new Outcome(id, body, true));
          } catch (StoreException e) {
            assertThat(db.dialect().isUniqueViolation(e.sqlCause())).as(e.getMessage()).isTrue();
            outcomes.add(new Outcome(id, body, false));
          }
        }
        return outcomes;
      }, threads));
    }
    List<Outcome> all = new ArrayList<>();
    for (CompletableFuture<List<Outcome>> f : callers) {
      all.addAll(f.get(60, TimeUnit.SECONDS));
    }
    java.util.Map<String, String> stored = new java.util.HashMap<>();
    db.read(c -> Database.query(c, "SELECT id, body FROM notes", rs -> stored.put(rs.getString(1), rs.getString(2))));
    for (Outcome o : all) {
      if (o.written()) {
        assertThat(stored.get(o.id())).as("a write reported done is stored").isEqualTo(o.body());
      } else {
        assertThat(stored.get(o.id())).as("a refused write lost to another").isNotNull().isNotEqualTo(o.body());
      }
    }
    assertThat(all.stream().filter(Outcome::written).count()).isEqualTo(stored.size());
    assertThat(count("SELECT COUNT(*) FROM tags")).as("a refused write kept none of its rows").isEqualTo(stored.size());
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
