package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers job events to watchers. One thread serves every watch, reading the database (so events written by other
 * engines arrive too), woken early by local writes. A new watch first catches up on its job's events; from then
 * on every watch is served from one read of the event log's tail a round, however many jobs are watched, each
 * event handed to the watchers of its job. An event row's sequence number is given when it is inserted (its one or
 * two events are numbered from it, see {@link JobRepository#firstEventNumber}), and transactions commit in their
 * own order: a row number the tail skipped may belong to a transaction not yet committed, so it is looked for again
 * each round for {@link #GAP_MILLIS} (a number a rolled-back insert took never comes).
 * A job's own events commit in order (one writer holds a job at a time), so a watcher never misses one for another.
 */
final class WatchHub implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WatchHub.class);
  private static final int BATCH = 500;
  /** How long a skipped sequence number is looked for before it counts as a rolled-back insert's. */
  static final long GAP_MILLIS = 30_000;
  /** The skipped numbers kept at most (the oldest go first), and looked for in one read. */
  private static final int MAX_GAPS = 1_000;
  /**
   * The jobs of new watches caught up in one round, at most: thousands of streams opening at once would otherwise
   * hold every other watcher's events for as long as their reads take.
   */
  private static final int CATCH_UPS_PER_ROUND = 100;

  private final Database db;
  private final JobRepository jobs;
  private final JobSignals signals;
  private final long pollMillis;
  private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "zop-watch");
        t.setDaemon(true);
        return t;
      });
  private volatile boolean started;
  /** The highest event row number the tail has read; -1 until the first round. Only the hub's thread uses it. */
  private long tail = -1;
  /** Event row numbers the tail skipped, with when they were first missed (millis), oldest first. */
  private final Map<Long, Long> gaps = new LinkedHashMap<>();

  WatchHub(Database db, JobRepository jobs, JobSignals signals, Duration poll) {
    this.db = db;
    this.jobs = jobs;
    this.signals = signals;
    this.pollMillis = poll.toMillis();
  }

  Subscription watch(JobId id, JobEventListener listener) {
    Watch watch = new Watch(id, listener);
    watches.add(watch);
    startOnce();
    signals.changed(id); // deliver what is already recorded without waiting for the next poll
    return () -> watches.remove(watch);
  }

  private synchronized void startOnce() {
    if (!started) {
      started = true;
      thread.execute(this::loop);
    }
  }

  private void loop() {
    long seen = signals.generation();
    while (!thread.isShutdown()) {
      try {
        if (tail < 0) {
          // a little way back: an event numbered before the start whose transaction commits after it is read
          tail = Math.max(0, db.read(jobs::lastEventRow) - BATCH);
        }
        // a new watch reads its job's events so far, once; one read per job however many watch it
        Map<JobId, List<Watch>> fresh = new HashMap<>();
        for (Watch watch : watches) {
          if (!watch.caughtUp && (fresh.size() < CATCH_UPS_PER_ROUND || fresh.containsKey(watch.jobId))) {
            fresh.computeIfAbsent(watch.jobId, id -> new ArrayList<>()).add(watch);
          }
        }
        fresh.forEach(this::catchUp);
        followTail();
        if (fresh.size() == CATCH_UPS_PER_ROUND) {
          continue; // more new watches wait: the next round starts at once
        }
      } catch (RuntimeException e) {
        LOG.warn("reading job events failed; will retry", e);
      }
      try {
        seen = signals.awaitChange(seen, pollMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void catchUp(JobId jobId, List<Watch> watchers) {
    long from = Long.MAX_VALUE;
    for (Watch watch : watchers) {
      from = Math.min(from, watch.lastSeq);
    }
    List<JobRepository.EventRow> rows;
    do {
      long after = from;
      rows = db.read(c -> jobs.eventRows(c, jobId, after, BATCH));
      for (JobRepository.EventRow row : rows) {
        for (JobEvent event : row.events()) {
          from = Math.max(from, event.seq());
          hand(event, watchers);
        }
      }
    } while (rows.size() == BATCH);
    watchers.forEach(watch -> watch.caughtUp = true);
  }

  /** The events committed since the last round, and those found in the numbers it skipped, to their watchers. */
  private void followTail() {
    Map<JobId, List<Watch>> byJob = new HashMap<>();
    for (Watch watch : watches) {
      if (watch.caughtUp) {
        byJob.computeIfAbsent(watch.jobId, id -> new ArrayList<>()).add(watch);
      }
    }
    long now = System.currentTimeMillis();
    gaps.values().removeIf(missedAt -> now - missedAt > GAP_MILLIS);
    if (!gaps.isEmpty()) {
      List<Long> missing = new ArrayList<>(gaps.keySet());
      for (JobRepository.EventRow row : db.read(c -> jobs.eventRowsNumbered(c, missing))) {
        gaps.remove(row.seq());
        hand(row, byJob);
      }
    }
    List<JobRepository.EventRow> rows;
    do {
      long after = tail;
      rows = db.read(c -> jobs.eventRowsAfter(c, after, BATCH));
      for (JobRepository.EventRow row : rows) {
        for (long skipped = Math.max(tail + 1, row.seq() - MAX_GAPS); skipped < row.seq(); skipped++) {
          missed(skipped, now);
        }
        tail = row.seq();
        hand(row, byJob);
      }
    } while (rows.size() == BATCH);
  }

  private void missed(long seq, long now) {
    if (gaps.size() >= MAX_GAPS) {
      gaps.remove(gaps.keySet().iterator().next());
    }
    gaps.put(seq, now);
  }

  private void hand(JobRepository.EventRow row, Map<JobId, List<Watch>> byJob) {
    for (JobEvent event : row.events()) {
      hand(event, byJob.getOrDefault(event.jobId(), List.of()));
    }
  }

  private void hand(JobEvent event, List<Watch> watchers) {
    for (Watch watch : watchers) {
      if (event.seq() <= watch.lastSeq || !watches.contains(watch)) {
        continue;
      }
      watch.lastSeq = event.seq();
      try {
        watch.listener.onEvent(event);
      } catch (RuntimeException e) {
        LOG.warn("a watcher of {} threw; it keeps receiving events", event.jobId(), e);
      }
    }
  }

  @Override
  public void close() {
    watches.clear();
    // woken, not interrupted: an interrupt inside a read would close an embedded H2 store's file
    thread.shutdown();
    signals.changed();
    try {
      if (!thread.awaitTermination(5, TimeUnit.SECONDS)) {
        LOG.warn("a watcher is still busy after 5 s; interrupting it");
        thread.shutdownNow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static final class Watch {
    final JobId jobId;
    final JobEventListener listener;
    long lastSeq;
    /** Whether it has read its job's events so far; from then on the tail serves it. */
    volatile boolean caughtUp;

    Watch(JobId jobId, JobEventListener listener) {
      this.jobId = jobId;
      this.listener = listener;
    }
  }
}
