package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Writes of different jobs share transactions, and sharing changes no outcome: each write still proves its own
 * lease, and a write that fails takes no other job's write with it.
 */
class FencedWriterTest {
  private Database db;
  private final JobRepository jobs = new JobRepository();
  private FencedWriter writer;
  private final ExecutorService threads = Executors.newCachedThreadPool();

  /** The store the writes go to; {@link FencedWriterOnPostgresTest} runs every test here on PostgreSQL. */
  javax.sql.DataSource store() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:fenced-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    return h2;
  }

  /** A query for how many of this store's sessions wait on another's lock. */
  String blockedSessions() {
    return "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL";
  }

  @BeforeEach
  void openStore() {
    db = Database.open(store());
    // one lane: the tests below line writes up behind the one commit under way
    writer = new FencedWriter(db, jobs, new JobSignals(), () -> false, 1);
  }

  @AfterEach
  void stopThreads() {
    threads.shutdownNow();
  }

  @Test
  void concurrentWritesOfManyJobsAllLandInOrder() throws Exception {
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      leases.add(new Lease(job(), "engine-a", 0));
    }
    List<Future<?>> running = new ArrayList<>();
    for (Lease lease : leases) {
      running.add(threads.submit(() -> {
        for (int n = 0; n < 25; n++) {
          // through the fence, so that every sixteenth entry moves those held into job_events
          writer.write(lease, new FencedWriter.Write().event(JobEventType.LOG, "s", JobStatus.RUNNING, "write " + n));
        }
        return null;
      }));
    }
    for (Future<?> f : running) {
      f.get(60, TimeUnit.SECONDS);
    }
    for (Lease lease : leases) {
      assertThat(events(lease.jobId)).extracting(JobEvent::message)
          .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 25).mapToObj(n -> "write " + n).toList());
      assertThat(events(lease.jobId)).extracting(JobEvent::seq)
          .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 25).boxed().toList());
      assertThat(eventRows(lease.jobId)).isEqualTo(1);
      assertThat(version(lease.jobId)).isEqualTo(25);
      assertThat(lease.version()).isEqualTo(25);
    }
  }

  @Test
  void twoLanesCarryTwoTransactionsAtOnceAndQueueOnlyBehindBoth() throws Exception {
    FencedWriter lanes = new FencedWriter(db, jobs, new JobSignals(), () -> false, 2);
    Lease first = new Lease(job(), "engine-a", 0);
    Lease second = new Lease(job(), "engine-a", 0);
    Lease third = new Lease(job(), "engine-a", 0);
    CountDownLatch inside = new CountDownLatch(2);
    CountDownLatch release = new CountDownLatch(1);
    FencedWriter.Writes held = c -> {
      inside.countDown();
      await(release);
    };
    CompletableFuture<Void> a = CompletableFuture.runAsync(() -> lanes.write(first,
        FencedWriter.Write.rows(log(first, "first")).after(held)), threads);
    CompletableFuture<Void> b = CompletableFuture.runAsync(() -> lanes.write(second,
        FencedWriter.Write.rows(log(second, "second")).after(held)), threads);
    // both transactions are open at once, each inside its own write
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(lanes.queued()).isZero();
    CompletableFuture<RuntimeException> told = new CompletableFuture<>();
    lanes.writeThen(third, FencedWriter.Write.rows(log(third, "third")), told::complete);
    assertThat(lanes.queued()).isEqualTo(1);
    assertThat(told).isNotDone();
    release.countDown();

    a.get(10, TimeUnit.SECONDS);
    b.get(10, TimeUnit.SECONDS);
    assertThat(told.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(events(first.jobId)).extracting(JobEvent::message).containsExactly("first");
    assertThat(events(second.jobId)).extracting(JobEvent::message).containsExactly("second");
    assertThat(events(third.jobId)).extracting(JobEvent::message).containsExactly("third");
    assertThat(lanes.queued()).isEqualTo(-1);
  }

  /**
   * Many jobs writing at once through two lanes, each alternating writes it waits for with writes it queues, two of
   * them with leases another engine took: every write of a held lease lands once and in order, every write of a
   * taken one fails, and each caller is told its own outcome.
   */
  @Test
  void withTwoLanesEveryWriteLandsInOrderOrFailsAlone() throws Exception {
    FencedWriter lanes = new FencedWriter(db, jobs, new JobSignals(), () -> false, 2);
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      leases.add(new Lease(job(), "engine-a", 0));
    }
    List<Lease> taken = List.of(leases.get(3), leases.get(8));
    for (Lease lease : taken) {
      db.tx(c -> Database.update(c, "UPDATE provisioning_jobs SET version = 99 WHERE id = ?", lease.jobId.value()));
    }
    int writes = 30;
    List<Future<List<RuntimeException>>> running = new ArrayList<>();
    for (Lease lease : leases) {
      running.add(threads.submit(() -> {
        List<RuntimeException> outcomes = new ArrayList<>();
        for (int n = 0; n < writes; n++) {
          FencedWriter.Write write = FencedWriter.Write.rows(log(lease, "write " + n));
          if (n % 2 == 0) {
            try {
              lanes.write(lease, write);
              outcomes.add(null);
            } catch (LeaseLostException e) {
              outcomes.add(e);
            }
          } else {
            CompletableFuture<RuntimeException> told = new CompletableFuture<>();
            try {
              lanes.writeThen(lease, write, told::complete);
              outcomes.add(told.get(30, TimeUnit.SECONDS));
            } catch (LeaseLostException e) {
              outcomes.add(e);
            }
          }
        }
        return outcomes;
      }));
    }
    for (int i = 0; i < leases.size(); i++) {
      List<RuntimeException> outcomes = running.get(i).get(60, TimeUnit.SECONDS);
      Lease lease = leases.get(i);
      if (taken.contains(lease)) {
        assertThat(outcomes).hasSize(writes).allSatisfy(e -> assertThat(e).isInstanceOf(LeaseLostException.class));
        assertThat(events(lease.jobId)).isEmpty();
        assertThat(version(lease.jobId)).isEqualTo(99);
      } else {
        assertThat(outcomes).hasSize(writes).containsOnlyNulls();
        assertThat(events(lease.jobId)).extracting(JobEvent::message)
            .containsExactlyElementsOf(java.util.stream.IntStream.range(0, writes).mapToObj(n -> "write " + n).toList());
        assertThat(version(lease.jobId)).isEqualTo(writes);
        assertThat(lease.version()).isEqualTo(writes);
      }
    }
    assertThat(lanes.queued()).isEqualTo(-1);
  }

  @Test
  void aLostLeaseInASharedTransactionFailsOnlyItsOwnWrite() throws Exception {
    Lease first = new Lease(job(), "engine-a", 0);
    Lease second = new Lease(job(), "engine-a", 0);
    Lease stolen = new Lease(job(), "engine-a", 0);
    db.tx(c -> Database.update(c, "UPDATE provisioning_jobs SET version = 7 WHERE id = ?", stolen.jobId.value()));

    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> leader = write(first, FencedWriter.Write.rows(log(first, "first"))
        .after(c -> await(release)));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 0);
    CompletableFuture<Void> ok = write(second, FencedWriter.Write.rows(log(second, "second")));
    CompletableFuture<Void> lost = write(stolen, FencedWriter.Write.rows(log(stolen, "stolen")));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 2);
    release.countDown();

    leader.get(10, TimeUnit.SECONDS);
    ok.get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> lost.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(LeaseLostException.class);
    assertThat(events(second.jobId)).extracting(JobEvent::message).containsExactly("second");
    assertThat(events(stolen.jobId)).isEmpty();
    assertThat(version(stolen.jobId)).isEqualTo(7);
  }

  @Test
  void aFailingWriteInASharedTransactionFailsAloneAndWritesNothing() throws Exception {
    Lease first = new Lease(job(), "engine-a", 0);
    Lease healthy = new Lease(job(), "engine-a", 0);
    Lease failing = new Lease(job(), "engine-a", 0);
    Lease other = new Lease(job(), "engine-a", 0);

    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> leader = write(first, FencedWriter.Write.rows(log(first, "first"))
        .after(c -> await(release)));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 0);
    CompletableFuture<Void> a = write(healthy, FencedWriter.Write.rows(log(healthy, "healthy")));
    CompletableFuture<Void> b = write(failing, FencedWriter.Write.rows(log(failing, "failing")).after(c -> {
      throw new ConflictException("concurrent_change", "changed meanwhile");
    }));
    CompletableFuture<Void> d = write(other, FencedWriter.Write.rows(log(other, "other")));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 3);
    release.countDown();

    leader.get(10, TimeUnit.SECONDS);
    a.get(10, TimeUnit.SECONDS);
    d.get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> b.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ConflictException.class);
    assertThat(events(healthy.jobId)).extracting(JobEvent::message).containsExactly("healthy");
    assertThat(events(other.jobId)).extracting(JobEvent::message).containsExactly("other");
    assertThat(events(failing.jobId)).isEmpty();
    assertThat(version(failing.jobId)).isZero();
    assertThat(failing.version()).isZero();
  }

  @Test
  void aMoveWhoseJobChangedInASharedTransactionFailsOnlyItsOwnWrite() throws Exception {
    StatusTransitions transitions = new StatusTransitions(jobs, db.dialect());
    Lease first = new Lease(job(), "engine-a", 0);
    Lease finishing = new Lease(job(), "engine-a", 0);
    Lease changed = new Lease(job(), "engine-a", 0);
    // the job is no longer running, though its version (and so the fence) is unchanged
    db.tx(c -> Database.update(c, "UPDATE provisioning_jobs SET status = 'cancelled' WHERE id = ?",
        changed.jobId.value()));

    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> leader = write(first, FencedWriter.Write.rows(log(first, "first"))
        .after(c -> await(release)));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 0);
    CompletableFuture<Void> ok = write(finishing, transitions.move(FencedWriter.Write.rows(log(finishing, "last")),
        finishing.jobId, StatusTransitions.Move.finish(JobStatus.RUNNING, JobStatus.SUCCEEDED, null, "done")));
    CompletableFuture<Void> refused = write(changed, transitions.move(FencedWriter.Write.rows(log(changed, "last")),
        changed.jobId, StatusTransitions.Move.finish(JobStatus.RUNNING, JobStatus.SUCCEEDED, null, "done")));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 2);
    release.countDown();

    leader.get(10, TimeUnit.SECONDS);
    ok.get(10, TimeUnit.SECONDS);
    assertThatThrownBy(() -> refused.get(10, TimeUnit.SECONDS)).cause()
        .isInstanceOfSatisfying(ConflictException.class, e -> {
          assertThat(e.code()).isEqualTo("concurrent_change");
          assertThat(e.getMessage()).contains("cancelled");
        });
    assertThat(status(finishing.jobId)).isEqualTo(JobStatus.SUCCEEDED);
    // the move's entry rides in the fence, so it comes before the row write's
    assertThat(events(finishing.jobId)).extracting(JobEvent::type, JobEvent::message)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(JobEventType.STATUS, "done"),
            org.assertj.core.groups.Tuple.tuple(JobEventType.LOG, "last"));
    assertThat(status(changed.jobId)).isEqualTo(JobStatus.CANCELLED);
    assertThat(events(changed.jobId)).isEmpty();
    assertThat(version(changed.jobId)).isZero();
    assertThat(changed.version()).isZero();
  }

  @Test
  void aMoveWhoseJobChangedFailsAWriteOfItsOwnAndKeepsNothingOfIt() {
    StatusTransitions transitions = new StatusTransitions(jobs, db.dialect());
    Lease lease = new Lease(job(), "engine-a", 0);
    db.tx(c -> Database.update(c, "UPDATE provisioning_jobs SET status = 'failed' WHERE id = ?",
        lease.jobId.value()));

    assertThatThrownBy(() -> writer.write(lease, transitions.move(FencedWriter.Write.rows(log(lease, "last")),
        lease.jobId, StatusTransitions.Move.finish(JobStatus.RUNNING, JobStatus.SUCCEEDED, null, "done"))))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("concurrent_change"));
    assertThat(status(lease.jobId)).isEqualTo(JobStatus.FAILED);
    assertThat(events(lease.jobId)).isEmpty();
    assertThat(version(lease.jobId)).isZero();
  }

  @Test
  void aMoveRidesInTheFenceAndTheWritesHistoryEntriesAreHeldOnTheJobsRowInOrder() {
    StatusTransitions transitions = new StatusTransitions(jobs, db.dialect());
    Lease lease = new Lease(job(), "engine-a", 0);

    writer.write(lease, transitions.move(new FencedWriter.Write(), lease.jobId,
            StatusTransitions.Move.finish(JobStatus.RUNNING, JobStatus.SUCCEEDED, null, "done"))
        .event(JobEventType.STEP_SUCCEEDED, "s", JobStatus.SUCCEEDED, null)
        .event(JobEventType.LOG, "s", JobStatus.SUCCEEDED, "after"));

    assertThat(status(lease.jobId)).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(version(lease.jobId)).isEqualTo(1);
    assertThat(events(lease.jobId)).extracting(JobEvent::type, JobEvent::message).containsExactly(
        org.assertj.core.groups.Tuple.tuple(JobEventType.STATUS, "done"),
        org.assertj.core.groups.Tuple.tuple(JobEventType.STEP_SUCCEEDED, null),
        org.assertj.core.groups.Tuple.tuple(JobEventType.LOG, "after"));
    assertThat(eventRows(lease.jobId)).isZero(); // held on the job's row
  }

  @Test
  void twoMovesOfOneWriteAreBothMadeInOrder() {
    StatusTransitions transitions = new StatusTransitions(jobs, db.dialect());
    Lease lease = new Lease(job(), "engine-a", 0);
    FencedWriter.Write write = transitions.move(new FencedWriter.Write(), lease.jobId,
        StatusTransitions.Move.finish(JobStatus.RUNNING, JobStatus.FAILED, null, "failed"));
    transitions.move(write, lease.jobId,
        StatusTransitions.Move.requeue(JobStatus.FAILED, JobStatus.DELETING, JobPhase.TEARDOWN, JobEventType.STATUS,
            null, "tearing down"));

    writer.write(lease, write);

    assertThat(status(lease.jobId)).isEqualTo(JobStatus.DELETING);
    assertThat(events(lease.jobId)).extracting(JobEvent::message).containsExactly("failed", "tearing down");
    assertThat(version(lease.jobId)).isEqualTo(1);
  }

  @Test
  void aWriteOfItsOwnWhoseWorkFailsFailsWithThatAndKeepsNothing() {
    Lease lease = new Lease(job(), "engine-a", 0);

    assertThatThrownBy(() -> writer.write(lease, FencedWriter.Write.rows(log(lease, "before")).after(c -> {
      throw new ConflictException("concurrent_change", "changed meanwhile");
    }))).isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("concurrent_change"));
    assertThat(events(lease.jobId)).isEmpty();
    assertThat(version(lease.jobId)).isZero();
    assertThat(lease.version()).isZero();

    writer.write(lease, FencedWriter.Write.rows(log(lease, "after")));
    assertThat(events(lease.jobId)).extracting(JobEvent::message).containsExactly("after");
    assertThat(version(lease.jobId)).isEqualTo(1);
    assertThat(lease.version()).isEqualTo(1);
  }

  @Test
  void aTakeoverWaitsForAFencedWriteUnderWayAndThenEndsTheLease() throws Exception {
    Lease lease = new Lease(job(), "engine-a", 0);
    CountDownLatch release = new CountDownLatch(1);
    CompletableFuture<Void> writing = write(lease, FencedWriter.Write.rows(log(lease, "mine"))
        .after(c -> await(release)));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 0);
    // what another engine's claim or an API command does to the row
    CompletableFuture<Integer> takeover = CompletableFuture.supplyAsync(() -> db.tx(c -> Database.update(c,
        "UPDATE provisioning_jobs SET version = version + 1 WHERE id = ?", lease.jobId.value())), threads);
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> db.read(c -> Database.queryOne(c,
        blockedSessions(), rs -> rs.getInt(1))) == 1);
    assertThat(takeover).isNotDone();
    release.countDown();

    writing.get(10, TimeUnit.SECONDS);
    assertThat(takeover.get(10, TimeUnit.SECONDS)).isEqualTo(1);
    assertThat(events(lease.jobId)).extracting(JobEvent::message).containsExactly("mine");
    assertThatThrownBy(() -> writer.write(lease, FencedWriter.Write.rows(log(lease, "late"))))
        .isInstanceOf(LeaseLostException.class);
    assertThat(events(lease.jobId)).extracting(JobEvent::message).containsExactly("mine");
  }

  @Test
  void aQueuedWriteFreesItsCallerAndIsToldOnceDurable() throws Exception {
    Lease queued = new Lease(job(), "engine-a", 0);
    HeldCommit held = new HeldCommit();

    CompletableFuture<RuntimeException> told = new CompletableFuture<>();
    List<Long> versionWhenTold = new ArrayList<>();
    writer.writeThen(queued, FencedWriter.Write.rows(log(queued, "queued")), failure -> {
      versionWhenTold.add(queued.version());
      told.complete(failure);
    });
    // returned with the commit under way still holding the write
    assertThat(writer.queued()).isEqualTo(1);
    assertThat(told).isNotDone();
    assertThat(events(queued.jobId)).isEmpty();
    held.release();
    assertThat(told.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(versionWhenTold).containsExactly(1L);
    assertThat(events(queued.jobId)).extracting(JobEvent::message).containsExactly("queued");
    assertThat(version(queued.jobId)).isEqualTo(1);
  }

  @Test
  void whileAWriteIsQueuedTheLeaseVersionHoldsStill() throws Exception {
    Lease queued = new Lease(job(), "engine-a", 0);
    HeldCommit held = new HeldCommit();
    CompletableFuture<RuntimeException> told = new CompletableFuture<>();
    writer.writeThen(queued, FencedWriter.Write.rows(log(queued, "queued")), told::complete);

    // a heartbeat, or the job's next write, must not move the version the queued fence checks
    CompletableFuture<Boolean> heartbeat = CompletableFuture.supplyAsync(() -> {
      synchronized (queued) {
        queued.awaitWrites();
        boolean extended = db.tx(c -> jobs.extendLease(c, queued, 60_000, db.dialect()));
        if (extended) {
          queued.advanced();
        }
        return extended;
      }
    }, threads);
    CompletableFuture<Void> next = write(queued, FencedWriter.Write.rows(log(queued, "next")));
    Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> threadsWaitingOn(queued) == 2);
    assertThat(heartbeat).isNotDone();
    assertThat(next).isNotDone();
    held.release();
    assertThat(told.get(10, TimeUnit.SECONDS)).isNull();
    assertThat(heartbeat.get(10, TimeUnit.SECONDS)).isTrue();
    next.get(10, TimeUnit.SECONDS);
    assertThat(events(queued.jobId)).extracting(JobEvent::message).containsExactly("queued", "next");
    assertThat(version(queued.jobId)).isEqualTo(3);
  }

  @Test
  void aQueuedWriteOfALostLeaseIsToldWhyAndWritesNothing() throws Exception {
    Lease stolen = new Lease(job(), "engine-a", 0);
    db.tx(c -> Database.update(c, "UPDATE provisioning_jobs SET version = 7 WHERE id = ?", stolen.jobId.value()));
    HeldCommit held = new HeldCommit();
    CompletableFuture<RuntimeException> told = new CompletableFuture<>();
    writer.writeThen(stolen, FencedWriter.Write.rows(log(stolen, "stolen")), told::complete);
    held.release();
    assertThat(told.get(10, TimeUnit.SECONDS)).isInstanceOf(LeaseLostException.class);
    assertThat(events(stolen.jobId)).isEmpty();
    assertThat(stolen.version()).isZero();

    stolen.markReleased();
    assertThatThrownBy(() -> writer.writeThen(stolen, FencedWriter.Write.rows(log(stolen, "late")), told::complete))
        .isInstanceOf(LeaseLostException.class);
  }

  @Test
  void queuedWritesWhoseCallersWentOnAreCommittedByTheLastLeader() throws Exception {
    List<Lease> leases = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      leases.add(new Lease(job(), "engine-a", 0));
    }
    HeldCommit held = new HeldCommit();
    List<CompletableFuture<RuntimeException>> told = new ArrayList<>();
    for (Lease lease : leases) {
      CompletableFuture<RuntimeException> settled = new CompletableFuture<>();
      told.add(settled);
      writer.writeThen(lease, FencedWriter.Write.rows(log(lease, "queued")), settled::complete);
    }
    held.release();
    for (CompletableFuture<RuntimeException> settled : told) {
      assertThat(settled.get(10, TimeUnit.SECONDS)).isNull();
    }
    for (Lease lease : leases) {
      assertThat(events(lease.jobId)).extracting(JobEvent::message).containsExactly("queued");
    }
    assertThat(writer.queued()).isEqualTo(-1);
  }

  /** A commit under way, held open until released: writes queue up behind it meanwhile. */
  private final class HeldCommit {
    private final CountDownLatch latch = new CountDownLatch(1);
    private final CompletableFuture<Void> leader;

    HeldCommit() {
      Lease first = new Lease(job(), "engine-a", 0);
      leader = write(first, FencedWriter.Write.rows(log(first, "first")).after(c -> await(latch)));
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> writer.queued() == 0);
    }

    /** Lets the held commit finish, and waits for it and for whatever its leader committed after it. */
    void release() throws Exception {
      latch.countDown();
      leader.get(10, TimeUnit.SECONDS);
    }
  }

  /** Threads blocked or waiting on the lease's monitor. */
  private static long threadsWaitingOn(Lease lease) {
    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
    return java.util.Arrays.stream(mx.dumpAllThreads(true, false))
        .filter(t -> t.getLockInfo() != null
            && t.getLockInfo().getIdentityHashCode() == System.identityHashCode(lease))
        .count();
  }

  private CompletableFuture<Void> write(Lease lease, FencedWriter.Write write) {
    return CompletableFuture.runAsync(() -> writer.write(lease, write), threads);
  }

  private Database.RowWrite log(Lease lease, String message) {
    return jobs.appended(lease.jobId, List.of(new NewEvent(JobEventType.LOG, "s", JobStatus.RUNNING,
        message)));
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(10, TimeUnit.SECONDS)) {
        throw new IllegalStateException("not released");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private JobId job() {
    return TestJobRows.insert(db, jobs, JobStatus.RUNNING);
  }

  private List<JobEvent> events(JobId id) {
    return db.read(c -> JobHistoryRows.events(c, id, 0, 100));
  }

  private long eventRows(JobId id) {
    return db.read(c -> Database.queryOne(c, "SELECT COUNT(*) FROM job_events WHERE job_id = ?", rs -> rs.getLong(1),
        id.value()));
  }

  private JobStatus status(JobId id) {
    return db.read(c -> jobs.findAnyOrg(c, id)).status();
  }

  private long version(JobId id) {
    return db.read(c -> jobs.findAnyOrg(c, id)).version();
  }
}
