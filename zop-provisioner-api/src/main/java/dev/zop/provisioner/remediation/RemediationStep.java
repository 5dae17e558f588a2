package dev.zop.provisioner.remediation;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.StepStatus;
import java.time.Instant;
import java.util.UUID;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/** A step of a running remediation: the template step's stable id and name, and where it stands. */
@NullMarked
public record RemediationStep(UUID id, String name, @Nullable StepKind kind, StepStatus status, int attempts,
    @Nullable Failure failure, @Nullable Instant startedAt, @Nullable Instant finishedAt) {
  public RemediationStep {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
  }
}
