package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The watch hub hands each watcher its job's events in order, once: those recorded before the watch, those this
 * engine writes (it is told of them), and those another engine writes (found by the hub's periodic read), whether
 * the job's row still holds them or they have moved into {@code job_events}.
 */
class WatchHubTest {
  private final JobRepository jobs = new JobRepository();
  private final JobSignals signals = new JobSignals();
  private Database db;
  private WatchHub hub;

  /** The store; {@link WatchHubOnPostgresTest} runs every test here on PostgreSQL. */
  DataSource store() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:watch-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    return h2;
  }

  @BeforeEach
  void open() {
    db = Database.open(store());
    hub = new WatchHub(db, jobs, signals, Duration.ofMillis(20));
  }

  @AfterEach
  void close() {
    hub.close();
  }

  private JobId job() {
    return TestJobRows.insert(db, jobs, JobStatus.RUNNING);
  }

  /** An entry written as another engine would: nothing here is told of it. */
  private void appendElsewhere(JobId job, String message) {
    db.tx(c -> {
      jobs.appendEvent(c, job, JobEventType.LOG, null, JobStatus.RUNNING, message);
      return null;
    });
  }

  /** An entry written by this engine, which tells its watchers. */
  private void append(JobId job, String message) {
    appendElsewhere(job, message);
    signals.changed(job);
  }

  private long eventRows(JobId job) {
    return db.read(c -> Database.queryOne(c, "SELECT COUNT(*) FROM job_events WHERE job_id = ?",
        rs -> rs.getLong(1), job.value()));
  }

  private List<JobEvent> events(JobId job, long after, int limit) {
    return db.read(c -> JobHistoryRows.events(c, job, after, limit));
  }

  private static List<String> messages(List<JobEvent> events) {
    return events.stream().map(JobEvent::message).toList();
  }

  @Test
  void aWatcherGetsWhatWasRecordedBeforeAndWhatComesAfterInOrderOnce() {
    JobId a = job();
    JobId b = job();
    append(a, "a1");
    List<JobEvent> ofA = new CopyOnWriteArrayList<>();
    List<JobEvent> ofB = new CopyOnWriteArrayList<>();
    hub.watch(a, ofA::add);
    hub.watch(b, ofB::add);
    append(b, "b1");
    append(a, "a2");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(messages(ofA)).containsExactly("a1", "a2");
      assertThat(messages(ofB)).containsExactly("b1");
    });
    assertThat(ofA).extracting(JobEvent::seq).containsExactly(1L, 2L);
  }

  @Test
  void anEventAnotherEngineWritesArrivesByThePeriodicRead() {
    JobId job = job();
    List<JobEvent> watched = new CopyOnWriteArrayList<>();
    hub.watch(job, watched::add);
    append(job, "here");
    await().atMost(Duration.ofSeconds(10)).until(() -> watched.size() == 1);
    appendElsewhere(job, "elsewhere");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(messages(watched)).containsExactly("here", "elsewhere"));
  }

  @Test
  void entriesHeldOnTheRowAndThoseMovedToTheLogReadAsOneHistoryNumberedOneAfterAnother() {
    JobId job = job();
    for (int n = 1; n <= 40; n++) {
      appendElsewhere(job, "e" + n);
    }
    // sixteen at a time moved into a row of their own; the last eight still held on the job's
    assertThat(eventRows(job)).isEqualTo(2);
    List<JobEvent> recorded = events(job, 0, 100);
    assertThat(recorded).extracting(JobEvent::seq)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, 40).boxed().toList());
    assertThat(recorded.get(39)).extracting(JobEvent::type, JobEvent::stepName, JobEvent::status, JobEvent::message)
        .containsExactly(JobEventType.LOG, null, JobStatus.RUNNING, "e40");
    // a resume after any number gets the rest, across the rows and the job's own
    for (long after : new long[] {0, 15, 16, 17, 31, 32, 33, 39}) {
      assertThat(events(job, after, 100)).extracting(JobEvent::seq)
          .containsExactlyElementsOf(LongStream.rangeClosed(after + 1, 40).boxed().toList());
    }
    assertThat(events(job, 40, 100)).isEmpty();
    assertThat(events(job, 10, 5)).extracting(JobEvent::seq)
        .containsExactly(11L, 12L, 13L, 14L, 15L);

    // a watch that starts now reads both, then follows the job's row as it fills and moves on again
    List<JobEvent> watched = new CopyOnWriteArrayList<>();
    hub.watch(job, watched::add);
    for (int n = 41; n <= 60; n++) {
      append(job, "e" + n);
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> watched.size() == 60);
    assertThat(watched).extracting(JobEvent::seq)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, 60).boxed().toList());
    assertThat(messages(watched).get(59)).isEqualTo("e60");
    assertThat(eventRows(job)).isEqualTo(3);
  }

  @Test
  void anEntryAppendedWhileAnotherTransactionHoldsTheJobsRowWaitsForItAndKeepsItsNumber() throws Exception {
    JobId job = job();
    List<JobEvent> watched = new CopyOnWriteArrayList<>();
    hub.watch(job, watched::add);
    append(job, "first");
    await().atMost(Duration.ofSeconds(10)).until(() -> watched.size() == 1);
    try (Connection open = db.dataSource().getConnection()) {
      open.setAutoCommit(false);
      jobs.appendEvent(open, job, JobEventType.LOG, null, JobStatus.RUNNING, "uncommitted");
      signals.changed(job);
      // nothing uncommitted is handed over
      assertThat(messages(events(job, 0, 100))).containsExactly("first");
      open.commit();
    }
    append(job, "after");
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(messages(watched)).containsExactly("first", "uncommitted", "after"));
    assertThat(watched).extracting(JobEvent::seq).containsExactly(1L, 2L, 3L);
  }
}
