package dev.zop.provisioner.server.cli;

import dev.zop.provisioner.spi.CallMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Objects;

/**
 * A provider's calls to its cloud, as its SDK measured them, in the service's registry: {@code zop.<id>.calls} (a
 * timer by service, operation and outcome), {@code zop.<id>.retries} and {@code zop.<id>.throttled} (counters by
 * service and operation), where {@code <id>} is the provider's id.
 */
final class ProviderMeters implements CallMetrics {
  private final MeterRegistry registry;
  private final String prefix;
  private final String provider;

  ProviderMeters(MeterRegistry registry, String providerId) {
    this.registry = Objects.requireNonNull(registry);
    this.provider = providerId;
    this.prefix = "zop." + providerId + ".";
  }

  @Override
  public void called(String service, String operation, boolean succeeded, Duration took, int retries,
      int throttled) {
    if (took != null) {
      Timer.builder(prefix + "calls").description(provider + " API calls, as its SDK timed them (retries included)")
          .tag("service", service).tag("operation", operation).tag("outcome", succeeded ? "success" : "failure")
          .register(registry).record(took);
    }
    if (retries > 0) {
      Counter.builder(prefix + "retries").description("attempts the " + provider + " SDK made again")
          .tag("service", service).tag("operation", operation).register(registry).increment(retries);
    }
    if (throttled > 0) {
      Counter.builder(prefix + "throttled").description("attempts " + provider + " answered with a throttling error")
          .tag("service", service).tag("operation", operation).register(registry).increment(throttled);
    }
  }
}
