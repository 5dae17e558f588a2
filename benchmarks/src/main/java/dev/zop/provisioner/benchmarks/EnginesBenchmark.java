package dev.zop.provisioner.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One to four engines on one PostgreSQL, in this JVM (each with its own worker pool, connection pool and poller,
 * as separate processes would have; on this 2-core machine separate JVMs would only add their own JIT and GC to the
 * same two cores). For each engine count, two figures:
 *
 * <ul>
 *   <li>throughput: {@code bench.jobs} jobs of four quick steps are submitted with no engine running, then the
 *       engines are started together and the steps they run a second, until every job has finished, are printed,
 *       with the statements each engine sent (how the work was shared out), the commits a step, and this JVM's and
 *       the rest of the machine's CPU a step (on an otherwise idle machine, the rest is PostgreSQL's), and the share
 *       of the machine's CPUs that was busy;</li>
 *   <li>wake-up latency: {@code bench.pollers} jobs that poll every {@code bench.pollSeconds} ({@link
 *       PollingProvider}, their polls falling due evenly) are parked, and for {@code bench.seconds} the lateness of
 *       every poll, from the point it was due to its step's run, is counted: what an engine's poll interval (the
 *       default, 250 ms) and its competition for due jobs cost a job waiting on the cloud.</li>
 * </ul>
 */
public final class EnginesBenchmark {
  private static final Duration PATIENCE = Duration.ofMinutes(10);

  public static void main(String[] args) throws Exception {
    int jobs = Integer.getInteger("bench.jobs", 5_000);
    int threads = Integer.getInteger("bench.threads", 8);
    int pollers = Integer.getInteger("bench.pollers", 10_000);
    Duration every = Duration.ofSeconds(Integer.getInteger("bench.pollSeconds", 10));
    int seconds = Integer.getInteger("bench.seconds", 30);
    int most = Integer.getInteger("bench.engines", 4);
    // a first, unprinted run: the JIT compiles the engine's paths
    try (PostgresTestDatabase db = PostgresTestDatabase.create(); HikariDataSource stats = pool(db, "stats", 1)) {
      throughput(db, stats, 1, Math.min(jobs, 2_000), threads, false);
    }
    for (int engines = 1; engines <= most; engines++) {
      try (PostgresTestDatabase db = PostgresTestDatabase.create(); HikariDataSource stats = pool(db, "stats", 1)) {
        throughput(db, stats, engines, jobs, threads, true);
      }
      try (PostgresTestDatabase db = PostgresTestDatabase.create(); HikariDataSource stats = pool(db, "stats", 1)) {
        wakeUps(db, stats, engines, pollers, every, seconds, threads);
      }
    }
  }

