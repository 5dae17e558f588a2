package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.List;

/**
 * A step that waits for a person (an approval). The runner asks it for the {@link Decision} instead of running
 * it; the {@link OutcomeRule} decides what follows, as for any step's result.
 */
public interface DecisionStep extends Step {

  /** How long after the step starts a decision may come before the job is cancelled; null waits for ever. */
  Duration timeout();

  /** Reads whether a decision was made; called each time the job is claimed while the step is open. */
  Decision decide(StepContext context) throws Exception;

  @Override
  default List<String> permissions() {
    return List.of();
  }

  @Override
  default StepResult run(StepContext context) {
    throw new IllegalStateException("step " + name() + " is decided by a person, not run");
  }
}
