package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Dialect;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Claims due jobs and runs them on a bounded pool. A job waiting on the cloud is a row with a
 * {@code next_run_at}, not a thread, so the pool only ever holds jobs with work to do right now; nor does a job
 * whose step's success is being committed hold one (its run goes on as a new task once that is durable).
 */
final class Worker implements AutoCloseable, Reservation.Source {
  private static final Logger LOG = LoggerFactory.getLogger(Worker.class);

  private final Database db;
  private final StepRunner runner;
  private final String owner;
  private final int threads;
  private final long leaseMillis;
  private final long pollMillis;
  /** Wakes the poller when work may have become due: a submit, a retry, a freed thread. */
  private final JobSignals wakeups = new JobSignals();
  private final Map<JobId, Lease> leases = new ConcurrentHashMap<>();
  private final AtomicInteger busy = new AtomicInteger();
  /**
   * Whether the poller's last look at the due jobs was cut short by its threads (none free, or a claim that came
   * back full), so that a thread set free may find due work waiting. Otherwise every job due then was claimed, and
   * what has become due since is a submit or retry here (which wakes the poller itself), another engine's, or a
   * retry's time come, all of which the next poll finds: waking the poller as each run ends would only claim
   * nothing, a transaction each (at a trickle of submits, most of a job's claims).
   */
  private volatile boolean threadBound = true;
  private final ExecutorService pool;
  private final ScheduledExecutorService heartbeats;
  private final Thread poller;
  private final EngineStop stop;

  private final EngineMetrics metrics;

