package dev.zop.provisioner.core.internal.jobs;

import java.util.List;

/**
 * A run's record of its job's steps as its writes leave them. The job's row stores all of its steps together
 * (see {@link StoredSteps}), so a write that changes one step writes them all: the book gives that list. A run's
 * writes are made one after another (nothing more of a job runs before its last write is durable), so the book
 * changes in the order they commit; a write that fails ends the run, and the book with it.
 */
final class StepBook {
  private StoredSteps.Listed steps;

  StepBook(List<StepRecord> steps) {
    this.steps = StoredSteps.Listed.of(steps);
  }

  /** Every step, with {@code changed} in place of the step with its id. */
  synchronized List<StepRecord> with(StepRecord changed) {
    steps = StoredSteps.with(steps, changed);
    return steps;
  }
}
