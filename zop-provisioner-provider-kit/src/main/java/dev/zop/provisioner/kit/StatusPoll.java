package dev.zop.provisioner.kit;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a step waits for the cloud: it returns {@link StepResult#waitFor} and the job parks in the database. The
 * interval starts at {@code first} and grows with the time the step has already waited (a quarter of it), up to
 * {@code max}, with ±10% jitter so parked jobs do not wake in lockstep.
 */
public record StatusPoll(Duration first, Duration max) {

  public StatusPoll {
    Objects.requireNonNull(first, "first");
    Objects.requireNonNull(max, "max");
    if (first.isNegative() || max.compareTo(first) < 0) {
      throw new IllegalArgumentException("need 0 <= first <= max, got " + first + " and " + max);
    }
  }

  /** Polls every {@code first}, backing off to eight times that. */
  public static StatusPoll every(Duration first) {
    return new StatusPoll(first, first.multipliedBy(8));
  }

  /** Wait, then run the step again; {@code reason} is what the job's events show, e.g. "cluster is CREATING". */
  public StepResult waitFor(StepContext context, String reason) {
    return StepResult.waitFor(interval(Duration.between(context.startedAt(), Instant.now())), reason);
  }

  /** Reads a resource from the cloud: null when it does not exist. */
  @FunctionalInterface
  public interface Lookup<T> {
    T find() throws Exception;
  }

  /** Asks the cloud to delete a resource it found. */
  @FunctionalInterface
  public interface Deletion<T> {
    void delete(T found) throws Exception;
  }

  /**
   * Removes a resource and waits until the cloud no longer has it: done at once when {@code find} answers nothing
   * (never made, or gone since) or {@code ours} refuses what it found (another job's or a person's, left in
   * place); the delete is called unless {@code deleting} says a delete is already under way (an earlier run's,
   * before a crash or on the last poll); then done once {@code find} answers nothing, else a wait. A resumed step
   * that runs this again neither deletes twice nor reports done early.
   *
   * @param what how the job's events name it, e.g. {@code "EKS cluster checkout"}
   */
  public <T> StepResult deleteAndWait(StepContext context, String what, Lookup<T> find, Predicate<T> ours,
      Predicate<T> deleting, Deletion<T> delete) throws Exception {
    T found = find.find();
    if (found == null || !ours.test(found)) {
      return StepResult.done();
    }
    if (!deleting.test(found)) {
      delete.delete(found);
    }
    return find.find() == null ? StepResult.done() : waitFor(context, what + " is being deleted");
  }

  /**
   * Waits until a resource the step made is ready: a {@code system} failure {@code resource_missing} when
   * {@code find} answers nothing (it disappeared while it was being created), the failure {@code failed} gives
   * when the cloud gave up on it, {@code done}'s result once {@code ready}, else a wait that says its state.
   *
   * @param what how the job's events name it, e.g. {@code "EKS cluster checkout"}
   * @param failed the failure of a resource the cloud gave up on, or null while it has not
   */
  public <T> StepResult awaitReady(StepContext context, String what, Lookup<T> find, Function<T, String> state,
      Predicate<T> ready, Function<T, Failure> failed, Function<T, StepResult> done) throws Exception {
    T found = find.find();
    if (found == null) {
      return StepResult.fail(Failure.system("resource_missing", what + " disappeared while it was being created"));
    }
    Failure failure = failed.apply(found);
    if (failure != null) {
      return StepResult.fail(failure);
    }
    return ready.test(found) ? done.apply(found) : waitFor(context, what + " is " + state.apply(found));
  }

  /** The interval after a step has waited {@code waited} so far. */
  Duration interval(Duration waited) {
    Duration grown = waited.isNegative() ? first : waited.dividedBy(4);
    Duration base = grown.compareTo(first) < 0 ? first : grown.compareTo(max) > 0 ? max : grown;
    long millis = base.toMillis();
    if (millis < 10) {
      return base;
    }
    long jitter = ThreadLocalRandom.current().nextLong(-millis / 10, millis / 10 + 1);
    return Duration.ofMillis(millis + jitter);
  }
}
