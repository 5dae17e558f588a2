package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.SecretStore;
import dev.zop.provisioner.spi.StepContext;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/** The context a step sees; intents and log lines are fenced writes like everything else. */
final class LeasedContext implements StepContext {
  private final StepRun run;
  private final StatusTransitions transitions;
  private final Supplier<SecretStore> secrets;
  private final JobRecord job;
  private final StepRecord row;
  final int attempt;
  /**
   * What the job's earlier steps recorded: the run's own map, read only. It changes only once a step has
   * returned (with its success), so a step sees it as it stood when it began, without a copy for each context.
   */
  private final Map<String, String> previous;
  /** What the step recorded so far (its declared intent among them), and adds to as it runs. */
  final Map<String, String> ownOutputs;
  final Instant startedAt;
  /** Asked for the step's intent before it runs: records, logs and reads secrets nothing. */
  private final boolean beforeRun;

  /**
   * {@code declared}: the intent the step declared, written with its start and so durable, among its own
   * outputs from the start. {@code start}: when the attempt began, or null for a waiting step, which keeps the
   * start its row records.
   */
  LeasedContext(StepRun run, StatusTransitions transitions, Supplier<SecretStore> secrets, JobRecord job,
      StepRecord row, int attempt, Map<String, String> previous, Map<String, String> declared, boolean beforeRun,
      Instant start) {
    this.startedAt = start != null ? start
        : row.status() == StepStatus.WAITING && row.startedAt() != null ? row.startedAt() : Instant.now();
    this.run = run;
    this.transitions = transitions;
    this.secrets = secrets;
    this.job = job;
    this.row = row;
    this.attempt = attempt;
    this.previous = Collections.unmodifiableMap(previous);
    this.ownOutputs = new LinkedHashMap<>(row.outputs());
    this.ownOutputs.putAll(declared);
    this.beforeRun = beforeRun;
  }

  /** The step's row as this attempt leaves it: its outputs so far, the attempt and when it started. */
  StepRecord ended() {
    return transitions.stepUpdated(row, row.status(), ownOutputs, row.failure(), false, attempt, startedAt);
  }

  private void requireRunning(String what) {
    if (beforeRun) {
      throw new IllegalStateException(what + " is not available while a step declares its intent");
    }
  }

  @Override
  public JobId jobId() {
    return job.id();
  }

  @Override
  public UUID stepId() {
    return row.id();
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public Instant startedAt() {
    return startedAt;
  }

  @Override
  public Outputs outputs() {
    Map<String, String> all = new LinkedHashMap<>(previous);
    all.putAll(ownOutputs);
    return Outputs.of(all);
  }

  @Override
  public void recordIntent(Map<String, String> intent) {
    requireRunning("recordIntent");
    if (ownOutputs.entrySet().containsAll(intent.entrySet())) {
      return; // durable already: declared with the step's start, or recorded by an earlier attempt
    }
    ownOutputs.putAll(intent);
    Map<String, String> snapshot = Map.copyOf(ownOutputs);
    run.write(new FencedWriter.Write().steps(run.book.with(transitions.stepUpdated(row, StepStatus.RUNNING,
        snapshot, null, false, attempt, startedAt))));
  }

  @Override
  public SecretStore secrets() {
    requireRunning("secrets");
    return secrets.get();
  }

  @Override
  public void log(String message) {
    requireRunning("log");
    JobStatus status = job.phase().working();
    run.write(new FencedWriter.Write().event(JobEventType.LOG, row.name(), status, message));
  }
}
