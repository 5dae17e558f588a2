package dev.zop.provisioner.kit;

import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The operation-tagged call wrapper a provider builds once from two facts about its SDK: which exceptions are the
 * cloud's, and which of those mean "not found". A failed call becomes a {@link CloudCallException} naming the
 * permission it needed; inside a {@link ProviderStep}, a permission the step does not declare is refused before
 * the call is made.
 */
public final class CloudCalls {
  /**
   * Told of each call the cloud answered with success, on the calling thread, after the answer arrived and before
   * the provider acts on it: for metrics, audit, or a fault drill that stops the caller right there.
   */
  @FunctionalInterface
  public interface Observer {
    void answered(String permission);

    Observer NONE = permission -> { };
  }

  private final Predicate<Throwable> isCloudError;
  private final Predicate<Throwable> isNotFound;
  private final Observer observer;

  public CloudCalls(Predicate<Throwable> isCloudError, Predicate<Throwable> isNotFound) {
    this(isCloudError, isNotFound, Observer.NONE);
  }

  private CloudCalls(Predicate<Throwable> isCloudError, Predicate<Throwable> isNotFound, Observer observer) {
    this.isCloudError = Objects.requireNonNull(isCloudError, "isCloudError");
    this.isNotFound = Objects.requireNonNull(isNotFound, "isNotFound");
    this.observer = Objects.requireNonNull(observer, "observer");
  }

  /** The same calls, reporting each successful one to {@code observer}. */
  public CloudCalls observedBy(Observer observer) {
    return new CloudCalls(isCloudError, isNotFound, observer);
  }

  /** Makes one call that needs {@code permission}. */
  public <T> T call(String permission, Supplier<T> call) {
    checkDeclared(permission);
    ProviderRead.called();
    try {
      T answer = call.get();
      observer.answered(permission);
      return answer;
    } catch (RuntimeException e) {
      if (isCloudError.test(e)) {
        throw new CloudCallException(permission, e);
      }
      throw e;
    }
  }

  /** Makes one call that answers nothing of use. */
  public void run(String permission, Runnable call) {
    call(permission, () -> {
      call.run();
      return null;
    });
  }

  /** A describe or get: what the cloud answers, or null when it says the resource does not exist. */
  public <T> T findOrNull(String permission, Supplier<T> call) {
    try {
      return call(permission, call);
    } catch (CloudCallException e) {
      if (isNotFound.test(e.getCause())) {
        return null;
      }
      throw e;
    }
  }

  /** A delete: true when it deleted, false when the resource was already gone (which is success too). */
  public boolean deleteIfExists(String permission, Runnable call) {
    try {
      run(permission, call);
      return true;
    } catch (CloudCallException e) {
      if (isNotFound.test(e.getCause())) {
        return false;
      }
      throw e;
    }
  }

  /** Whether a failure (tagged or not) is the cloud saying "not found". */
  public boolean isNotFound(Throwable error) {
    return isNotFound.test(CloudCallException.unwrap(error));
  }

  private static void checkDeclared(String permission) {
    Set<String> declared = ProviderStep.declaredOnThisThread();
    if (declared != null && !declared.contains(permission)) {
      throw new UndeclaredPermissionException(permission);
    }
  }
}
