package dev.zop.provisioner;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One durable step of a job. The id is stable for the life of the job; retries keep it.
 *
 * @param attempts how many times the step was started (a resumed wait is not a new attempt)
 * @param outputs  what the step recorded: its intent (names, client tokens) before mutating, then its results
 */
@NullMarked
public record JobStep(
    UUID id,
    JobPhase phase,
    int position,
    String name,
    StepStatus status,
    int attempts,
    List<String> permissions,
    Map<String, String> outputs,
    @Nullable Failure failure,
    @Nullable Instant startedAt,
    @Nullable Instant finishedAt) {

  public JobStep {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
    permissions = List.copyOf(permissions);
    outputs = Map.copyOf(outputs);
  }
}
