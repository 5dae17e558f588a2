package dev.zop.provisioner.kit;

import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A step made from a name, the cloud permissions it declares and a body. The declared permissions are the ones
 * {@code plan} lists; while the body runs, {@link CloudCalls} refuses any call whose permission is not among them.
 */
public record ProviderStep(String name, List<String> permissions, Body body) implements Step {

  /** What the step does. */
  @FunctionalInterface
  public interface Body {
    StepResult run(StepContext context) throws Exception;
  }

  private static final ThreadLocal<ProviderStep> RUNNING = new ThreadLocal<>();

  public ProviderStep {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(body, "body");
    permissions = List.copyOf(permissions);
  }

  public static ProviderStep of(String name, List<String> permissions, Body body) {
    return new ProviderStep(name, permissions, body);
  }

  @Override
  public StepResult run(StepContext context) throws Exception {
    ProviderStep outer = RUNNING.get();
    RUNNING.set(this);
    try {
      return body.run(context);
    } finally {
      if (outer == null) {
        RUNNING.remove();
      } else {
        RUNNING.set(outer);
      }
    }
  }

  /** The permissions of the step running on this thread, or null outside a step (discovery, controllers). */
  static Set<String> declaredOnThisThread() {
    ProviderStep running = RUNNING.get();
    return running == null ? null : Set.copyOf(running.permissions);
  }
}
