package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.testkit.sim.SimCloud;
import java.lang.management.ManagementFactory;
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
 * <p>System properties: {@code bench.jobs} (throughput jobs, default 2000), {@code bench.waiting} (default
 * 10000), {@code bench.postgres} (false skips the PostgreSQL runs). Run through {@code ./mvnw -pl benchmarks
 * exec:exec}, which forks a JVM with {@code -Xmx256m} so the memory figure is this engine's, not Maven's.
 */
public final class EngineBenchmark {
  private static final Duration PATIENCE = Duration.ofMinutes(10);

  public static void main(String[] args) throws Exception {
    int jobs = Integer.getInteger("bench.jobs", 2000);
    int waiting = Integer.getInteger("bench.waiting", 10_000);
    boolean postgres = Boolean.parseBoolean(System.getProperty("bench.postgres", "true"));

    startup();
    Path h2 = tempDir();
    transitions("h2", jobs, cloud -> TestEngines.h2(h2, cloud));
    if (postgres) {
      try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
        transitions("postgresql", jobs, cloud -> TestEngines.jdbc(db.url(), db.user(), db.password(), cloud));
      }
    }
    waitingJobs(waiting);
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
   * Jobs of four quick steps each are submitted with workers off, then one engine runs them all. A step makes
   * two transitions (pending to running, running to succeeded); the figure counts both.
   */
  private static void transitions(String store, int jobCount,
      Function<SimCloud, EmbeddedProvisionerBuilder> engine) throws Exception {
    SimCloud cloud = SimCloud.create().recordCalls(false);
    List<JobId> ids = new ArrayList<>();
    try (EmbeddedProvisioner submitter = engine.apply(cloud).runWorkers(false).build()) {
      Space space = space(submitter, "bench-" + store);
      for (int i = 0; i < jobCount; i++) {
        ids.add(submitter.jobs().submit(space.id(), NetworkSpec.named("net-" + i).cidr("10.0.0.0/16")
            .subnet("a", "10.0.1.0/24").subnet("b", "10.0.2.0/24").subnet("c", "10.0.3.0/24")).id());
      }
    }
    int threads = Math.max(4, 4 * Runtime.getRuntime().availableProcessors());
    long start = System.nanoTime();
    try (EmbeddedProvisioner worker = engine.apply(cloud).workerThreads(threads).build()) {
      for (JobId id : ids) {
        Job done = worker.jobs().await(id, PATIENCE);
        if (done.status() != JobStatus.SUCCEEDED) {
          throw new IllegalStateException(id + " ended " + done.status());
        }
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      long steps = jobCount * 4L;
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("benchmark", "step_transitions");
      line.put("store", store);
      line.put("jobs", jobCount);
      line.put("steps", steps);
      line.put("worker_threads", threads);
      line.put("seconds", round(seconds));
      line.put("steps_per_second", round(steps / seconds));
      line.put("transitions_per_second", round(2 * steps / seconds));
      print(line);
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

  private static void print(Map<String, ?> fields) {
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
