package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.sim.ReplacedSteps;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepResult;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Measures the engine and prints one JSON line per figure: start-up time, step transitions per second on H2
 * and on PostgreSQL, and the heap and threads used while 10,000 jobs wait on a slow cloud.
 *
 * <p>On PostgreSQL the engine's figure has an anchor: db-scheduler (lock-and-fetch, the same thread count) runs
 * one-time tasks with an empty body on the same database, alternating with the engine for {@code bench.rounds}
 * rounds, so that noise on the machine hits both; each round prints both rates, their ratio and the commits per
 * step or execution read from {@code pg_stat_database}.
 *
 * <p>Both sides do the same number of units a round (steps of four-step jobs, one-time tasks), and a round lasts
 * seconds, not a fraction of one, so that a round's figure is a rate rather than a start-up. The engine runs the
 * round's jobs twice, on fresh submissions: as the simulated provider makes a network (the simulated cloud's work
 * in each step; its clock starts before the engine's {@code build()}, which starts its workers, so its rate
 * includes its own start-up, printed as {@code engine_build_ms}; db-scheduler's starts at {@code start()}); and
 * with four steps whose body is empty, as db-scheduler's tasks are, both sides then timed alike from the first
 * body to the last ({@link BodyClock}; {@code empty_steps_ratio}). After the rounds a summary line for each gives
 * both means and their ratio over every round but the first, in which both JITs are still compiling.
 *
 * <p>System properties: {@code bench.tasks} (db-scheduler executions a round, default 20000), {@code bench.jobs}
 * (throughput jobs, on H2 and in each PostgreSQL round; default a quarter of {@code bench.tasks}, so as many steps
 * as executions), {@code bench.waiting} (default 10000), {@code bench.postgres} (false skips the PostgreSQL runs),
 * {@code bench.rounds} (default 5), {@code bench.threads} (default 8), {@code bench.submits} (default 4000 a round),
 * {@code bench.emptySteps} (false: no run of empty steps),
 * {@code bench.submitRounds} (default 3). Run
 * through {@code ./mvnw -pl benchmarks exec:exec}, which forks a JVM with {@code -Xmx256m} so the memory figure is
 * this engine's, not Maven's.
 */
public final class EngineBenchmark {
  private static final Duration PATIENCE = Duration.ofMinutes(10);

