package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.core.StoreOutages;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run over a claimed job: its writes are fenced by its lease, the first one begins with the job's start, and
 * it ends once, on whichever thread its last part ran.
 */
final class StepRun {
  private static final Logger LOG = LoggerFactory.getLogger(StepRun.class);

  final Lease lease;
  private final Executor executor;
  private final Runnable ended;
  private final FencedWriter writer;
  private final JobSignals signals;
  private final BooleanSupplier halted;
  private final Runnable leaseLost;
  /** Records a failure of the engine's own as the job's, when nothing else could. */
  private final Consumer<Failure> failQuietly;
  private FencedWriter.Write start;
  /** The job's steps as this run's writes leave them. */
  StepBook book;

  StepRun(Lease lease, Executor executor, Runnable ended, FencedWriter writer, JobSignals signals,
      BooleanSupplier halted, Runnable leaseLost, Consumer<Failure> failQuietly) {
    this.lease = lease;
    this.executor = executor;
    this.ended = ended;
    this.writer = writer;
    this.signals = signals;
    this.halted = halted;
    this.leaseLost = leaseLost;
    this.failQuietly = failQuietly;
  }

  /** The run's first write begins with {@code start} (null: nothing); {@code book} holds the job's steps. */
  void startWith(FencedWriter.Write start, StepBook book) {
    this.start = start;
    this.book = book;
  }

  void write(FencedWriter.Writes work) {
    write(FencedWriter.Write.of(work));
  }

  void write(FencedWriter.Write write) {
    writer.write(lease, withStart(write));
  }

  void writeThen(FencedWriter.Write write, FencedWriter.Settled then) {
    writer.writeThen(lease, withStart(write), then);
  }

  private FencedWriter.Write withStart(FencedWriter.Write write) {
    FencedWriter.Write first = start == null ? write : start.then(write);
    start = null;
    return first;
  }

  /**
   * Runs a part of the run; unless it handed the run on to a queued write (returned true), the run ends here.
   * A lost lease stops it; anything else escaping fails the job rather than loop on it.
   */
  void guarded(BooleanSupplier part) {
    boolean handedOn = false;
    try {
      handedOn = part.getAsBoolean();
    } catch (LeaseLostException e) {
      if (!halted.getAsBoolean()) {
        leaseLost.run();
      }
      LOG.info("stopped working on {}: {}", lease.jobId, halted.getAsBoolean() ? "engine halted" : "lease lost");
    } catch (RuntimeException e) {
      if (StoreOutages.isStoreAway(e)) {
        // Nothing of the job is wrong and the write was not kept: leave it, as a crashed engine would; its lease
        // runs out and the job is claimed again, here or elsewhere, once the database answers.
        LOG.warn("stopped working on {}: the store does not answer ({})", lease.jobId, e.getMessage());
      } else {
        // A bug in the engine or a driver that escaped classification: fail the job rather than loop on it.
        LOG.error("job {} failed in the engine", lease.jobId, e);
        failQuietly.accept(Failure.system("engine_error", "the engine failed: " + e));
      }
    } finally {
      if (!handedOn) {
        signals.changed(lease.jobId);
        ended.run();
      }
    }
  }

  /**
   * Goes on with {@code rest} as a task of the run's executor now that a queued write is settled: it failed
   * with {@code failure}, or is durable. An executor that takes no more tasks (a halted engine) ends the run.
   */
  void handOn(RuntimeException failure, BooleanSupplier rest) {
    try {
      executor.execute(() -> guarded(() -> {
        if (failure != null) {
          throw failure;
        }
        return rest.getAsBoolean();
      }));
    } catch (RejectedExecutionException e) {
      signals.changed(lease.jobId);
      ended.run();
    }
  }
}
