package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.core.internal.store.EngineMigrations;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store whose history is rows of one event or two ({@code job_events} up to V11) keeps every event, numbered as
 * before, when {@code V12__Events_held_on_the_job_row} starts holding a job's latest events on its row; the events
 * a job records afterwards are numbered on from its last, one after another. Each store is made by today's engine,
 * then turned back into the V11 layout, rows and all, and opened again.
 */
class EventsOnTheJobRowMigrationTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void anH2StoreKeepsItsHistoryAndNumbersOnFromIt() throws Exception {
    String url = "jdbc:h2:file:" + dir.resolve("zop").toAbsolutePath();
    keepsItsHistory(url, "sa", "", () -> TestEngines.h2(dir, SimCloud.create()));
  }

  @Test
  void aPostgresStoreKeepsItsHistoryAndNumbersOnFromIt() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      keepsItsHistory(db.url(), db.user(), db.password(),
          () -> TestEngines.jdbc(db.url(), db.user(), db.password(), SimCloud.create()));
    }
  }

  private static void keepsItsHistory(String url, String user, String password,
      Supplier<EmbeddedProvisionerBuilder> engine) throws Exception {
    List<JobId> made = new ArrayList<>();
    try (EmbeddedProvisioner zop = engine.get().build()) {
      Space space = EngineBehaviour.newSpace(zop, "events-row");
      for (String name : List.of("first", "second")) {
        Job job = zop.jobs().await(zop.jobs().submit(space.id(), EngineBehaviour.network(name)).id(),
            Duration.ofSeconds(30));
        assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
        made.add(job.id());
      }
    }
    Map<JobId, List<JobEvent>> before = new LinkedHashMap<>();
    try (EmbeddedProvisioner zop = engine.get().runWorkers(false).build()) {
      for (JobId id : made) {
        before.put(id, zop.jobs().events(id, 0));
      }
    }
    Map<JobId, List<Long>> oldNumbers;
    try (Connection c = DriverManager.getConnection(url, user, password)) {
      oldNumbers = asBeforeV12(c);
    }

    try (EmbeddedProvisioner zop = engine.get().build()) {
      for (JobId id : made) {
        List<JobEvent> kept = zop.jobs().events(id, 0);
        // the same events, in order, numbered as a read of the old rows numbered them
        assertThat(kept).extracting(JobEvent::type, JobEvent::stepName, JobEvent::status, JobEvent::message,
                JobEvent::at)
            .containsExactlyElementsOf(before.get(id).stream().map(e -> org.assertj.core.groups.Tuple.tuple(
                e.type(), e.stepName(), e.status(), e.message(), e.at())).toList());
        assertThat(kept).extracting(JobEvent::seq).containsExactlyElementsOf(oldNumbers.get(id));
      }
      JobId first = made.get(0);
      long last = oldNumbers.get(first).get(oldNumbers.get(first).size() - 1);
      long third = oldNumbers.get(first).get(2);
      // what the job records now is numbered on from its last event, one after another
      Job deleted = zop.jobs().await(zop.jobs().delete(first).id(), Duration.ofSeconds(30));
      assertThat(deleted.status()).isEqualTo(JobStatus.DELETED);
      List<JobEvent> after = zop.jobs().events(first, last);
      assertThat(after).isNotEmpty();
      assertThat(after).extracting(JobEvent::seq).containsExactlyElementsOf(
          java.util.stream.LongStream.rangeClosed(last + 1, last + after.size()).boxed().toList());
      // a watcher resuming after an old number gets the old events after it, then the new
      assertThat(zop.jobs().events(first, third)).extracting(JobEvent::seq).first().isEqualTo(
          oldNumbers.get(first).get(3));
      assertThat(zop.jobs().events(first, third)).hasSize(oldNumbers.get(first).size() - 3 + after.size());
    }
  }

  /**
   * Today's store in the layout V11 left: every job's events back in rows of one event each, numbered
   * {@code 2 × seq} when read, and V12's columns gone. Returns each job's event numbers as such a store reads them.
   */
  static Map<JobId, List<Long>> asBeforeV12(Connection c) throws Exception {
    WideColumnsCompressionMigrationTest.asBeforeV13(c);
    Map<String, TreeMap<Long, JsonNode>> byJob = new LinkedHashMap<>();
    try (Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT job_id, last_number, events FROM job_events ORDER BY seq")) {
        while (rs.next()) {
          add(byJob, rs.getString(1), rs.getLong(2), rs.getString(3));
        }
      }
      try (ResultSet rs = s.executeQuery("SELECT id, last_event, held_events FROM provisioning_jobs")) {
        while (rs.next()) {
          add(byJob, rs.getString(1), rs.getLong(2), rs.getString(3));
        }
      }
      s.execute("DELETE FROM job_events");
      for (String column : List.of("held_events", "held_count", "last_event")) {
        s.execute("ALTER TABLE provisioning_jobs DROP COLUMN " + column);
      }
      s.execute("DROP INDEX job_events_job");
      s.execute("ALTER TABLE job_events DROP COLUMN events");
      s.execute("ALTER TABLE job_events DROP COLUMN last_number");
      s.execute("ALTER TABLE job_events ALTER COLUMN event_type SET NOT NULL");
      s.execute("ALTER TABLE job_events ALTER COLUMN status SET NOT NULL");
      s.execute("CREATE INDEX job_events_job ON job_events (job_id, seq)");
    }
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO job_events (job_id, event_type, step_name, status,"
        + " message, created_at) VALUES (?, ?, ?, ?, ?, ?)")) {
      for (Map.Entry<String, TreeMap<Long, JsonNode>> job : byJob.entrySet()) {
        for (JsonNode event : job.getValue().values()) {
          ps.setString(1, job.getKey());
          ps.setString(2, event.get("type").asText());
          ps.setString(3, event.has("step") ? event.get("step").asText() : null);
          ps.setString(4, event.get("status").asText());
          ps.setString(5, event.has("message") ? event.get("message").asText() : null);
          ps.setObject(6, OffsetDateTime.ofInstant(Instant.parse(event.get("at").asText()), ZoneOffset.UTC));
          ps.executeUpdate();
        }
      }
    }
    Map<JobId, List<Long>> numbers = new LinkedHashMap<>();
    try (Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT job_id, seq FROM job_events ORDER BY seq")) {
      while (rs.next()) {
        numbers.computeIfAbsent(JobId.of(rs.getString(1)), id -> new ArrayList<>()).add(rs.getLong(2) * 2);
      }
    }
    try (Statement s = c.createStatement()) {
      s.execute("DELETE FROM \"" + EngineMigrations.HISTORY + "\" WHERE \"version\" = '12'");
    }
    return numbers;
  }

  /** The entries of {@code lines}, the last numbered {@code last}, into the job's, by number. */
  private static void add(Map<String, TreeMap<Long, JsonNode>> byJob, String job, long last, String lines)
      throws Exception {
    if (lines == null || lines.isEmpty()) {
      return;
    }
    String[] entries = lines.split("\n");
    for (int i = 0; i < entries.length; i++) {
      byJob.computeIfAbsent(job, k -> new TreeMap<>()).put(last - entries.length + 1 + i, JSON.readTree(entries[i]));
    }
  }
}
