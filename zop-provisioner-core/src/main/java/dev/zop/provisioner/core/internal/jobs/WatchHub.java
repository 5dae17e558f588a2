package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
 * Delivers job events to watchers. One thread serves every watch: it reads each watched job's new events
 * from the database (so events written by other engines arrive too) and is woken early by local writes.
 */
final class WatchHub implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WatchHub.class);
  private static final int BATCH = 500;

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
      // one read per watched job, however many watch it (a job page open in many consoles, say)
      Map<JobId, List<Watch>> byJob = new HashMap<>();
      for (Watch watch : watches) {
        byJob.computeIfAbsent(watch.jobId, id -> new ArrayList<>()).add(watch);
      }
      byJob.forEach(this::deliver);
      try {
        seen = signals.awaitChange(seen, pollMillis);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void deliver(JobId jobId, List<Watch> watchers) {
    try {
      long from = Long.MAX_VALUE;
      for (Watch watch : watchers) {
        from = Math.min(from, watch.lastSeq);
      }
      List<JobEvent> events;
      do {
        long after = from;
        events = db.read(c -> jobs.events(c, jobId, after, BATCH));
        for (JobEvent event : events) {
          from = event.seq();
          for (Watch watch : watchers) {
            if (event.seq() <= watch.lastSeq || !watches.contains(watch)) {
              continue;
            }
            watch.lastSeq = event.seq();
            try {
              watch.listener.onEvent(event);
            } catch (RuntimeException e) {
              LOG.warn("a watcher of {} threw; it keeps receiving events", jobId, e);
            }
          }
        }
      } while (events.size() == BATCH);
    } catch (RuntimeException e) {
      LOG.warn("reading events of {} failed; will retry", jobId, e);
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

    Watch(JobId jobId, JobEventListener listener) {
      this.jobId = jobId;
      this.listener = listener;
    }
  }
}
