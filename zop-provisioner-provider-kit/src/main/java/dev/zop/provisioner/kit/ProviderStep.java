package dev.zop.provisioner.kit;

import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A step made from a name, the cloud permissions it declares, a body and, optionally, the intent it declares
 * before it runs ({@link Step#intent}). The declared permissions are the ones {@code plan} lists; while the body
 * runs, {@link CloudCalls} refuses any call whose permission is not among them.
 *
 * @param kind the name without what a spec chose ({@link Step#kind}); {@link #each} makes a step of one of
 *     several things a spec names, such as a node group
 */
public record ProviderStep(String name, List<String> permissions, Body body, Intent declaredIntent, String kind)
    implements Step {

  /** What the step does. */
  @FunctionalInterface
  public interface Body {
    StepResult run(StepContext context) throws Exception;
  }

  /** What the step will record as its intent, computed before it runs. */
  @FunctionalInterface
  public interface Intent {
    Map<String, String> of(StepContext context);
  }

  private static final Intent NONE = context -> Map.of();

  private static final ThreadLocal<ProviderStep> RUNNING = new ThreadLocal<>();

  public ProviderStep {
    Objects.requireNonNull(name, "name");
    kind = kind == null ? name : kind;
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(declaredIntent, "declaredIntent");
    permissions = List.copyOf(permissions);
  }

  /** A step whose name holds nothing a spec chose (its kind is its name). */
  public ProviderStep(String name, List<String> permissions, Body body, Intent declaredIntent) {
    this(name, permissions, body, declaredIntent, name);
  }

  /** A step that declares no intent before it runs, as before intents could be declared. */
  public ProviderStep(String name, List<String> permissions, Body body) {
    this(name, permissions, body, NONE, name);
  }

  public static ProviderStep of(String name, List<String> permissions, Body body) {
    return new ProviderStep(name, permissions, body);
  }

  /**
   * The step {@code kind} of one thing among several that a spec names ({@code create-nodegroup} of node group
   * {@code default}): named {@code kind-instance}, its meters labelled {@code kind}.
   */
  public static ProviderStep each(String kind, Object instance, List<String> permissions, Body body) {
    return new ProviderStep(kind + "-" + instance, permissions, body, NONE, kind);
  }

  /**
   * This step, declaring before it runs the intent its body records (see {@link Step#intent}). Declare exactly
   * what the body passes to {@code recordIntent}: entries it does not record are recorded needlessly, and an
   * intent it records beyond them costs the write this saves.
   */
  public ProviderStep intending(Intent intent) {
    return new ProviderStep(name, permissions, body, intent, kind);
  }

  @Override
  public Map<String, String> intent(StepContext context) {
    return declaredIntent.of(context);
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
