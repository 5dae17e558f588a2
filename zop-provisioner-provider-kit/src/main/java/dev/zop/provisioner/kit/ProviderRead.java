package dev.zop.provisioner.kit;

import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.spi.StepResult;
import java.util.List;

/**
 * A {@link CloudRead} made from the read-only permissions it declares and a body. While the body runs,
 * {@link CloudCalls} refuses any call whose permission is not declared, as it does inside a {@link ProviderStep}:
 * a drift check cannot change the cloud by mistake. It counts the calls the body makes through {@link CloudCalls}
 * (and those a provider reports with {@link #called}).
 */
public final class ProviderRead<T> implements CloudRead<T> {
  private static final ThreadLocal<int[]> CALLS = new ThreadLocal<>();

  /** What the read does. */
  @FunctionalInterface
  public interface Body<T> {
    T read() throws Exception;
  }

  private final List<String> permissions;
  private final Body<T> body;
  private volatile int calls = -1;

  private ProviderRead(List<String> permissions, Body<T> body) {
    this.permissions = List.copyOf(permissions);
    this.body = body;
  }

  public static <T> ProviderRead<T> of(List<String> permissions, Body<T> body) {
    return new ProviderRead<>(permissions, body);
  }

  @Override
  public List<String> permissions() {
    return permissions;
  }

  @Override
  public T read() throws Exception {
    Object[] found = new Object[1];
    int[] counted = new int[1];
    int[] outer = CALLS.get();
    CALLS.set(counted);
    try {
      // a step's guard is the one CloudCalls consults; the read runs as a step that records nothing
      new ProviderStep("read", permissions, context -> {
        found[0] = body.read();
        return StepResult.done();
      }).run(null);
    } finally {
      calls = counted[0];
      if (outer == null) {
        CALLS.remove();
      } else {
        CALLS.set(outer);
      }
    }
    @SuppressWarnings("unchecked")
    T result = (T) found[0];
    return result;
  }

  @Override
  public int calls() {
    return calls;
  }

  /** Counts one call to the cloud against the read running on this thread, if any. */
  public static void called() {
    int[] counted = CALLS.get();
    if (counted != null) {
      counted[0]++;
    }
  }
}
