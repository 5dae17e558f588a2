package dev.zop.provisioner.testkit.tck;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.SecretStore;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/** A step context held in memory, for running a provider's steps without an engine. */
final class TckContext implements StepContext {
  private final JobId jobId;
  private final UUID stepId = UUID.randomUUID();
  private final Map<String, String> secrets = new ConcurrentHashMap<>();
  private Map<String, String> previous = Map.of();
  private final Map<String, String> own = new LinkedHashMap<>();
  private Map<String, String> declared = Map.of();
  private String stepName;
  private boolean declaring;
  private Instant startedAt = Instant.now();
  private final Consumer<String> reads;

  TckContext(JobId jobId) {
    this(jobId, key -> {});
  }

  /** A context that tells {@code reads} every key its steps ask of their outputs. */
  TckContext(JobId jobId, Consumer<String> reads) {
    this.jobId = jobId;
    this.reads = reads;
  }

  /**
   * A step starts: as the engine does, it is asked the intent it declares before it runs, which is recorded with
   * its start.
   */
  void beginStep(Map<String, String> before, Step step) {
    previous = Map.copyOf(before);
    own.clear();
    startedAt = Instant.now();
    stepName = step.name();
    declaring = true;
    try {
      declared = Map.copyOf(step.intent(this));
    } finally {
      declaring = false;
    }
    own.putAll(declared);
  }

  /** As in the engine, a step declaring its intent records, logs and reads secrets nothing. */
  private void requireRunning(String what) {
    if (declaring) {
      throw new IllegalStateException(what + " is not available while a step declares its intent");
    }
  }

  /** The step starts again after a halt: what it recorded as intent survives, as the engine's store keeps it. */
  void resumeStep() {
    startedAt = Instant.now();
  }

  Map<String, String> ownOutputs() {
    return Map.copyOf(own);
  }

  @Override
  public JobId jobId() {
    return jobId;
  }

  @Override
  public UUID stepId() {
    return stepId;
  }

  @Override
  public Instant startedAt() {
    return startedAt;
  }

  @Override
  public int attempt() {
    return 1;
  }

  @Override
  public Outputs outputs() {
    Map<String, String> all = new LinkedHashMap<>(previous);
    all.putAll(own);
    return Outputs.observed(all, reads);
  }

  @Override
  public void recordIntent(Map<String, String> intent) {
    requireRunning("recordIntent");
    if (!declared.isEmpty() && !declared.entrySet().containsAll(intent.entrySet())) {
      throw new AssertionError(stepName + " declared the intent " + declared + " before it ran but records "
          + intent + ": a declared intent is what the step records, or the write it saves is spent anyway");
    }
    own.putAll(intent);
  }

  @Override
  public SecretStore secrets() {
    requireRunning("secrets");
    return new SecretStore() {
      @Override
      public String id() {
        return "tck";
      }

      @Override
      public SecretRef put(String name, String value) {
        secrets.put(name, value);
        return SecretRef.of("tck:" + name);
      }

      @Override
      public String get(SecretRef ref) {
        String value = secrets.get(ref.value().substring(4));
        if (value == null) {
          throw new NoSuchElementException(ref.value());
        }
        return value;
      }

      @Override
      public SecretRef rotate(SecretRef ref, String newValue) {
        get(ref);
        return put(ref.value().substring(4), newValue);
      }

      @Override
      public void delete(SecretRef ref) {
        secrets.remove(ref.value().substring(4));
      }
    };
  }

  @Override
  public void log(String message) {
    requireRunning("log");
    // progress lines are not part of the contract
  }
}
