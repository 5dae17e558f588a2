package dev.zop.provisioner.kit;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What every driver of a session is built from: the session's SDK clients, its {@link CloudCalls}, how its steps
 * wait, its region, and where in the account its resources go (the values of the provider's scope keys, such as
 * a GCP project or an Azure resource group). A session makes one and hands each driver the same.
 *
 * @param <C> the provider's clients
 * @param region the region, read when first asked (a provider may have to ask the cloud, as Azure does for a
 *     resource group's location)
 */
public record DriverContext<C>(C clients, CloudCalls calls, StatusPoll poll, Supplier<String> region,
    Map<String, String> scope) {

  public DriverContext {
    Objects.requireNonNull(clients, "clients");
    Objects.requireNonNull(calls, "calls");
    Objects.requireNonNull(poll, "poll");
    Objects.requireNonNull(region, "region");
    scope = Map.copyOf(scope);
  }

  /** The same context, its steps waiting as {@code other} says (each kind waits at its own pace). */
  public DriverContext<C> polling(StatusPoll other) {
    return new DriverContext<>(clients, calls, other, region, scope);
  }

  /** The value of scope key {@code key}; throws when the session was opened without it. */
  public String scope(String key) {
    String value = scope.get(key);
    if (value == null) {
      throw new IllegalStateException("the session has no " + key);
    }
    return value;
  }
}
