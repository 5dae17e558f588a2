package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.Database;
import java.util.List;
import java.util.UUID;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one door for status changes refuses what the table forbids and what changed underneath, writing nothing. */
class StatusTransitionsTest {
  private Database db;
  private final JobRepository jobs = new JobRepository();
  private StatusTransitions transitions;

  @BeforeEach
  void openStore() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:transitions-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    db = Database.open(h2);
    transitions = new StatusTransitions(jobs, db.dialect());
  }

  private JobId job(JobStatus status) {
    return TestJobRows.insert(db, jobs, status);
  }

  private JobStatus status(JobId id) {
    return db.read(c -> jobs.findAnyOrg(c, id)).status();
  }

  private List<JobEvent> events(JobId id) {
    return db.read(c -> JobHistoryRows.events(c, id, 0, 100));
  }

  @Test
  void aLegalMoveWritesTheStatusAndItsEvent() {
    JobId id = job(JobStatus.RUNNING);
    Failure failure = Failure.system("boom", "it broke");
    db.tx(c -> {
      transitions.move(c, id, StatusTransitions.Move.finish(JobStatus.RUNNING, JobStatus.FAILED, failure, "it broke"));
      return null;
    });
    assertThat(status(id)).isEqualTo(JobStatus.FAILED);
    assertThat(db.read(c -> jobs.findAnyOrg(c, id)).failure().code()).isEqualTo("boom");
    assertThat(events(id)).singleElement().satisfies(e -> {
      assertThat(e.type()).isEqualTo(JobEventType.STATUS);
      assertThat(e.status()).isEqualTo(JobStatus.FAILED);
    });
  }

  @Test
  void aMoveTheTableForbidsIsRefusedAndWritesNothing() {
    JobId id = job(JobStatus.DELETED);
    assertThatThrownBy(() -> db.tx(c -> {
      transitions.move(c, id, StatusTransitions.Move.requeue(JobStatus.DELETED, JobStatus.PENDING, null,
          JobEventType.RETRIED, null, "retry"));
      return null;
    })).isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("illegal_transition"));
    assertThat(status(id)).isEqualTo(JobStatus.DELETED);
    assertThat(events(id)).isEmpty();
  }

  @Test
  void everyForbiddenPairIsRefused() {
    for (JobStatus from : JobStatus.values()) {
      for (JobStatus to : JobStatus.values()) {
        if (from.canTransitionTo(to)) {
          continue;
        }
        JobId id = job(from);
        assertThatThrownBy(() -> db.tx(c -> {
          transitions.move(c, id, StatusTransitions.Move.start(from, to, "x"));
          return null;
        })).as(from + " -> " + to).isInstanceOf(ConflictException.class);
        assertThat(status(id)).isEqualTo(from);
      }
    }
  }

  @Test
  void aJobThatChangedUnderneathIsRefusedAndWritesNothing() {
    JobId id = job(JobStatus.RUNNING);
    // the caller read `pending`, but another writer moved the job on meanwhile
    assertThatThrownBy(() -> db.tx(c -> {
      transitions.move(c, id, StatusTransitions.Move.start(JobStatus.PENDING, JobStatus.RUNNING, "started"));
      return null;
    })).isInstanceOfSatisfying(ConflictException.class, e -> {
      assertThat(e.code()).isEqualTo("concurrent_change");
      assertThat(e.getMessage()).contains("running");
    });
    assertThat(events(id)).isEmpty();
  }
}