  private static void throughput(PostgresTestDatabase db, HikariDataSource stats, int engines, int jobs, int threads,
      boolean print) throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false);
    Space space;
    try (EmbeddedProvisioner submitter = TestEngines.jdbc(db.url(), db.user(), db.password(), cloud)
        .runWorkers(false).build()) {
      space = space(submitter);
      for (int i = 0; i < jobs; i++) {
        submitter.jobs().submit(space.id(), NetworkSpec.named("net-" + i).cidr("10.0.0.0/16")
            .subnet("a", "10.0.1.0/24").subnet("b", "10.0.2.0/24").subnet("c", "10.0.3.0/24"));
      }
    }
    EngineBenchmark.Counters before = EngineBenchmark.counters(stats);
    long start = System.nanoTime();
    List<EmbeddedProvisioner> running = new ArrayList<>();
    List<HikariDataSource> pools = new ArrayList<>();
    List<CountingDataSource> counted = new ArrayList<>();
    double elapsed;
    try {
      for (int e = 0; e < engines; e++) {
        HikariDataSource pool = pool(db, "engine-" + e, Math.max(10, threads / 2 + 4));
        pools.add(pool);
        CountingDataSource statements = new CountingDataSource(pool);
        counted.add(statements);
        running.add(TestEngines.jdbc(db.url(), db.user(), db.password(), cloud).dataSource(statements)
            .instanceId("engine-" + e).workerThreads(threads).build());
      }
      awaitNoneUnfinished(stats, space);
      elapsed = (System.nanoTime() - start) / 1e9;
    } finally {
      running.forEach(EmbeddedProvisioner::close);
      pools.forEach(HikariDataSource::close); // their backends report their counts as they close
    }
    EngineBenchmark.Counters after = EngineBenchmark.counters(stats);
    if (!print) {
      return;
    }
    long steps = jobs * 4L;
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("benchmark", "engines_throughput");
    line.put("store", "postgresql");
    line.put("engines", engines);
    line.put("worker_threads_each", threads);
    line.put("jobs", jobs);
    line.put("steps_per_second", round(steps / elapsed));
    // the work each engine did, by the statements it sent: how the due jobs were shared out
    line.put("statements_per_step", round(counted.stream().mapToLong(CountingDataSource::total).sum()
        / (double) steps));
    line.put("statements_by_each", counted.stream().map(c -> Long.toString(c.total()))
        .collect(java.util.stream.Collectors.joining("/")));
    line.put("commits_per_step", round((after.commits() - before.commits()) / (double) steps));
    line.put("jvm_cpu_us_per_step", round((after.jvmCpuNanos() - before.jvmCpuNanos()) / 1e3 / steps));
    line.put("other_cpu_us_per_step", round(EngineBenchmark.otherCpuMicros(before, after) / steps));
    line.put("machine_busy_share", round(busyShare(before, after, elapsed)));
    EngineBenchmark.print(line);
    if (failed(stats, space) > 0) {
      throw new IllegalStateException(failed(stats, space) + " jobs did not succeed");
    }
  }

  private static void wakeUps(PostgresTestDatabase db, HikariDataSource stats, int engines, int pollers,
      Duration every, int seconds, int threads) throws Exception {
    PollingProvider provider = new PollingProvider(new SimProvider(SimCloud.create().recordCalls(false)), every);
    List<EmbeddedProvisioner> running = new ArrayList<>();
    try {
      for (int e = 0; e < engines; e++) {
        running.add(engine(provider, db).instanceId("engine-" + e).workerThreads(threads).build());
      }
      EmbeddedProvisioner first = running.get(0);
      Space space = space(first);
      for (int i = 0; i < pollers; i++) {
        first.jobs().submit(space.id(), NetworkSpec.named("net-" + i).cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24"));
      }
      long deadline = System.nanoTime() + PATIENCE.toNanos();
      while (provider.parked() < pollers && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      // a whole cycle, so that every job's polls are under way before counting
      Thread.sleep(every.toMillis());
      provider.takeLateness();
      long polls = provider.polls();
      EngineBenchmark.Counters before = EngineBenchmark.counters(stats);
      long start = System.nanoTime();
      Thread.sleep(seconds * 1000L);
      double elapsed = (System.nanoTime() - start) / 1e9;
      AtomicLongArray lateness = provider.takeLateness();
      long handled = provider.polls() - polls;
      EngineBenchmark.Counters after = EngineBenchmark.counters(stats);
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("benchmark", "engines_wake_up");
      line.put("store", "postgresql");
      line.put("engines", engines);
      line.put("jobs_polling", pollers);
      line.put("poll_every_seconds", every.toSeconds());
      line.put("polls_due_per_second", round(pollers / (double) every.toSeconds()));
      line.put("polls_handled_per_second", round(handled / elapsed));
      line.put("lateness_ms_p50", PollingProvider.quantile(lateness, 0.5));
      line.put("lateness_ms_p90", PollingProvider.quantile(lateness, 0.9));
      line.put("lateness_ms_p99", PollingProvider.quantile(lateness, 0.99));
      line.put("lateness_ms_max", PollingProvider.quantile(lateness, 1.0));
      line.put("jvm_cpu_us_per_poll", round((after.jvmCpuNanos() - before.jvmCpuNanos()) / 1e3 / handled));
      line.put("other_cpu_us_per_poll", round(EngineBenchmark.otherCpuMicros(before, after) / handled));
      line.put("machine_busy_share", round(busyShare(before, after, elapsed)));
      EngineBenchmark.print(line);
    } finally {
      running.forEach(EmbeddedProvisioner::close);
    }
  }

  /** An engine with the product's defaults (poll interval, lease), but the benchmark's provider. */
  private static EmbeddedProvisionerBuilder engine(PollingProvider provider, PostgresTestDatabase db) {
    return EmbeddedProvisioner.builder().discoverProviders(false).provider(provider)
        .jdbc(db.url(), db.user(), db.password());
  }


  /** Waits, reading every 20 ms, until no job of the space is pending or running. */
  private static void awaitNoneUnfinished(HikariDataSource stats, Space space) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    while (unfinished(stats, space) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("jobs still running after " + PATIENCE);
      }
      Thread.sleep(20);
    }
  }

  private static long unfinished(HikariDataSource stats, Space space) throws Exception {
    return count(stats, "select count(*) from provisioning_jobs where space_id = ? and status in ('pending',"
        + " 'running')", space);
  }

  private static long failed(HikariDataSource stats, Space space) throws Exception {
    return count(stats, "select count(*) from provisioning_jobs where space_id = ? and status <> '"
        + JobStatus.SUCCEEDED.wireName() + "'", space);
  }

  private static long count(HikariDataSource stats, String sql, Space space) throws Exception {
    try (Connection c = stats.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, space.id().value());
      try (ResultSet r = ps.executeQuery()) {
        r.next();
        return r.getLong(1);
      }
    }
  }


  /** The share of the machine's CPUs busy over {@code seconds}. */
  private static double busyShare(EngineBenchmark.Counters before, EngineBenchmark.Counters after, double seconds) {
    double busy = (after.machineCpuTicks() - before.machineCpuTicks()) / EngineBenchmark.TICKS_PER_SECOND;
    return busy / (seconds * Runtime.getRuntime().availableProcessors());
  }

  private static Space space(EmbeddedProvisioner zop) {
    String name = "bench-engines-" + Long.toString(System.nanoTime(), 36);
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", name));
    return zop.spaces().create(SpaceRequest.of("sim", name, account.id()).region("sim-east-1"));
  }

  private static HikariDataSource pool(PostgresTestDatabase db, String name, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(size);
    config.setPoolName(name);
    return new HikariDataSource(config);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
