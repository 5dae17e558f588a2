package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.testkit.TestEngines;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A scheduled drift check over many jobs on the simulated cloud (a test double, with no latency: the figures are
 * the engine's work and the calls it makes, not a cloud's answer times), on H2 and, unless
 * {@code -Dbench.postgres=false}, on PostgreSQL. {@code bench.driftJobs} (default 1000) Kubernetes jobs of a
 * cluster, its role and two node groups each are made in a space with a schedule; one pass of the schedule then
 * checks every one, and a second pass, made at once, finds none due. Prints JSON lines: the cloud calls and the
 * engine's wall and CPU time, per pass and per check; and, after a tenth of the node groups were changed by hand,
 * the same checks on request with the drifted jobs they found. Run with
 * {@code ./mvnw -pl benchmarks exec:exec -Dbench.main=dev.zop.provisioner.benchmarks.DriftBenchmark}.
 */
public final class DriftBenchmark {
  private static final Duration PATIENCE = Duration.ofMinutes(10);

  public static void main(String[] args) throws Exception {
    int jobs = Integer.getInteger("bench.driftJobs", 1000);
    boolean postgres = Boolean.parseBoolean(System.getProperty("bench.postgres", "true"));
    SimCloud onH2 = SimCloud.create();
    run("h2", jobs, onH2, TestEngines.h2(Files.createTempDirectory("zop-drift-bench"), onH2));
    if (postgres) {
      try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
        SimCloud onPostgres = SimCloud.create();
        run("postgres", jobs, onPostgres, TestEngines.jdbc(database.url(), database.user(), database.password(),
            onPostgres));
      }
    }
  }

  private static void run(String store, int jobs, SimCloud cloud, EmbeddedProvisionerBuilder builder) {
    try (EmbeddedProvisioner zop = builder
        .driftScheduleInterval(Duration.ofDays(1)) // the passes below are run by hand, so they are measured alone
        .build()) {
      CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "drift-bench"));
      Space space = zop.spaces().create(SpaceRequest.of("sim", "drift-bench", account.id()).region("sim-east-1")
          .config("driftCheckMinutes", "60"));
      List<Job> made = new ArrayList<>();
      for (int i = 0; i < jobs; i++) {
        made.add(zop.jobs().submit(space.id(), KubernetesSpec.named("bench-" + i).version("1.30")
            .nodeGroup("general", "m5.large", 2, 5).nodeGroup("batch", "c5.xlarge", 0, 10).build()));
      }
      for (Job job : made) {
        Job done = zop.jobs().await(job.id(), PATIENCE);
        if (done.status() != JobStatus.SUCCEEDED) {
          throw new IllegalStateException(job.id() + " ended " + done.status() + ": " + done.lastFailure());
        }
      }
      pass(zop, cloud, store, "first_pass_in_sync", jobs);
      for (int i = 0; i < jobs; i += 10) {
        cloud.changeByHand("node-group", "bench-" + i + "-general", Map.of("max", "9"));
      }
      // every job was just checked, so a pass now finds none due: what a pass costs when there is nothing to do
      pass(zop, cloud, store, "second_pass_none_due", jobs);
      int drifted = 0;
      long started = System.nanoTime();
      long callsBefore = cloud.calls().size();
      for (Job job : made) {
        if (zop.jobs().checkDrift(job.id()).status() == dev.zop.provisioner.DriftReport.Status.DRIFTED) {
          drifted++;
        }
      }
      long took = System.nanoTime() - started;
      System.out.printf(Locale.ROOT, "{\"store\":\"%s\",\"figure\":\"checks_on_request\",\"jobs\":%d,"
          + "\"drifted\":%d,\"cloud_calls\":%d,\"wall_ms\":%.1f,\"wall_ms_per_check\":%.3f}%n", store, jobs,
          drifted, cloud.calls().size() - callsBefore, took / 1e6, took / 1e6 / jobs);
    }
  }

  private static void pass(EmbeddedProvisioner zop, SimCloud cloud, String store, String figure, int jobs) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long callsBefore = cloud.calls().size();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long started = System.nanoTime();
    int checked = zop.runDriftSchedule();
    long wall = System.nanoTime() - started;
    long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
    long calls = cloud.calls().size() - callsBefore;
    System.out.printf(Locale.ROOT, "{\"store\":\"%s\",\"figure\":\"%s\",\"jobs\":%d,\"checked\":%d,\"cloud_calls\":%d,"
        + "\"cloud_calls_per_check\":%.2f,\"wall_ms\":%.1f,\"wall_ms_per_check\":%.3f,\"cpu_ms_per_check\":%.3f}%n",
        store, figure, jobs, checked, calls, checked == 0 ? 0.0 : (double) calls / checked, wall / 1e6,
        checked == 0 ? 0.0 : wall / 1e6 / checked, checked == 0 ? 0.0 : cpu / 1e6 / checked);
  }
}
