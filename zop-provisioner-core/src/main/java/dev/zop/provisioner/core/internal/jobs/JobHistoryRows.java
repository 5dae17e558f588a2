package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads of jobs' histories: the entries in {@code job_events} and those still held on a job's row (see
 * {@link HeldEvents}; {@link JobRepository#appendEvent} and the fenced writes add them).
 */
final class JobHistoryRows {
  private JobHistoryRows() {}

  /** A job's entries still held on its row: the number of the last, and their lines (null when none). */
  record Held(long lastEvent, String lines) {
    List<JobEvent> events(JobId job) {
      return HeldEvents.read(job, lastEvent, lines);
    }
  }

  /** The held entries of these jobs, by job; a job that is gone has none. */
  static Map<JobId, Held> held(Connection c, Collection<JobId> ids) throws SQLException {
    return byJob(c, "last_event, held_events", ids, rs -> new Held(rs.getLong(2), rs.getString(3)));
  }

  /** The number of each of these jobs' last event, by job; a job that is gone has none. */
  static Map<JobId, Long> lastEvents(Connection c, Collection<JobId> ids) throws SQLException {
    return byJob(c, "last_event", ids, rs -> rs.getLong(2));
  }

  /** {@code columns} of these jobs' rows, read after their id, mapped by {@code value}, by job. */
  private static <T> Map<JobId, T> byJob(Connection c, String columns, Collection<JobId> ids,
      Database.RowMapper<T> value) throws SQLException {
    Map<JobId, T> byJob = new HashMap<>();
    if (ids.isEmpty()) {
      return byJob;
    }
    for (Map.Entry<JobId, T> row : Database.query(c, "SELECT id, " + columns + " FROM provisioning_jobs WHERE id IN ("
        + Database.marks(ids.size()) + ")", rs -> Map.entry(JobId.of(rs.getString(1)), value.map(rs)),
        ids.stream().map(JobId::value).toArray())) {
      byJob.put(row.getKey(), row.getValue());
    }
    return byJob;
  }

  private static final String EVENT_COLUMNS = "seq, job_id, event_type, step_name, status, message, created_at,"
      + " then_type, then_step_name, then_status, then_message, last_number, events";

  /**
   * A job's events numbered after {@code afterSeq}, oldest first, at most {@code limit}: those of its
   * {@code job_events} rows, then those its row still holds. The row is read first: entries a write moves from it
   * into {@code job_events} in between are then found there, so none is missed (and one found twice is kept once).
   */
  static List<JobEvent> events(Connection c, JobId id, long afterSeq, int limit) throws SQLException {
    Held held = held(c, List.of(id)).get(id);
    List<JobEvent> events = new ArrayList<>();
    if (held == null || held.lastEvent() <= afterSeq) {
      return events;
    }
    long last = afterSeq;
    for (List<JobEvent> row : Database.query(c, "SELECT " + EVENT_COLUMNS + " FROM job_events"
        + " WHERE job_id = ? AND last_number > ? ORDER BY last_number LIMIT ?", JobHistoryRows::mapEventRow,
        id.value(), afterSeq, limit)) {
      for (JobEvent event : row) {
        if (event.seq() > last && events.size() < limit) {
          events.add(event);
          last = event.seq();
        }
      }
    }
    for (JobEvent event : held.events(id)) {
      if (event.seq() > last && events.size() < limit) {
        events.add(event);
        last = event.seq();
      }
    }
    return events;
  }

  /**
   * The events of a {@code job_events} row: the entries it took from its job's row ({@code events}), or, in a row
   * written before they were held there (V12), one event or two numbered {@code 2 × seq} and {@code 2 × seq + 1}.
   */
  private static List<JobEvent> mapEventRow(ResultSet rs) throws SQLException {
    long seq = rs.getLong(1);
    JobId job = JobId.of(rs.getString(2));
    String lines = rs.getString(13);
    if (lines != null) {
      return HeldEvents.read(job, rs.getLong(12), lines);
    }
    Instant at = Database.instant(rs, 7);
    JobEvent first = new JobEvent(job, seq * 2, JobEventType.fromWire(rs.getString(3)),
        rs.getString(4), JobStatus.fromWire(rs.getString(5)), rs.getString(6), at);
    String thenType = rs.getString(8);
    if (thenType == null) {
      return List.of(first);
    }
    JobEvent then = new JobEvent(job, seq * 2 + 1, JobEventType.fromWire(thenType), rs.getString(9),
        JobStatus.fromWire(rs.getString(10)), rs.getString(11), at);
    return List.of(first, then);
  }
}
