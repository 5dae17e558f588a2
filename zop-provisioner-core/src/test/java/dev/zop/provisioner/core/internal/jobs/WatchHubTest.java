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
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The watch hub serves every watcher from the event log's tail, and an event whose number was given before another
 * job's but whose transaction commits after the tail passed it still reaches its watchers, once.
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

  private void append(JobId job, String message) {
    db.tx(c -> {
      jobs.appendEvent(c, job, JobEventType.LOG, null, JobStatus.RUNNING, message);
      return null;
    });
  }

  private static List<String> messages(List<JobEvent> events) {
    return events.stream().map(JobEvent::message).toList();
  }

  @Test
  void aWatcherGetsWhatWasRecordedBeforeAndWhatComesAfterInOrderOnce() {
    JobId a = JobId.random();
    JobId b = JobId.random();
    append(a, "a1");
    List<JobEvent> ofA = new CopyOnWriteArrayList<>();
    List<JobEvent> ofB = new CopyOnWriteArrayList<>();
    hub.watch(a, ofA::add);
    hub.watch(b, ofB::add);
    append(b, "b1");
    append(a, "a2");
    signals.changed();
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
      assertThat(messages(ofA)).containsExactly("a1", "a2");
      assertThat(messages(ofB)).containsExactly("b1");
    });
  }

  @Test
  void anEventNumberedBeforeOneTheTailPassedArrivesWhenItsTransactionCommits() throws Exception {
    JobId early = JobId.random();
    JobId late = JobId.random();
    List<JobEvent> ofEarly = new CopyOnWriteArrayList<>();
    List<JobEvent> ofLate = new CopyOnWriteArrayList<>();
    hub.watch(early, ofEarly::add);
    hub.watch(late, ofLate::add);
    append(late, "warm-up"); // the hub has made a round and follows the tail
    await().atMost(Duration.ofSeconds(10)).until(() -> ofLate.size() == 1);

    try (Connection open = db.dataSource().getConnection()) {
      open.setAutoCommit(false);
      // numbered now, committed only after another job's later event has been delivered
      jobs.appendEvent(open, early, JobEventType.LOG, null, JobStatus.RUNNING, "committed late");
      append(late, "committed first");
      signals.changed();
      await().atMost(Duration.ofSeconds(10)).until(() -> ofLate.size() == 2);
      assertThat(ofEarly).isEmpty();
      open.commit();
    }
    signals.changed();
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
        assertThat(messages(ofEarly)).containsExactly("committed late"));
    assertThat(ofEarly.get(0).seq()).isLessThan(ofLate.get(1).seq());
    // later rounds do not hand it over again
    append(late, "after");
    signals.changed();
    await().atMost(Duration.ofSeconds(10)).until(() -> ofLate.size() == 3);
    assertThat(messages(ofEarly)).containsExactly("committed late");
  }

  private void appendPair(JobId job, String first, String then) {
    db.tx(c -> {
      for (Database.RowWrite row : jobs.events(job, List.of(
          new JobRepository.NewEvent(JobEventType.STEP_SUCCEEDED, "one", JobStatus.RUNNING, first),
          new JobRepository.NewEvent(JobEventType.STEP_STARTED, "two", JobStatus.RUNNING, then)))) {
        Database.execute(c, row);
      }
      return null;
    });
  }

  @Test
  void bothEventsOfARowReachAWatcherInOrderAndAResumeAfterTheFirstGetsTheSecond() {
    JobId job = JobId.random();
    append(job, "before");
    appendPair(job, "one done", "two started");
    List<JobEvent> recorded = db.read(c -> jobs.events(c, job, 0, 100));
    assertThat(messages(recorded)).containsExactly("before", "one done", "two started");
    Long rows = db.read(c -> Database.queryOne(c, "SELECT COUNT(*) FROM job_events WHERE job_id = ?",
        rs -> rs.getLong(1), job.value()));
    assertThat(rows).isEqualTo(2);
    // the pair's numbers follow each other, after the single event's
    assertThat(recorded.get(2).seq()).isEqualTo(recorded.get(1).seq() + 1);
    assertThat(recorded.get(1).seq()).isGreaterThan(recorded.get(0).seq());
    assertThat(recorded.get(2)).extracting(JobEvent::type, JobEvent::stepName, JobEvent::status)
        .containsExactly(JobEventType.STEP_STARTED, "two", JobStatus.RUNNING);
    assertThat(messages(db.read(c -> jobs.events(c, job, recorded.get(1).seq(), 100))))
        .containsExactly("two started");
    assertThat(messages(db.read(c -> jobs.events(c, job, recorded.get(0).seq(), 100))))
        .containsExactly("one done", "two started");
    List<JobEvent> afterLast = db.read(c -> jobs.events(c, job, recorded.get(2).seq(), 100));
    assertThat(afterLast).isEmpty();

    List<JobEvent> watched = new CopyOnWriteArrayList<>();
    hub.watch(job, watched::add);
    appendPair(job, "two done", "three started");
    signals.changed();
    await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(messages(watched))
        .containsExactly("before", "one done", "two started", "two done", "three started"));
    assertThat(watched).extracting(JobEvent::seq).isSorted().doesNotHaveDuplicates();
  }
}