  public static void main(String[] args) throws Exception {
    int tasks = Integer.getInteger("bench.tasks", 20_000);
    int jobs = Integer.getInteger("bench.jobs", tasks / 4);
    int waiting = Integer.getInteger("bench.waiting", 10_000);
    boolean postgres = Boolean.parseBoolean(System.getProperty("bench.postgres", "true"));
    boolean runEmptySteps = Boolean.parseBoolean(System.getProperty("bench.emptySteps", "true"));

    startup();
    Path h2 = tempDir();
    int submits = Integer.getInteger("bench.submits", 4000);
    int submitRounds = Integer.getInteger("bench.submitRounds", 3);
    int threads = Integer.getInteger("bench.threads", 8);
    // submits on stores of their own: their jobs stay queued, and no later engine should run them
    Path submitStore = tempDir();
    try (PostgresTestDatabase own = postgres ? PostgresTestDatabase.create() : null;
        HikariDataSource stats = postgres ? pool(own, 1) : null) {
      // rounds, alternating the stores: the first after start-up is mostly the JIT compiling the submit's path
      for (int round = 1; round <= submitRounds; round++) {
        submits("h2", round, submits, 1, cloud -> TestEngines.h2(submitStore, cloud), null);
        if (postgres) {
          submits("postgresql", round, submits, 1,
              cloud -> TestEngines.jdbc(own.url(), own.user(), own.password(), cloud), stats);
          submits("postgresql", round, submits, threads,
              cloud -> TestEngines.jdbc(own.url(), own.user(), own.password(), cloud), stats);
        }
      }
    }
    // twice: the first run is mostly the JIT compiling the engine's paths
    transitions("h2", jobs, cloud -> TestEngines.h2(h2, cloud));
    transitions("h2", jobs, cloud -> TestEngines.h2(h2, cloud));
    if (postgres) {
      int rounds = Integer.getInteger("bench.rounds", 5);
      try (PostgresTestDatabase db = PostgresTestDatabase.create();
          HikariDataSource pool = pool(db, threads + 2)) {
        createSchedulerTable(pool);
        List<Rate> schedulers = new ArrayList<>();
        List<Rate> engines = new ArrayList<>();
        List<Rate> emptyEngines = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
          Rate scheduler = dbScheduler(pool, tasks, threads);
          Rate engine = transitions("postgresql", jobs, threads,
              cloud -> TestEngines.jdbc(db.url(), db.user(), db.password(), cloud), pool, db, null);
          BodyClock bodies = new BodyClock();
          Rate empty = runEmptySteps ? transitions("postgresql-empty-steps", jobs, threads,
              cloud -> TestEngines.jdbc(db.url(), db.user(), db.password(), cloud, sim -> emptySteps(sim, bodies)),
              pool, db, bodies) : null;
          Map<String, Object> line = new LinkedHashMap<>();
          line.put("benchmark", "engine_vs_db_scheduler");
          line.put("store", "postgresql");
          line.put("round", round);
          line.put("threads", threads);
          line.put("engine_steps_per_second", round(engine.perSecond()));
          line.put("engine_build_ms", round(engine.buildMillis()));
          line.put("engine_commits_per_step", round(engine.commitsPerUnit()));
          line.put("engine_statements_per_step", round(engine.statementsPerUnit()));
          line.put("db_scheduler_executions_per_second", round(scheduler.perSecond()));
          line.put("db_scheduler_commits_per_execution", round(scheduler.commitsPerUnit()));
          line.put("db_scheduler_statements_per_execution", round(scheduler.statementsPerUnit()));
          line.put("engine_wal_bytes_per_step", round(engine.walBytesPerUnit()));
          line.put("db_scheduler_wal_bytes_per_execution", round(scheduler.walBytesPerUnit()));
          line.put("engine_jvm_cpu_us_per_step", round(engine.jvmCpuMicrosPerUnit()));
          line.put("db_scheduler_jvm_cpu_us_per_execution", round(scheduler.jvmCpuMicrosPerUnit()));
          line.put("engine_postgres_cpu_us_per_step", round(engine.otherCpuMicrosPerUnit()));
          line.put("db_scheduler_postgres_cpu_us_per_execution", round(scheduler.otherCpuMicrosPerUnit()));
          line.put("ratio", round(engine.perSecond() / scheduler.perSecond()));
          if (empty != null) {
            line.put("empty_steps_engine_steps_per_second_by_bodies", round(empty.perSecondByBodies()));
            line.put("empty_steps_engine_steps_per_second", round(empty.perSecond()));
            line.put("empty_steps_engine_build_ms", round(empty.buildMillis()));
            line.put("empty_steps_engine_commits_per_step", round(empty.commitsPerUnit()));
            line.put("empty_steps_engine_statements_per_step", round(empty.statementsPerUnit()));
            line.put("empty_steps_engine_wal_bytes_per_step", round(empty.walBytesPerUnit()));
            line.put("empty_steps_engine_jvm_cpu_us_per_step", round(empty.jvmCpuMicrosPerUnit()));
            line.put("empty_steps_engine_postgres_cpu_us_per_step", round(empty.otherCpuMicrosPerUnit()));
            line.put("db_scheduler_executions_per_second_by_bodies", round(scheduler.perSecondByBodies()));
            line.put("empty_steps_ratio", round(empty.perSecondByBodies() / scheduler.perSecondByBodies()));
            // each side on its own clock, as the simulated network's ratio is
            line.put("empty_steps_ratio_own_clocks", round(empty.perSecond() / scheduler.perSecond()));
          }
          print(line);
          schedulers.add(scheduler);
          engines.add(engine);
          if (empty != null) {
            emptyEngines.add(empty.byBodies());
          }
        }
        if (rounds > 1) {
          summary("simulated_network", engines.subList(1, rounds), schedulers.subList(1, rounds));
          if (runEmptySteps) {
            summary("empty_steps", emptyEngines.subList(1, rounds), schedulers.subList(1, rounds).stream()
                .map(Rate::byBodies).toList());
          }
        }
      }
    }
    if (waiting > 0) {
      waitingJobs(waiting);
    }
  }

  /** Time from builder to a ready engine: a new store (migrations run) and an existing one. */
  private static void startup() throws Exception {
    Path dir = tempDir();
    SimCloud cloud = SimCloud.create();
    for (String store : List.of("h2-new", "h2-existing")) {
      long start = System.nanoTime();
      EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).build();
      long millis = (System.nanoTime() - start) / 1_000_000;
      zop.close();
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("benchmark", "engine_startup");
      line.put("store", store);
      line.put("millis", millis);
      print(line);
    }
  }

  /**
   * Units (steps, executions) a second, and what each cost: commits, bytes of write-ahead log, this JVM's CPU and
   * the rest of the machine's CPU, in microseconds (NaN where not counted).
   */
  record Rate(double perSecond, double commitsPerUnit, double walBytesPerUnit, double jvmCpuMicrosPerUnit,
      double otherCpuMicrosPerUnit, double buildMillis, double statementsPerUnit, double perSecondByBodies) {
    static Rate of(double perSecond, long units, Counters before, Counters after) {
      double jvm = (after.jvmCpuNanos - before.jvmCpuNanos) / 1e3;
      double machine = (after.machineCpuTicks - before.machineCpuTicks) * 1e6 / TICKS_PER_SECOND;
      return new Rate(perSecond, (after.commits - before.commits) / (double) units,
          (after.walBytes - before.walBytes) / (double) units, jvm / units, (machine - jvm) / units, Double.NaN,
          Double.NaN, Double.NaN);
    }

    static Rate unmeasured(double perSecond) {
      return new Rate(perSecond, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
          Double.NaN);
    }

    Rate withBuildMillis(double millis) {
      return new Rate(perSecond, commitsPerUnit, walBytesPerUnit, jvmCpuMicrosPerUnit, otherCpuMicrosPerUnit, millis,
          statementsPerUnit, perSecondByBodies);
    }

    Rate withStatementsPerUnit(double value) {
      return new Rate(perSecond, commitsPerUnit, walBytesPerUnit, jvmCpuMicrosPerUnit, otherCpuMicrosPerUnit,
          buildMillis, value, perSecondByBodies);
    }

    Rate withPerSecondByBodies(double value) {
      return new Rate(perSecond, commitsPerUnit, walBytesPerUnit, jvmCpuMicrosPerUnit, otherCpuMicrosPerUnit,
          buildMillis, statementsPerUnit, value);
    }

    /** This rate with the one clocked by the bodies in its place. */
    Rate byBodies() {
      return new Rate(perSecondByBodies, commitsPerUnit, walBytesPerUnit, jvmCpuMicrosPerUnit, otherCpuMicrosPerUnit,
          buildMillis, statementsPerUnit, perSecondByBodies);
    }
  }

  /**
   * The time from the first unit's body to the last's, read in the bodies themselves: the same clock for both
   * sides, where each side's own clock starts elsewhere (db-scheduler's at {@code start()}, after its
   * construction; the engine's before its {@code build()}, which checks the schema and starts the workers).
   * Each body marks the clock once; its work is nothing else.
   */
  static final class BodyClock {
    // nanoTime's origin is arbitrary (its readings may be negative): the bounds start at the far ends
    private final AtomicLong first = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong last = new AtomicLong(Long.MIN_VALUE);
    private final AtomicLong marks = new AtomicLong();

    void mark() {
      long now = System.nanoTime();
      first.accumulateAndGet(now, Math::min);
      last.accumulateAndGet(now, Math::max);
      marks.incrementAndGet();
    }

    /** Units a second from the first mark to the last; fails when fewer than {@code units} marked it. */
    double perSecond(long units) {
      if (marks.get() < units) {
        throw new IllegalStateException(marks.get() + " bodies ran, not " + units);
      }
      return units / ((last.get() - first.get()) / 1e9);
    }
  }

  /**
   * Means over the rounds given (all but the first): each side's rate and CPU a unit, the ratio of the mean rates,
   * the lowest and highest round's ratio, and how many rounds had the engine at least as fast.
   */
  private static void summary(String engineSteps, List<Rate> engines, List<Rate> schedulers) {
    double engine = engines.stream().mapToDouble(Rate::perSecond).average().orElseThrow();
    double scheduler = schedulers.stream().mapToDouble(Rate::perSecond).average().orElseThrow();
    double low = Double.MAX_VALUE;
    double high = 0;
    int atLeast = 0;
    for (int i = 0; i < engines.size(); i++) {
      double ratio = engines.get(i).perSecond() / schedulers.get(i).perSecond();
      low = Math.min(low, ratio);
      high = Math.max(high, ratio);
      atLeast += ratio >= 1.0 ? 1 : 0;
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("benchmark", "engine_vs_db_scheduler_summary");
    line.put("engine_steps", engineSteps);
    line.put("rounds_counted", engines.size());
    line.put("engine_steps_per_second_mean", round(engine));
    line.put("db_scheduler_executions_per_second_mean", round(scheduler));
    line.put("ratio_of_means", round(engine / scheduler));
    line.put("ratio_lowest", round(low));
    line.put("ratio_highest", round(high));
    line.put("rounds_engine_at_least_as_fast", atLeast);
    line.put("engine_cpu_us_per_step_mean", round(engines.stream()
        .mapToDouble(r -> r.jvmCpuMicrosPerUnit() + r.otherCpuMicrosPerUnit()).average().orElseThrow()));
    line.put("db_scheduler_cpu_us_per_execution_mean", round(schedulers.stream()
        .mapToDouble(r -> r.jvmCpuMicrosPerUnit() + r.otherCpuMicrosPerUnit()).average().orElseThrow()));
    print(line);
  }

  /**
   * The database's commits and the cluster's write-ahead log (the benchmark runs alone on it), this JVM's CPU time
   * and the machine's busy CPU time: what is not this JVM's is, on an otherwise idle machine, PostgreSQL's.
   */
  record Counters(long commits, long walBytes, long jvmCpuNanos, long machineCpuTicks) {}

  /** The CPU time, in microseconds, the machine spent outside this JVM between two readings. */
  static double otherCpuMicros(Counters before, Counters after) {
    double jvm = (after.jvmCpuNanos() - before.jvmCpuNanos()) / 1e3;
    double machine = (after.machineCpuTicks() - before.machineCpuTicks()) * 1e6 / TICKS_PER_SECOND;
    return machine - jvm;
  }

  /** Linux's USER_HZ, the unit of /proc/stat; 100 on every architecture Java runs on here. */
  static final double TICKS_PER_SECOND = 100;

  static long jvmCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
        .getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /**
   * Busy ticks of all CPUs since boot: user, nice, system, irq and softirq from the first line of /proc/stat. Not
   * idle or iowait, nor steal: time the hypervisor gave another guest is nobody's work here, and on this kind of
   * machine it came and went by the second.
   */
  static long machineCpuTicks() {
    try {
      String[] cpu = java.nio.file.Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
      long busy = 0;
      for (int i = 1; i < cpu.length && i <= 7; i++) {
        if (i != 4 && i != 5) {
          busy += Long.parseLong(cpu[i]);
        }
      }
      return busy;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static HikariDataSource pool(PostgresTestDatabase db, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(size);
    config.setPoolName("db-scheduler");
    return new HikariDataSource(config);
  }

  /** The pool the engine would make for itself: as many connections as its builder's default. */
  private static HikariDataSource enginePool(PostgresTestDatabase db, int threads) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(db.url());
    config.setUsername(db.user());
    config.setPassword(db.password());
    config.setMaximumPoolSize(Math.max(10, threads / 2 + 4));
    config.setPoolName("zop-provisioner");
    return new HikariDataSource(config);
  }

  /** db-scheduler's own PostgreSQL table, as its repository defines it for 16.7.1. */
  private static void createSchedulerTable(DataSource pool) throws SQLException {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("""
          create table scheduled_tasks (
            task_name text not null,
            task_instance text not null,
            task_data bytea,
            execution_time timestamp with time zone not null,
            picked BOOLEAN not null,
            picked_by text,
            last_success timestamp with time zone,
            last_failure timestamp with time zone,
            consecutive_failures INT,
            last_heartbeat timestamp with time zone,
            version BIGINT not null,
            priority SMALLINT,
            PRIMARY KEY (task_name, task_instance)
          )""");
      s.execute("CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time)");
      s.execute("CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat)");
      s.execute("CREATE INDEX priority_execution_time_idx on scheduled_tasks (priority desc, execution_time asc)");
    }
  }

  /**
   * Clears the dead rows of the rounds before, as autovacuum would between them on a host that runs it (this one
   * does not): otherwise each side starts a round on every earlier round's dead rows, and db-scheduler, whose
   * executions delete their rows, ran a round at half its first rate by the eighth.
   */
  private static void vacuum(DataSource pool) throws SQLException {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE");
    }
  }

  /** The counters so far; every backend that ran transactions has reported them on close. */
  static Counters counters(DataSource pool) throws SQLException {
    try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("select pg_stat_clear_snapshot()");
      try (ResultSet r = s.executeQuery("select (select xact_commit from pg_stat_database"
          + " where datname = current_database()), wal_bytes from pg_stat_wal")) {
        r.next();
        return new Counters(r.getLong(1), r.getLong(2), jvmCpuNanos(), machineCpuTicks());
      }
    }
  }

  /**
   * One-time tasks with an empty body, inserted due now in one batch, then run by a scheduler polling with
   * lock-and-fetch; timed from its start until the last execution ends. db-scheduler at its best on this load:
   * lock-and-fetch (1.0, 4.0) — it fetches again once its queue is down to the thread count, up to four times the
   * threads at once — and a 10 ms poll. The (0.5, 1.0) and 100 ms poll this benchmark set before ran some half as
   * many executions a second on this load (about 2,300–3,100 against about 5,000, warm).
   */
  private static Rate dbScheduler(HikariDataSource pool, int tasks, int threads) throws Exception {
    String round = Long.toString(System.nanoTime(), 36);
    CountDownLatch done = new CountDownLatch(tasks);
    BodyClock bodies = new BodyClock();
    OneTimeTask<Void> task = Tasks.oneTime("bench-" + round).execute((instance, context) -> {
      bodies.mark();
      done.countDown();
    });
    try (Connection c = pool.getConnection(); PreparedStatement insert = c.prepareStatement(
        "insert into scheduled_tasks (task_name, task_instance, execution_time, picked, version)"
            + " values (?, ?, now(), false, 1)")) {
      for (int i = 0; i < tasks; i++) {
        insert.setString(1, "bench-" + round);
        insert.setString(2, "i" + i);
        insert.addBatch();
        if (i % 1000 == 999) {
          insert.executeBatch();
        }
      }
      insert.executeBatch();
    }
    vacuum(pool);
    // its own pool, closed before counting, so its connections' statistics are flushed
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(pool.getJdbcUrl());
    config.setUsername(pool.getUsername());
    config.setPassword(pool.getPassword());
    config.setMaximumPoolSize(threads + 2);
    Counters before;
    double seconds;
    // its statements are counted as the engine's are, through the same proxies, so both sides pay for the counting
    CountingDataSource statements;
    try (HikariDataSource schedulerPool = new HikariDataSource(config)) {
      statements = new CountingDataSource(schedulerPool);
      Scheduler scheduler = Scheduler.create(statements, task).threads(threads)
          .pollUsingLockAndFetch(1.0, 4.0).pollingInterval(Duration.ofMillis(10)).build();
      before = counters(pool);
      long start = System.nanoTime();
      scheduler.start();
      if (!done.await(PATIENCE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException("db-scheduler ran " + (tasks - done.getCount()) + " of " + tasks);
      }
      seconds = (System.nanoTime() - start) / 1e9;
      scheduler.stop();
    }
    return Rate.of(tasks / seconds, tasks, before, counters(pool))
        .withStatementsPerUnit(statements.total() / (double) tasks).withPerSecondByBodies(bodies.perSecond(tasks));
  }

  /**
   * The simulated provider with a network job's four steps replaced by steps whose body does nothing but read the
   * clock, as db-scheduler's tasks do: what such a step costs is the engine's own work, with no simulated cloud in
   * it.
   */
  private static CloudProvider emptySteps(CloudProvider sim, BodyClock clock) {
    List<Step> steps = new ArrayList<>();
    for (int i = 1; i <= 4; i++) {
      steps.add(ProviderStep.of("empty-" + i, List.of(), context -> {
        clock.mark();
        return StepResult.done();
      }));
    }
    return new ReplacedSteps(sim, JobKind.NETWORK, steps);
  }

  /**
   * Jobs of four quick steps each are submitted with workers off, then one engine runs them all. A step makes
   * two transitions (pending to running, running to succeeded); the figure counts both.
   */
  private static void transitions(String store, int jobCount,
      Function<SimCloud, EmbeddedProvisionerBuilder> engine) throws Exception {
    transitions(store, jobCount, Math.max(4, 4 * Runtime.getRuntime().availableProcessors()), engine, null, null,
        null);
  }

  /**
   * With {@code counted} (PostgreSQL), the engine that runs the jobs does so on a pool of its own whose statements
   * are counted, closed before the database's counters are read so its backends have reported them.
   */
  private static Rate transitions(String store, int jobCount, int threads,
      Function<SimCloud, EmbeddedProvisionerBuilder> engine, DataSource stats, PostgresTestDatabase counted,
      BodyClock bodies) throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false);
    List<JobId> ids = new ArrayList<>();
    Space space;
    try (EmbeddedProvisioner submitter = engine.apply(cloud).runWorkers(false).build()) {
      // a name of its own: rounds run on one database
      space = space(submitter, "bench-" + store + "-" + Long.toString(System.nanoTime(), 36));
      for (int i = 0; i < jobCount; i++) {
        ids.add(submitter.jobs().submit(space.id(), NetworkSpec.named("net-" + i).cidr("10.0.0.0/16")
            .subnet("a", "10.0.1.0/24").subnet("b", "10.0.2.0/24").subnet("c", "10.0.3.0/24")).id());
      }
    }
    if (stats != null) {
      vacuum(stats);
    }
    Counters before = stats == null ? null : counters(stats);
    long start = System.nanoTime();
    double seconds;
    long steps = jobCount * 4L;
    double buildMillis;
    HikariDataSource enginePool = counted == null ? null : enginePool(counted, threads);
    CountingDataSource statements = enginePool == null ? null : new CountingDataSource(enginePool);
    try (EmbeddedProvisioner worker = (statements == null ? engine.apply(cloud)
        : engine.apply(cloud).dataSource(statements)).workerThreads(threads).build()) {
      buildMillis = (System.nanoTime() - start) / 1e6;
      awaitAllFinished(enginePool != null ? enginePool : worker.dataSource(), space, ids.get(ids.size() - 1));
      seconds = (System.nanoTime() - start) / 1e9;
    } finally {
      if (enginePool != null) {
        enginePool.close();
      }
    }
    // the engine is closed: its connections have reported their commits. The check below reads every job, work
    // that is not the engine's, so it comes after.
    Counters after = stats == null ? null : counters(stats);
    try (EmbeddedProvisioner check = engine.apply(cloud).runWorkers(false).build()) {
      for (JobId id : ids) {
        Job done = check.jobs().get(id);
        if (done.status() != JobStatus.SUCCEEDED) {
          throw new IllegalStateException(id + " ended " + done.status());
        }
      }
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("benchmark", "step_transitions");
    line.put("store", store);
    line.put("jobs", jobCount);
    line.put("steps", steps);
    line.put("worker_threads", threads);
    line.put("seconds", round(seconds));
    line.put("steps_per_second", round(steps / seconds));
    if (bodies != null) {
      line.put("steps_per_second_by_bodies", round(bodies.perSecond(steps)));
    }
    line.put("transitions_per_second", round(2 * steps / seconds));
    line.put("build_ms", round(buildMillis));
    if (statements != null) {
      line.put("statements_per_step", round(statements.total() / (double) steps));
      line.put("client_commits_per_step", round(statements.commits() / (double) steps));
    }
    print(line);
    if (statements != null && Boolean.getBoolean("bench.statements")) {
      Map<String, Object> each = new LinkedHashMap<>();
      each.put("benchmark", "statements_per_step_by_sql");
      statements.statements().forEach((sql, n) -> each.put(sql.replace("\"", "'"), round(n / (double) steps)));
      print(each);
    }
    Rate rate = stats == null ? Rate.unmeasured(steps / seconds) : Rate.of(steps / seconds, steps, before, after);
    if (bodies != null) {
      rate = rate.withPerSecondByBodies(bodies.perSecond(steps));
    }
    return rate.withBuildMillis(buildMillis).withStatementsPerUnit(
        statements == null ? Double.NaN : statements.total() / (double) steps);
  }

  /**
   * Jobs submitted with idempotency keys on an engine whose workers are off, from {@code callers} threads at once:
   * what a host embedding the engine pays to queue work. With {@code stats} (PostgreSQL), also the commits a job cost.
   */
  private static void submits(String store, int round, int count, int callers,
      Function<SimCloud, EmbeddedProvisionerBuilder> engine, DataSource stats) throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false);
    try (EmbeddedProvisioner zop = engine.apply(cloud).runWorkers(false).build()) {
      Space space = space(zop, "bench-submit-" + callers + "-" + Long.toString(System.nanoTime(), 36));
      String run = Long.toString(System.nanoTime(), 36);
      java.util.function.IntConsumer submit = i -> zop.jobs().submit(space.id(),
          NetworkSpec.named("net-" + i).cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24").build(),
          dev.zop.provisioner.SubmitOptions.idempotencyKey(run + "-" + i));
      for (int i = 0; i < 200; i++) { // warm-up: JIT and pool
        submit.accept(-1 - i);
      }
      java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(callers);
      List<java.util.concurrent.Future<?>> running = new ArrayList<>();
      Counters before = stats == null ? new Counters(0, 0, jvmCpuNanos(), machineCpuTicks()) : counters(stats);
      long start = System.nanoTime();
      for (int t = 0; t < callers; t++) {
        running.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
            submit.accept(i);
          }
        }));
      }
      for (java.util.concurrent.Future<?> f : running) {
        f.get(PATIENCE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      Counters after = stats == null ? new Counters(0, 0, jvmCpuNanos(), machineCpuTicks()) : counters(stats);
      pool.shutdown();
      Rate rate = Rate.of(count / seconds, count, before, after);
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("benchmark", "submits");
      line.put("store", store);
      line.put("round", round);
      line.put("callers", callers);
      line.put("jobs", count);
      line.put("jobs_per_second", round(count / seconds));
      if (stats != null) {
        line.put("commits_per_job", round(rate.commitsPerUnit()));
      }
      line.put("jvm_cpu_us_per_job", round(rate.jvmCpuMicrosPerUnit()));
      line.put("other_cpu_us_per_job", round(rate.otherCpuMicrosPerUnit()));
      print(line);
    }
  }

  /**
   * Waits until no job of {@code space} is still pending or running. Every 20 ms it reads the row of the job
   * submitted last (jobs are claimed in the order they became due, so it is among the last to finish); only once
   * that one has finished does it count the space's unfinished jobs. Awaiting each job in turn would read its row
   * at every step it takes, and counting the space every 20 ms would read every job's row as often: either would
   * be counted as the engine's work.
   */
  private static void awaitAllFinished(DataSource store, Space space, JobId last) throws Exception {
    long deadline = System.nanoTime() + PATIENCE.toNanos();
    try (Connection c = store.getConnection();
        PreparedStatement lastOne = c.prepareStatement(
            "select status from provisioning_jobs where id = ? and status in ('pending', 'running')");
        PreparedStatement unfinished = c.prepareStatement(
            "select count(*) from provisioning_jobs where space_id = ? and status in ('pending', 'running')")) {
      lastOne.setString(1, last.value());
      unfinished.setString(1, space.id().value());
      while (true) {
        boolean lastRunning;
        try (ResultSet r = lastOne.executeQuery()) {
          lastRunning = r.next();
        }
        if (!lastRunning) {
          try (ResultSet r = unfinished.executeQuery()) {
            r.next();
            if (r.getLong(1) == 0) {
              return;
            }
          }
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("jobs still running after " + PATIENCE);
        }
        Thread.sleep(20);
      }
    }
  }

  /**
   * Submits jobs whose cluster never finishes creating, waits until every one is parked on it, then reports heap
   * after a full GC and the live thread count. The simulated cloud's own records are part of that heap.
   */
  private static void waitingJobs(int count) throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false).stuckCreating("kubernetes-cluster");
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    try (EmbeddedProvisioner zop = TestEngines.h2(tempDir(), cloud).build()) {
      cloud.pollInterval(Duration.ofMinutes(30));
      Space space = space(zop, "bench-waiting");
      long start = System.nanoTime();
      List<JobId> ids = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        ids.add(zop.jobs().submit(space.id(), KubernetesSpec.named("c" + i).version("1.30")
            .nodeGroup("default", "m5.large", 1, 3)).id());
      }
      long parked;
      do {
        Thread.sleep(200);
        parked = cloud.stepRuns().entrySet().stream()
            .filter(e -> e.getKey().endsWith("/await-cluster")).count();
      } while (parked < count && System.nanoTime() - start < PATIENCE.toNanos());
      double seconds = (System.nanoTime() - start) / 1e9;
      System.gc();
      Thread.sleep(500);
      System.gc();
      long heap = memory.getHeapMemoryUsage().getUsed();
      Job sample = zop.jobs().get(ids.get(count / 2));
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("benchmark", "waiting_jobs");
      line.put("store", "h2");
      line.put("jobs_waiting", parked);
      line.put("sample_status", sample.status().wireName());
      line.put("seconds_to_park_all", round(seconds));
      line.put("heap_used_mb", round(heap / 1024.0 / 1024.0));
      line.put("heap_max_mb", round(memory.getHeapMemoryUsage().getMax() / 1024.0 / 1024.0));
      line.put("live_threads", ManagementFactory.getThreadMXBean().getThreadCount());
      line.put("sim_resources", cloud.resources().size());
      print(line);
    }
  }

  private static Space space(EmbeddedProvisioner zop, String name) {
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", name));
    return zop.spaces().create(SpaceRequest.of("sim", name, account.id()).region("sim-east-1"));
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("zop-bench");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }

  static void print(Map<String, ?> fields) {
    StringBuilder json = new StringBuilder("{");
    fields.forEach((k, v) -> {
      if (json.length() > 1) {
        json.append(", ");
      }
      json.append('"').append(k).append("\": ");
      json.append(v instanceof Number ? String.format(Locale.ROOT, "%s", v) : "\"" + v + "\"");
    });
    System.out.println(json.append('}'));
  }
}
