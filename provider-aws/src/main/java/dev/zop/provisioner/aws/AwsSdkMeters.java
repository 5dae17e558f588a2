package dev.zop.provisioner.aws;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * The AWS SDK's own per-call metrics in a Micrometer registry: {@code zop.aws.calls} (a timer by service,
 * operation and outcome), {@code zop.aws.retries} and {@code zop.aws.throttled} (counters by service and
 * operation). Micrometer is an optional dependency of this module: a host that uses this class declares it.
 * <pre>{@code builder.provider(new AwsProvider().metricPublisher(new AwsSdkMeters(registry)))}</pre>
 * A host that keeps to the SPI gets the same figures through {@link AwsProvider#withCallMetrics}.
 */
public final class AwsSdkMeters implements MetricPublisher {
  private final MeterRegistry registry;

  public AwsSdkMeters(MeterRegistry registry) {
    this.registry = java.util.Objects.requireNonNull(registry);
  }

  @Override
  public void publish(MetricCollection call) {
    AwsCallMetrics.report(call, this::record);
  }

  private void record(String service, String operation, boolean succeeded, Duration took, int retries,
      int throttled) {
    if (took != null) {
      Timer.builder("zop.aws.calls").description("AWS API calls, as the SDK timed them (retries included)")
          .tag("service", service).tag("operation", operation).tag("outcome", succeeded ? "success" : "failure")
          .register(registry).record(took);
    }
    if (retries > 0) {
      Counter.builder("zop.aws.retries").description("attempts the SDK made again").tag("service", service)
          .tag("operation", operation).register(registry).increment(retries);
    }
    if (throttled > 0) {
      Counter.builder("zop.aws.throttled").description("attempts AWS answered with a throttling error")
          .tag("service", service).tag("operation", operation).register(registry).increment(throttled);
    }
  }

  @Override
  public void close() {
    // the registry is the host's
  }
}
