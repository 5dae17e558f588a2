package dev.zop.provisioner;

import java.util.Objects;

/** A provider refused or failed a call made outside a job (planning, discovery); carries the classified failure. */
public final class ProviderException extends ProvisionerException {
  private final Failure failure;

  public ProviderException(Failure failure) {
    super(failure.code(), failure.message());
    this.failure = Objects.requireNonNull(failure);
  }

  public Failure failure() {
    return failure;
  }
}
