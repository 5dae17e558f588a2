package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
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
 * Delivers job events to watchers. One thread serves every watch, reading the database, so events written by other
 * engines arrive too. A job's latest events are held on its row (see {@link JobRepository#HOLD}), so a round reads
 * the rows of watched jobs: those this engine just changed (it is told of each), those of new watches, and, every
 * {@link #REFRESH_ALL_MILLIS}, every watched job's, for the changes other engines made. Each such job is read once
 * however many watch it; its events come from its row when the row holds all those its watchers have not had, and
 * from {@code job_events} as well when it does not. A job's events are numbered one after another, so a watcher
 * never receives one twice, nor misses one.
 */
final class WatchHub implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WatchHub.class);
  /** Jobs read in one query, and events read for one job in one query, at most. */
  private static final int BATCH = 500;
  /**
   * How often every watched job's row is read for events this engine was not told of (other engines' writes): a
   * read of one narrow column a watched job, where telling them apart by a shared log would cost every write a row.
   */
  static final long REFRESH_ALL_MILLIS = 1_000;
  /**
   * The jobs of new watches caught up in one round, at most: thousands of streams opening at once would otherwise
   * hold every other watcher's events for as long as their reads take.
   */
  private static final int CATCH_UPS_PER_ROUND = 100;

  private final Database db;
  private final JobRepository jobs;
  private final JobSignals signals;
  private final long pollMillis;
  /** The watches of each watched job. */
  private final Map<JobId, Set<Watch>> watches = new ConcurrentHashMap<>();
  /** Watched jobs this engine changed since the last round. */
  private final Set<JobId> changed = ConcurrentHashMap.newKeySet();
  /** Jobs of watches not yet caught up with what was recorded before them. */
  private final Set<JobId> fresh = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "zop-watch");
        t.setDaemon(true);
        return t;
      });
  private volatile boolean started;

  WatchHub(Database db, JobRepository jobs, JobSignals signals, Duration poll) {
    this.db = db;
    this.jobs = jobs;
    this.signals = signals;
    this.pollMillis = poll.toMillis();
    signals.onJobChanged(job -> {
      if (watches.containsKey(job)) {
        changed.add(job);
      }
    });
  }

  Subscription watch(JobId id, JobEventListener listener) {
    Watch watch = new Watch(listener);
    watches.compute(id, (job, all) -> {
      Set<Watch> set = all == null ? ConcurrentHashMap.newKeySet() : all;
      set.add(watch);
      return set;
    });
    fresh.add(id);
    startOnce();
    signals.changed(); // deliver what is already recorded without waiting for the next poll
    return () -> watches.computeIfPresent(id, (job, all) -> {
      all.remove(watch);
      return all.isEmpty() ? null : all;
    });
  }

  private synchronized void startOnce() {
    if (!started) {
      started = true;
      thread.execute(this::loop);
    }
  }

  private void loop() {
    long seen = signals.generation();
    long allReadAt = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(REFRESH_ALL_MILLIS);
    while (!thread.isShutdown()) {
      boolean morePending = false;
      try {
        Set<JobId> due = take(changed, new LinkedHashSet<>(), Integer.MAX_VALUE);
        take(fresh, due, CATCH_UPS_PER_ROUND);
        morePending = !fresh.isEmpty();
        read(due);
        if (System.nanoTime() - allReadAt >= TimeUnit.MILLISECONDS.toNanos(REFRESH_ALL_MILLIS)) {
          allReadAt = System.nanoTime();
          readChangedElsewhere();
        }
      } catch (RuntimeException e) {
        LOG.warn("reading job events failed; will retry", e);
      }
      if (morePending) {
        continue; // more new watches wait: the next round starts at once
      }
      try {
        seen = signals.awaitChange(seen, pollMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Moves at most {@code most} jobs from one set into the other; returns the other. */
  private static Set<JobId> take(Set<JobId> from, Set<JobId> into, int most) {
    Iterator<JobId> it = from.iterator();
    for (int taken = 0; taken < most && it.hasNext(); taken++) {
      into.add(it.next());
      it.remove();
    }
    return into;
  }

  /** Every watched job whose last event is one some watcher of it has not had, read as {@link #read} does. */
  private void readChangedElsewhere() {
    List<JobId> all = new ArrayList<>(watches.keySet());
    for (int i = 0; i < all.size(); i += BATCH) {
      if (i > 0) {
        // what this engine wrote meanwhile goes out between the chunks rather than after them all
        read(take(changed, new LinkedHashSet<>(), Integer.MAX_VALUE));
      }
      List<JobId> chunk = all.subList(i, Math.min(all.size(), i + BATCH));
      Map<JobId, Long> last = db.read(c -> JobHistoryRows.lastEvents(c, chunk));
      List<JobId> behind = new ArrayList<>();
      last.forEach((job, number) -> {
        if (number > oldest(job)) {
          behind.add(job);
        }
      });
      read(behind);
    }
  }

  /** The events of these jobs that their watchers have not had, to their watchers. */
  private void read(Iterable<JobId> due) {
    List<JobId> chunk = new ArrayList<>(BATCH);
    for (JobId job : due) {
      chunk.add(job);
      if (chunk.size() == BATCH) {
        readChunk(chunk);
        chunk.clear();
      }
    }
    if (!chunk.isEmpty()) {
      readChunk(chunk);
    }
  }

  private void readChunk(List<JobId> chunk) {
    Map<JobId, JobHistoryRows.Held> held = db.read(c -> JobHistoryRows.held(c, chunk));
    for (JobId job : chunk) {
      JobHistoryRows.Held row = held.get(job);
      long from = oldest(job);
      if (row == null || row.lastEvent() <= from) {
        continue;
      }
      List<JobEvent> onRow = row.events(job);
      if (!onRow.isEmpty() && onRow.get(0).seq() <= from + 1) {
        hand(job, onRow); // the row holds every event after the oldest a watcher had
        continue;
      }
      List<JobEvent> page;
      do {
        long after = from;
        page = db.read(c -> JobHistoryRows.events(c, job, after, BATCH));
        hand(job, page);
        for (JobEvent event : page) {
          from = Math.max(from, event.seq());
        }
      } while (page.size() == BATCH);
    }
  }

  /** The number of the oldest last event among the job's watchers; none watch it: the highest there is. */
  private long oldest(JobId job) {
    long oldest = Long.MAX_VALUE;
    for (Watch watch : watches.getOrDefault(job, Set.of())) {
      oldest = Math.min(oldest, watch.lastSeq);
    }
    return oldest;
  }

  private void hand(JobId job, List<JobEvent> events) {
    for (Watch watch : watches.getOrDefault(job, Set.of())) {
      for (JobEvent event : events) {
        if (event.seq() <= watch.lastSeq) {
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
    final JobEventListener listener;
    /** The number of the last event handed to it; only the hub's thread uses it. */
    long lastSeq;

    Watch(JobEventListener listener) {
      this.listener = listener;
    }
  }
}
