package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.StepResult;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.sim.ReplacedSteps;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The simulated provider, except that a network job is one step that polls its resource for ever, every
 * {@code every}: a job parked on the cloud, as a cluster being made or a resource checked on a schedule is, with
 * nothing of it held in this JVM between its polls (the simulated cloud itself would keep a record per resource,
 * and the heap measured is to be the engine's).
 *
 * <p>A job's polls fall due at fixed points: its step's start, plus an offset of its own (from its id, between a
 * second and {@code every}, so that however the jobs were submitted their polls fall due evenly over time), plus
 * whole multiples of {@code every}. The step works out which point a poll answers from the start the engine gives
 * it and the time now, so how late each poll ran is known with no memory per job: the lateness is counted in a
 * histogram of millisecond buckets.
 */
final class PollingProvider implements CloudProvider {
  /** Lateness buckets: 0..59,999 ms one a millisecond, the rest in the last. */
  static final int BUCKETS = 60_000;

  private final CloudProvider replaced;
  private final long everyMillis;
  private final AtomicLong firstRuns = new AtomicLong();
  private final AtomicLong polls = new AtomicLong();
  private volatile AtomicLongArray lateness = new AtomicLongArray(BUCKETS);

  PollingProvider(CloudProvider sim, Duration every) {
    if (every.toMillis() < 2_000) {
      throw new IllegalArgumentException("polls at least 2 s apart, not " + every);
    }
    this.everyMillis = every.toMillis();
    this.replaced = new ReplacedSteps(sim, JobKind.NETWORK, List.of(ProviderStep.of("poll", List.of(),
        context -> poll(context.jobId().value().hashCode(), context.startedAt(), Instant.now()))));
  }

  /** Jobs whose step has run once and parked. */
  long parked() {
    return firstRuns.get();
  }

  /** Polls after the first run, so far. */
  long polls() {
    return polls.get();
  }

  /** The smallest lateness (ms) at or below which a share {@code q} of a histogram's polls ran; -1 when empty. */
  static long quantile(AtomicLongArray buckets, double q) {
    long total = 0;
    for (int i = 0; i < buckets.length(); i++) {
      total += buckets.get(i);
    }
    long wanted = (long) Math.ceil(q * total);
    long seen = 0;
    for (int i = 0; i < buckets.length(); i++) {
      seen += buckets.get(i);
      if (seen >= wanted && seen > 0) {
        return i;
      }
    }
    return -1;
  }

  /** Starts a new lateness histogram and returns the one filled so far. */
  AtomicLongArray takeLateness() {
    AtomicLongArray taken = lateness;
    lateness = new AtomicLongArray(BUCKETS);
    return taken;
  }

  @Override
  public ProviderMetadata metadata() {
    return replaced.metadata();
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    return replaced.open(account, region);
  }

  /**
   * One poll: which due point it answers (the last at or before now, give or take the 50 ms by which the start the
   * engine recorded may precede this JVM's reading of it on the first run), its lateness, and the wait to the next.
   * The first run, at the step's start, comes before the first due point.
   */
  private StepResult poll(int jobHash, Instant startedAt, Instant now) {
    long offset = 1_000 + Math.floorMod(jobHash, everyMillis - 1_000);
    long sinceFirstPoint = now.toEpochMilli() - startedAt.toEpochMilli() - offset;
    if (sinceFirstPoint < -50) {
      firstRuns.incrementAndGet();
      return StepResult.waitFor(Duration.ofMillis(-sinceFirstPoint), "polling");
    }
    long point = Math.max(0, (sinceFirstPoint + 50) / everyMillis);
    polls.incrementAndGet();
    long late = Math.max(0, sinceFirstPoint - point * everyMillis);
    lateness.incrementAndGet((int) Math.min(late, BUCKETS - 1));
    long next = (point + 1) * everyMillis - sinceFirstPoint;
    return StepResult.waitFor(Duration.ofMillis(Math.max(1, next)), "polling");
  }
}
