package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A million jobs parked on the cloud, on PostgreSQL: one engine (default settings but the provider) runs jobs
 * whose one step polls its resource every {@code bench.pollSeconds} for ever ({@link PollingProvider}). Jobs are
 * submitted, from eight threads while the engine runs, up to 10,000, then 100,000, then {@code bench.waitingJobs};
 * at each mark, once every job has run once and parked, it prints how long that took, this JVM's heap after a full
 * collection and its live threads. Then, for {@code bench.steadySeconds}, with every job's polls falling due evenly
 * over time ({@code bench.waitingJobs / bench.pollSeconds} a second) and any polls queued meanwhile caught up
 * with, it prints the polls handled a second, how late they ran (from the point each was due to the step's run), and what a poll cost: commits, this JVM's CPU
 * and the rest of the machine's, which on an otherwise idle machine is PostgreSQL's.
 */
public final class WaitingJobsBenchmark {
  private static final Duration PATIENCE = Duration.ofMinutes(60);

  public static void main(String[] args) throws Exception {
    int target = Integer.getInteger("bench.waitingJobs", 1_000_000);
    Duration every = Duration.ofSeconds(Integer.getInteger("bench.pollSeconds", 600));
    int steadySeconds = Integer.getInteger("bench.steadySeconds", 300);
    int threads = Integer.getInteger("bench.threads", 8);
    List<Integer> marks = new ArrayList<>();
    for (int mark : new int[] {10_000, 100_000}) {
      if (mark < target) {
        marks.add(mark);
      }
    }
    marks.add(target);

    PollingProvider provider = new PollingProvider(new SimProvider(SimCloud.create().recordCalls(false)), every);
    try (PostgresTestDatabase db = PostgresTestDatabase.create(); HikariDataSource stats = pool(db);
        EmbeddedProvisioner zop = EmbeddedProvisioner.builder().discoverProviders(false).provider(provider)
            .jdbc(db.url(), db.user(), db.password()).workerThreads(threads).build()) {
      Map<String, Object> baseline = new LinkedHashMap<>();
      baseline.put("benchmark", "waiting_jobs_baseline");
      baseline.put("store", "postgresql");
      baseline.put("heap_used_mb", round(heapAfterGc() / 1024.0 / 1024.0));
      baseline.put("live_threads", ManagementFactory.getThreadMXBean().getThreadCount());
      EngineBenchmark.print(baseline);

      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "bench-waiting"));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "bench-waiting", account.id()).region("sim-east-1"));
      int submitted = 0;
      for (int mark : marks) {
        EngineBenchmark.Counters before = EngineBenchmark.counters(stats);
        long start = System.nanoTime();
        submit(zop, space, submitted, mark);
        double submitSeconds = (System.nanoTime() - start) / 1e9;
        long deadline = start + PATIENCE.toNanos();
        while (provider.parked() < mark && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        double parkSeconds = (System.nanoTime() - start) / 1e9;
        EngineBenchmark.Counters after = EngineBenchmark.counters(stats);
        int added = mark - submitted;
        submitted = mark;
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("benchmark", "waiting_jobs");
        line.put("store", "postgresql");
        line.put("jobs_waiting", provider.parked());
        line.put("jobs_added", added);
        line.put("seconds_to_submit", round(submitSeconds));
        line.put("seconds_to_park", round(parkSeconds));
        line.put("jobs_parked_per_second", round(added / parkSeconds));
        line.put("polls_meanwhile", provider.polls());
        line.put("commits_per_job", round((after.commits() - before.commits()) / (double) added));
        line.put("jvm_cpu_us_per_job", round((after.jvmCpuNanos() - before.jvmCpuNanos()) / 1e3 / added));
        line.put("other_cpu_us_per_job", round(EngineBenchmark.otherCpuMicros(before, after) / added));
        line.put("heap_used_mb", round(heapAfterGc() / 1024.0 / 1024.0));
        line.put("heap_max_mb", round(Runtime.getRuntime().maxMemory() / 1024.0 / 1024.0));
        line.put("live_threads", ManagementFactory.getThreadMXBean().getThreadCount());
        line.put("database_mb", round(databaseBytes(stats) / 1024.0 / 1024.0));
        EngineBenchmark.print(line);
        if (provider.parked() < mark) {
          throw new IllegalStateException(provider.parked() + " of " + mark + " jobs parked after " + PATIENCE);
        }
      }
      steadyState(provider, stats, target, every, steadySeconds);
    }
  }

  /**
   * Polls handled and their lateness over {@code seconds}, with every job in its polling cycle. Polls that fell due
   * while the jobs were being submitted and parked may have queued up; the measurement starts once ten seconds
   * pass in which the polls ran less than a second late at the 99th percentile (at most half an hour later), and a
   * line first says how long that took and the polls handled a second meanwhile.
   */
  private static void steadyState(PollingProvider provider, HikariDataSource stats, int jobs, Duration every,
      int seconds) throws Exception {
    provider.takeLateness();
    long caughtUpFrom = System.nanoTime();
    long pollsBefore = provider.polls();
    long windows = 0;
    long lastP99;
    do {
      Thread.sleep(10_000);
      windows++;
      lastP99 = PollingProvider.quantile(provider.takeLateness(), 0.99);
    } while (lastP99 >= 1_000 && windows < 180);
    Map<String, Object> catchUp = new LinkedHashMap<>();
    catchUp.put("benchmark", "waiting_jobs_catch_up");
    catchUp.put("store", "postgresql");
    catchUp.put("seconds", round((System.nanoTime() - caughtUpFrom) / 1e9));
    catchUp.put("polls_handled_per_second", round((provider.polls() - pollsBefore)
        / ((System.nanoTime() - caughtUpFrom) / 1e9)));
    catchUp.put("caught_up", lastP99 < 1_000);
    catchUp.put("last_10s_lateness_ms_p99", lastP99);
    EngineBenchmark.print(catchUp);
    long polls = provider.polls();
    EngineBenchmark.Counters before = EngineBenchmark.counters(stats);
    long start = System.nanoTime();
    long lowest = Long.MAX_VALUE;
    long highest = 0;
    long last = polls;
    for (int s = 10; s <= seconds; s += 10) { // every ten seconds, the rate of those ten
      Thread.sleep(Math.max(0, start + s * 1_000_000_000L - System.nanoTime()) / 1_000_000);
      long now = provider.polls();
      lowest = Math.min(lowest, now - last);
      highest = Math.max(highest, now - last);
      last = now;
    }
    double elapsed = (System.nanoTime() - start) / 1e9;
    EngineBenchmark.Counters after = EngineBenchmark.counters(stats);
    AtomicLongArray lateness = provider.takeLateness();
    long handled = provider.polls() - polls;
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("benchmark", "waiting_jobs_steady_state");
    line.put("store", "postgresql");
    line.put("jobs_waiting", jobs);
    line.put("poll_every_seconds", every.toSeconds());
    line.put("seconds", round(elapsed));
    line.put("polls_due_per_second", round(jobs / (double) every.toSeconds()));
    line.put("polls_handled_per_second", round(handled / elapsed));
    line.put("polls_per_second_lowest_10s", round(lowest / 10.0));
    line.put("polls_per_second_highest_10s", round(highest / 10.0));
    long counted = 0;
    for (int i = 0; i < lateness.length(); i++) {
      counted += lateness.get(i);
    }
    line.put("lateness_polls", counted);
    for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
      line.put("lateness_ms_p" + (q * 100 == Math.floor(q * 100) ? String.valueOf((int) (q * 100))
          : String.valueOf(q * 100)), PollingProvider.quantile(lateness, q));
    }
    line.put("lateness_ms_max", PollingProvider.quantile(lateness, 1.0));
    line.put("lateness_over_60s", lateness.get(PollingProvider.BUCKETS - 1));
    line.put("commits_per_poll", round((after.commits() - before.commits()) / (double) handled));
    line.put("jvm_cpu_us_per_poll", round((after.jvmCpuNanos() - before.jvmCpuNanos()) / 1e3 / handled));
    line.put("other_cpu_us_per_poll", round(EngineBenchmark.otherCpuMicros(before, after) / handled));
    line.put("heap_used_mb", round(heapAfterGc() / 1024.0 / 1024.0));
    line.put("live_threads", ManagementFactory.getThreadMXBean().getThreadCount());
    EngineBenchmark.print(line);
  }


  /** Jobs {@code from} to {@code to} (exclusive), submitted from eight threads. */
  private static void submit(EmbeddedProvisioner zop, Space space, int from, int to) throws Exception {
    AtomicInteger next = new AtomicInteger(from);
    ExecutorService callers = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        running.add(callers.submit(() -> {
          for (int i = next.getAndIncrement(); i < to; i = next.getAndIncrement()) {
            zop.jobs().submit(space.id(), NetworkSpec.named("net-" + i).cidr("10.0.0.0/16")
                .subnet("a", "10.0.1.0/24"));
          }
        }));
      }
      for (Future<?> f : running) {
        f.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      callers.shutdown();
    }
  }


  private static long heapAfterGc() throws InterruptedException {
    System.gc();
    Thread.sleep(300);
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** The engine's tables, indexes included, in the benchmark's schema. */
  private static long databaseBytes(HikariDataSource stats) throws Exception {
    try (Connection c = stats.getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c"
            + " join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind = 'r'")) {
      r.next();
      return r.getLong(1);
    }
  }

  private static HikariDataSource pool(PostgresTestDatabase db) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(1);
    config.setPoolName("stats");
    return new HikariDataSource(config);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
