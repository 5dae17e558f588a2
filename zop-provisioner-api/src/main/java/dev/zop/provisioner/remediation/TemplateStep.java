package dev.zop.provisioner.remediation;

import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One step of a workflow template. The id is stable across template revisions, so approvals addressed by id
 * keep working when a template changes.
 *
 * @param expectedState for precondition and validate: the state the resource must be in ({@code running}, ...)
 * @param action        for execute: {@code start} or {@code stop}
 * @param timeout       for approval: how long to wait for a decision before the job is cancelled; null waits
 *                      forever
 * @param message       for approval: what the approver is told, e.g. that the action cannot be undone
 */
@NullMarked
public record TemplateStep(UUID id, String name, StepKind kind, @Nullable String expectedState, @Nullable String action,
    @Nullable Duration timeout, @Nullable String message) {

  public TemplateStep {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
  }

  public static TemplateStep precondition(UUID id, String name, String expectedState) {
    return new TemplateStep(id, name, StepKind.PRECONDITION, expectedState, null, null, null);
  }

  public static TemplateStep approval(UUID id, String name, String message, Duration timeout) {
    return new TemplateStep(id, name, StepKind.APPROVAL, null, null, timeout, message);
  }

  public static TemplateStep execute(UUID id, String name, String action) {
    return new TemplateStep(id, name, StepKind.EXECUTE, null, action, null, null);
  }

  public static TemplateStep pauseService(UUID id, String name) {
    return new TemplateStep(id, name, StepKind.PAUSE_SERVICE, null, null, null, null);
  }

  public static TemplateStep validate(UUID id, String name, String expectedState) {
    return new TemplateStep(id, name, StepKind.VALIDATE, expectedState, null, null, null);
  }
}
