package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.Database;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.sql.ResultSet;
import java.sql.Statement;
import dev.zop.provisioner.JobKind;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What an operator watches of the engine, as Micrometer meters in the host's registry:
 *
 * <ul>
 *   <li>{@code zop.jobs} (gauge, tags {@code kind}, {@code status}): the store's jobs (provisioning and
 *       remediation) by kind and status, read at most every five seconds;</li>
 *   <li>{@code zop.steps} (timer with the buckets {@link #STEP_BUCKETS}, tags {@code provider}, {@code kind},
 *       {@code step}, {@code outcome}: succeeded, waiting, retrying, failed): each run of a step's body, the cloud
 *       calls in it. {@code step} is the step's {@link dev.zop.provisioner.spi.Step#kind kind}, never a name a
 *       spec chose; past {@link #STEP_LABELS} kinds a provider's job kind, further ones are counted as
 *       {@code other}, so a plug-in that names its steps after its specs cannot grow the series without end;</li>
 *   <li>{@code zop.jobs.duration} (timer with the buckets {@link #JOB_BUCKETS}, tags {@code provider},
 *       {@code kind}, {@code status}: succeeded, failed): from a job's submission to the end of its create phase,
 *       waits and retries included, as this engine saw it end;</li>
 *   <li>{@code zop.step.failures} (counter, tags {@code provider}, {@code category}), {@code zop.step.retries}
 *       (counter, tags {@code provider}, {@code kind}): registered at zero for every installed provider (and its
 *       kinds, and each category) when the engine starts, so a rate over them needs no first failure;
 *       {@code zop.claims} (jobs this engine leased),
 *       {@code zop.claim.queries} (the claim transactions that leased them, those that found nothing included),
 *       {@code zop.lease.losses} (runs stopped because another engine holds the job now).</li>
 * </ul>
 *
 * <p>Without a registry the meters go nowhere (an empty composite registry).
 */
public final class EngineMetrics {
  private static final Duration FRESH = Duration.ofSeconds(5);

  /**
   * A step's run: a describe call takes tens of milliseconds, a create call a second or two, a body that waits
   * in-line on an operation minutes. Fixed bounds rather than Micrometer's percentile histogram, whose 70-odd
   * buckets a series made scrapes of a few dozen jobs hundreds of kilobytes.
   */
  public static final List<Duration> STEP_BUCKETS = seconds(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
      60, 300, 900);

  /** A job from submission to the end of its create phase: a registry in seconds, a cluster in 10 to 20 minutes. */
  public static final List<Duration> JOB_BUCKETS = seconds(1, 5, 15, 30, 60, 120, 300, 600, 900, 1200, 1800,
      3600, 7200);

  /** The most step kinds labelled apart for one provider's job kind. */
  public static final int STEP_LABELS = 64;

  private final MeterRegistry registry;
  private final Counter claims;
  private final Counter claimQueries;
  private final Counter leaseLosses;
  private volatile Map<String, Long> counts = Map.of();
  private volatile long countedAt;

  public EngineMetrics(MeterRegistry registry) {
    this.registry = registry != null ? registry : new CompositeMeterRegistry();
    this.claims = Counter.builder("zop.claims").description("jobs this engine leased to run")
        .register(this.registry);
    this.claimQueries = Counter.builder("zop.claim.queries")
        .description("claim transactions this engine ran, those that found no due job included").register(this.registry);
    this.leaseLosses = Counter.builder("zop.lease.losses")
        .description("runs stopped because the job's lease passed to another engine").register(this.registry);
  }

  /**
   * The store's jobs by kind and status, as gauges; the count is one grouped query, shared by the gauges and
   * cached.
   */
  void watchJobs(Database db) {
    for (JobKind kind : JobKind.values()) {
      for (JobStatus status : JobStatus.values()) {
        Gauge.builder("zop.jobs", () -> count(db, kind, status)).tag("kind", kind.wireName())
            .tag("status", status.wireName()).description("jobs in the store by kind and status").register(registry);
      }
    }
  }

  private long count(Database db, JobKind kind, JobStatus status) {
    long now = System.nanoTime();
    if (now - countedAt > FRESH.toNanos()) {
      Map<String, Long> fresh = new HashMap<>();
      try {
        db.read(c -> {
          try (Statement s = c.createStatement();
              ResultSet r = s.executeQuery("SELECT kind, status, COUNT(*) FROM provisioning_jobs GROUP BY kind,"
                  + " status")) {
            while (r.next()) {
              fresh.put(r.getString(1) + " " + r.getString(2), r.getLong(3));
            }
          }
          return null;
        });
        counts = fresh;
        countedAt = now;
      } catch (RuntimeException e) {
        // a store that cannot answer now shows the last count; the failure is the pool's to report
      }
    }
    return counts.getOrDefault(kind.wireName() + " " + status.wireName(), 0L);
  }

  void claimed(int jobs) {
    claimQueries.increment();
    if (jobs > 0) {
      claims.increment(jobs);
    }
  }

  /** A job written already leased to this engine by its submit, which it runs with no claim. */
  void leasedAtSubmit() {
    claims.increment();
  }

  void leaseLost() {
    leaseLosses.increment();
  }

  /** The counters of every installed provider at zero, so that they are there before anything happens. */
  public void registerProviders(java.util.Collection<dev.zop.provisioner.spi.ProviderMetadata> providers) {
    for (dev.zop.provisioner.spi.ProviderMetadata provider : providers) {
      // a zero recorded, not only registered: an OpenTelemetry counter reports nothing until its first measurement
      for (FailureCategory category : FailureCategory.values()) {
        failures(provider.id(), category).increment(0);
      }
      for (dev.zop.provisioner.JobKind kind : provider.kinds()) {
        retries(provider.id(), kind.wireName()).increment(0);
      }
    }
  }

  /** A run of a step of kind {@code stepKind} ({@link dev.zop.provisioner.spi.Step#kind}). */
  void stepRan(JobRecord job, String stepKind, String outcome, long nanos) {
    String label = stepLabel(job.provider(), job.kind(), stepKind);
    stepTimers.computeIfAbsent(new StepTimer(job.provider(), job.kind(), label, outcome), key ->
        Timer.builder("zop.steps").description("runs of a step's body, its cloud calls included")
            .tag("provider", key.provider()).tag("kind", key.kind().wireName()).tag("step", key.step())
            .tag("outcome", key.outcome()).serviceLevelObjectives(STEP_BUCKETS.toArray(Duration[]::new))
            .register(registry))
        .record(Duration.ofNanos(nanos));
  }

  /** {@code stepKind}, or {@code other} once the provider's job kind has {@link #STEP_LABELS} others. */
  private String stepLabel(String provider, JobKind kind, String stepKind) {
    Set<String> seen = stepLabels.computeIfAbsent(provider + " " + kind.wireName(),
        key -> ConcurrentHashMap.newKeySet());
    if (seen.contains(stepKind)) {
      return stepKind;
    }
    synchronized (seen) {
      if (seen.size() < STEP_LABELS) {
        seen.add(stepKind);
        return stepKind;
      }
    }
    return "other";
  }

  private final Map<String, Set<String>> stepLabels = new ConcurrentHashMap<>();

  /** A step timer's tags. */
  private record StepTimer(String provider, dev.zop.provisioner.JobKind kind, String step, String outcome) {}

  /**
   * The step timers made so far: a step's run looked its timer up in the registry by its tags, sorted and hashed
   * afresh each time, which cost a few percent of a step's CPU. Bounded by {@link #STEP_LABELS}.
   */
  private final java.util.Map<StepTimer, Timer> stepTimers = new java.util.concurrent.ConcurrentHashMap<>();

  /** A job's create phase ended (succeeded or failed) in a write this engine committed. */
  void jobEnded(JobRecord job, JobStatus status) {
    if (job.phase() != dev.zop.provisioner.JobPhase.CREATE || job.createdAt() == null) {
      return;
    }
    jobTimers.computeIfAbsent(new JobTimer(job.provider(), job.kind(), status), key ->
        Timer.builder("zop.jobs.duration")
            .description("from a job's submission to the end of its create phase, waits and retries included")
            .tag("provider", key.provider()).tag("kind", key.kind().wireName()).tag("status", key.status().wireName())
            .serviceLevelObjectives(JOB_BUCKETS.toArray(Duration[]::new)).register(registry))
        .record(Duration.between(job.createdAt(), java.time.Instant.now()));
  }

  /** A job timer's tags. */
  private record JobTimer(String provider, dev.zop.provisioner.JobKind kind, JobStatus status) {}

  /** The job timers made so far, kept for the reason {@link #stepTimers} are; bounded by providers and kinds. */
  private final java.util.Map<JobTimer, Timer> jobTimers = new java.util.concurrent.ConcurrentHashMap<>();

  void retried(JobRecord job) {
    retries(job.provider(), job.kind().wireName()).increment();
  }

  void failed(JobRecord job, FailureCategory category) {
    failures(job.provider(), category).increment();
  }

  private Counter retries(String provider, String kind) {
    return Counter.builder("zop.step.retries").description("transient step failures retried after a back-off")
        .tag("provider", provider).tag("kind", kind).register(registry);
  }

  private Counter failures(String provider, FailureCategory category) {
    return Counter.builder("zop.step.failures")
        .description("step runs that failed, by failure category (a retried transient failure included)")
        .tag("provider", provider).tag("category", category.wireName()).register(registry);
  }

  /** Bucket bounds in seconds, as durations. */
  public static List<Duration> seconds(double... bounds) {
    return Arrays.stream(bounds).mapToObj(b -> Duration.ofNanos(Math.round(b * 1e9))).toList();
  }
}