  Worker(Database db, StepRunner runner, EngineStop stop, String owner, int threads, Duration lease, Duration poll,
      EngineMetrics metrics) {
    this.stop = stop;
    this.metrics = metrics;
    this.db = db;
    this.runner = runner;
    this.owner = owner;
    this.threads = threads;
    this.leaseMillis = lease.toMillis();
    this.pollMillis = poll.toMillis();
    AtomicInteger n = new AtomicInteger();
    this.pool = Executors.newFixedThreadPool(threads, r -> daemon(r, "zop-worker-" + n.incrementAndGet()));
    this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "zop-heartbeat"));
    this.poller = daemon(this::poll, "zop-poller");
  }

  void start() {
    poller.start();
    long every = Math.max(leaseMillis / 3, 10);
    heartbeats.scheduleAtFixedRate(this::heartbeat, every, every, TimeUnit.MILLISECONDS);
  }

  /** Work may be due now; claim without waiting for the next poll. */
  void wake() {
    wakeups.changed();
  }

  /**
   * How many jobs to claim now. A claim costs a transaction whatever it brings, so while due jobs queue up (the last
   * claim came back full) the poller claims ahead: once no more jobs are in flight than two a thread, it takes enough
   * for eight in flight a thread. A job whose step's success is being committed holds no thread, and the writer's
   * shared transactions grow with the jobs waiting on them, so more jobs than threads keep both the threads and
   * the writer's lanes busy (on PostgreSQL, with two lanes, eight a thread ran a fifth more steps a second than
   * four; with one lane, eight ran hardly more than four). Those not running wait, leased and heartbeated, for their
   * commit or in the pool's queue. Otherwise it claims only for idle threads, so a job is never held back from
   * another engine for want of a thread here.
   */
  static int toClaim(int threads, int inFlight, boolean backlog) {
    if (backlog) {
      return inFlight <= 2 * threads ? 8 * threads - inFlight : 0;
    }
    return Math.max(0, threads - inFlight);
  }

  private void poll() {
    long seen = wakeups.generation();
    boolean backlog = false;
    while (!stop.stopping()) {
      try {
        threadBound = true; // before counting the threads: a run ending meanwhile must wake the poller
        int free = toClaim(threads, busy.get(), backlog);
        Map<String, LoadedJob> loaded = new java.util.HashMap<>();
        List<Dialect.Claimed> claimed = free <= 0 ? List.of() : db.tx(c -> {
          List<Dialect.Claimed> now = db.dialect().claim(c, owner, leaseMillis, free);
          if (!now.isEmpty()) {
            loaded.putAll(runner.load(c, now.stream().map(Dialect.Claimed::jobId).toList()));
          }
          return now;
        });
        if (free > 0) {
          metrics.claimed(claimed.size());
          backlog = claimed.size() == free;
        }
        threadBound = free <= 0 || claimed.size() == free;
        for (Dialect.Claimed claim : claimed) {
          Lease lease = new Lease(JobId.of(claim.jobId()), owner, claim.version())
              .withClaimed(loaded.get(claim.jobId()));
          busy.incrementAndGet();
          execute(lease);
        }
        if (claimed.isEmpty() || claimed.size() < free) {
          seen = wakeups.awaitChange(seen, pollMillis);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        if (stop.stopping()) {
          return;
        }
        LOG.warn("claiming jobs failed; trying again", e);
        sleepQuietly(pollMillis);
      }
    }
  }

  private void execute(Lease lease) {
    leases.put(lease.jobId, lease);
    pool.execute(() -> runner.run(lease, pool, () -> ended(lease)));
  }

  private void ended(Lease lease) {
    leases.remove(lease.jobId);
    busy.decrementAndGet();
    if (threadBound || stop.stopping()) { // close() waits for the runs to end
      wakeups.changed();
    }
  }

  /**
   * A thread for a job about to be submitted here, when one is free now: its row is then written already leased
   * to this engine, and the job runs once that row is committed, with no claim between. A claim costs a
   * transaction (the lease's write, its commit, and reading back the job and its steps the submit had in hand), at
   * a trickle of submits one a job. Null when no thread is free (the job then waits for a claim, here or by another
   * engine: none is held back for want of a thread here) or the engine is stopping.
   */
  @Override
  public Reservation reserve(JobId id) {
    for (int now = busy.get(); !stop.stopping() && now < threads; now = busy.get()) {
      if (busy.compareAndSet(now, now + 1)) {
        return new Reserved(new Lease(id, owner, JobRepository.LEASED_AT_SUBMIT_VERSION));
      }
    }
    return null;
  }

  /** A thread reserved for one submitted job. */
  private final class Reserved implements Reservation {
    private final Lease lease;

    Reserved(Lease lease) {
      this.lease = lease;
    }

    @Override
    public JobRepository.LeaseAtSubmit leaseAtSubmit() {
      return new JobRepository.LeaseAtSubmit(owner, leaseMillis);
    }

    @Override
    public void committed(LoadedJob loaded) {
      metrics.leasedAtSubmit();
      try {
        execute(lease.withClaimed(loaded));
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // halted as a crash is: the lease is left to run out, and the job to be claimed then
        leases.remove(lease.jobId);
        busy.decrementAndGet();
      }
    }

    @Override
    public void abandoned() {
      busy.decrementAndGet();
      wakeups.changed(); // the poller may have counted the thread as taken
    }
  }

  private void heartbeat() {
    for (Lease lease : leases.values()) {
      try {
        if (!runner.heartbeat(lease, leaseMillis)) {
          LOG.warn("lost the lease on {}", lease.jobId);
        }
      } catch (RuntimeException e) {
        LOG.warn("heartbeat for {} failed", lease.jobId, e);
      }
    }
  }

  /**
   * Graceful: stop claiming, let running steps finish, give unfinished jobs back at once. No thread of the engine
   * is interrupted: an interrupt that lands inside a JDBC call closes an embedded H2 store's file under every
   * connection, and the jobs under way could then not be given back.
   */
  @Override
  public void close() {
    stop.stop();
    wakeups.changed();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    try {
      // A claim under way is let finish first: its jobs go to the pool, whose runs see the engine stopping and
      // give them back. Closing the pool before that would leave them leased until their leases ran out.
      poller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      // a run goes on as new tasks of the pool after each step's commit, so the pool closes once no run is left
      long seen = wakeups.generation();
      while (busy.get() > 0 && System.nanoTime() < deadline) {
        seen = wakeups.awaitChange(seen, Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // even when the wait above was cut short: the pool takes no new task and no lease is extended after this
    pool.shutdown();
    heartbeats.shutdown();
    try {
      if (poller.isAlive() || busy.get() > 0 || !pool.awaitTermination(1, TimeUnit.SECONDS)) {
        LOG.warn("work still under way after 30 s; the leases it holds will expire");
      }
      heartbeats.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** As a crash: no further writes, no lease released, threads abandoned. */
  void halt() {
    stop.halt();
    heartbeats.shutdownNow();
    poller.interrupt();
    pool.shutdownNow();
    try {
      pool.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  private static void sleepQuietly(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
