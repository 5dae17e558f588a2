package dev.zop.provisioner.aws;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/**
 * The AWS SDK's own per-call metrics in a Micrometer registry: {@code zop.aws.calls} (a timer by service,
 * operation and outcome), {@code zop.aws.retries} and {@code zop.aws.throttled} (counters by service and
 * operation). Micrometer is an optional dependency of this module: a host that uses this class declares it.
 * <pre>{@code builder.provider(new AwsProvider().metricPublisher(new AwsSdkMeters(registry)))}</pre>
 */
public final class AwsSdkMeters implements MetricPublisher {
  /** The {@link CoreMetric#ERROR_TYPE} of an attempt AWS throttled, as the SDK documents its values. */
  private static final String THROTTLING = "Throttling";

  private final MeterRegistry registry;

  public AwsSdkMeters(MeterRegistry registry) {
    this.registry = java.util.Objects.requireNonNull(registry);
  }

  @Override
  public void publish(MetricCollection call) {
    String service = first(call.metricValues(CoreMetric.SERVICE_ID), "unknown");
    String operation = first(call.metricValues(CoreMetric.OPERATION_NAME), "unknown");
    boolean succeeded = Boolean.TRUE.equals(first(call.metricValues(CoreMetric.API_CALL_SUCCESSFUL), false));
    Duration took = first(call.metricValues(CoreMetric.API_CALL_DURATION), null);
    if (took != null) {
      Timer.builder("zop.aws.calls").description("AWS API calls, as the SDK timed them (retries included)")
          .tag("service", service).tag("operation", operation).tag("outcome", succeeded ? "success" : "failure")
          .register(registry).record(took);
    }
    int retries = first(call.metricValues(CoreMetric.RETRY_COUNT), 0);
    if (retries > 0) {
      Counter.builder("zop.aws.retries").description("attempts the SDK made again").tag("service", service)
          .tag("operation", operation).register(registry).increment(retries);
    }
    long throttled = call.childrenWithName("ApiCallAttempt")
        .flatMap(attempt -> attempt.metricValues(CoreMetric.ERROR_TYPE).stream())
        .filter(THROTTLING::equals).count();
    if (throttled > 0) {
      Counter.builder("zop.aws.throttled").description("attempts AWS answered with a throttling error")
          .tag("service", service).tag("operation", operation).register(registry).increment(throttled);
    }
  }

  private static <T> T first(List<T> values, T otherwise) {
    return values.isEmpty() || values.get(0) == null ? otherwise : values.get(0);
  }

  @Override
  public void close() {
    // the registry is the host's
  }
}
