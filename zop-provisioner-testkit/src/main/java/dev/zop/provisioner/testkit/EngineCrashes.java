package dev.zop.provisioner.testkit;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The engine's crash hook, for crash tests. The hook ({@code EmbeddedProvisioner.halt()}) is package-private so
 * that no host calls it by mistake; this class reaches it reflectively, as test tools reach what they test.
 */
public final class EngineCrashes {
  private static final Method HALT = haltMethod();

  private EngineCrashes() {}

  /**
   * Stops {@code engine} the way a crashed process stops: running steps are abandoned mid-way, no lease is
   * released and nothing more is written. Another engine takes the jobs over when the leases expire.
   */
  public static void simulateCrash(EmbeddedProvisioner engine) {
    try {
      HALT.invoke(engine);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IllegalStateException("the engine's halt failed", e.getCause());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("the engine's halt cannot be reached", e);
    }
  }

  private static Method haltMethod() {
    try {
      Method halt = EmbeddedProvisioner.class.getDeclaredMethod("halt");
      halt.setAccessible(true);
      return halt;
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("EmbeddedProvisioner has no halt(): the crash hook moved", e);
    }
  }
}
