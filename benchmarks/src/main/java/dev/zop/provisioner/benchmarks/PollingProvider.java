package dev.zop.provisioner.benchmarks;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
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

  private final CloudProvider sim;
  private final long everyMillis;
  private final AtomicLong firstRuns = new AtomicLong();
  private final AtomicLong polls = new AtomicLong();
  private volatile AtomicLongArray lateness = new AtomicLongArray(BUCKETS);

  PollingProvider(CloudProvider sim, Duration every) {
    if (every.toMillis() < 2_000) {
      throw new IllegalArgumentException("polls at least 2 s apart, not " + every);
    }
    this.sim = sim;
    this.everyMillis = every.toMillis();
  }

  /** Jobs whose step has run once and parked. */
  long parked() {
    return firstRuns.get();
  }

  /** Polls after the first run, so far. */
  long polls() {
    return polls.get();
  }

  /** Starts a new lateness histogram and returns the one filled so far. */
  AtomicLongArray takeLateness() {
    AtomicLongArray taken = lateness;
    lateness = new AtomicLongArray(BUCKETS);
    return taken;
  }

  @Override
  public ProviderMetadata metadata() {
    return sim.metadata();
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    ProviderSession session = sim.open(account, region);
    return new ProviderSession() {
      @Override
      public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
        @SuppressWarnings("unchecked")
        ResourceDriver<ResourceSpec> inner = (ResourceDriver<ResourceSpec>) session.driver(kind);
        return kind == JobKind.NETWORK ? new Polling(inner) : inner;
      }

      @Override
      public Failure classify(Throwable error) {
        return session.classify(error);
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }

  private final class Polling implements ResourceDriver<ResourceSpec> {
    private final ResourceDriver<ResourceSpec> inner;

    Polling(ResourceDriver<ResourceSpec> inner) {
      this.inner = inner;
    }

    @Override
    public Class<ResourceSpec> specType() {
      return inner.specType();
    }

    @Override
    public List<FieldError> validate(ResourceSpec spec) {
      return inner.validate(spec);
    }

    @Override
    public List<Step> create(ResourceSpec spec) {
      return List.of(new Step() {
        @Override
        public String name() {
          return "poll";
        }

        @Override
        public List<String> permissions() {
          return List.of();
        }

        @Override
        public StepResult run(StepContext context) {
          return poll(context.jobId().value().hashCode(), context.startedAt(), Instant.now());
        }
      });
    }

    @Override
    public List<Step> teardown(ResourceSpec spec, Outputs recorded) {
      return List.of();
    }

    @Override
    public List<CostComponent> price(ResourceSpec spec, String region) {
      return inner.price(spec, region);
    }
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
