package dev.zop.provisioner.remediation;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.StepStatus;
import java.time.Instant;
import java.util.UUID;

/** A step of a running remediation: the template step's stable id and name, and where it stands. */
public record RemediationStep(UUID id, String name, StepKind kind, StepStatus status, int attempts,
    Failure failure, Instant startedAt, Instant finishedAt) {}
