package dev.zop.provisioner.core.internal.providers;

import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.spi.ProviderSession;

/** A call into a provider outside a job: its errors are classified by the session and thrown as data. */
public final class ProviderCalls {
  private ProviderCalls() {}

  /** A provider call that may throw anything its SDK throws. */
  @FunctionalInterface
  public interface ProviderCall<T> {
    T call() throws Exception;
  }

  public static <T> T classified(ProviderSession session, ProviderCall<T> call) {
    try {
      return call.call();
    } catch (ProvisionerException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ProviderException(session.classify(e));
    } catch (Exception e) {
      throw new ProviderException(session.classify(e));
    }
  }
}
