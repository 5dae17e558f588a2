package dev.zop.provisioner;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Something a person should know before the job runs that does not stop it, such as a component whose upstream
 * project is retired. A submitted job repeats each warning as a {@code warning} event.
 *
 * @param code    machine-readable, such as {@code component_retired}
 * @param field   the spec field it is about, as the API spells it, or null
 * @param message what it means and what to do instead
 */
@NullMarked
public record PlanWarning(String code, @Nullable String field, String message) {
  public PlanWarning {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }
}
