package dev.zop.provisioner.aws;

import dev.zop.provisioner.spi.CallMetrics;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;

/** The AWS SDK's own metrics of each call, as {@link CallMetrics}: what {@link AwsProvider#withCallMetrics} adds. */
final class AwsCallMetrics implements MetricPublisher {
  /** The {@link CoreMetric#ERROR_TYPE} of an attempt AWS throttled, as the SDK documents its values. */
  private static final String THROTTLING = "Throttling";

  private final CallMetrics metrics;

  AwsCallMetrics(CallMetrics metrics) {
    this.metrics = Objects.requireNonNull(metrics);
  }

  @Override
  public void publish(MetricCollection call) {
    report(call, metrics);
  }

  static void report(MetricCollection call, CallMetrics to) {
    String service = first(call.metricValues(CoreMetric.SERVICE_ID), "unknown");
    String operation = first(call.metricValues(CoreMetric.OPERATION_NAME), "unknown");
    boolean succeeded = Boolean.TRUE.equals(first(call.metricValues(CoreMetric.API_CALL_SUCCESSFUL), false));
    Duration took = first(call.metricValues(CoreMetric.API_CALL_DURATION), null);
    int retries = first(call.metricValues(CoreMetric.RETRY_COUNT), 0);
    long throttled = call.childrenWithName("ApiCallAttempt")
        .flatMap(attempt -> attempt.metricValues(CoreMetric.ERROR_TYPE).stream())
        .filter(THROTTLING::equals).count();
    to.called(service, operation, succeeded, took, retries, (int) throttled);
  }

  private static <T> T first(List<T> values, T otherwise) {
    return values.isEmpty() || values.get(0) == null ? otherwise : values.get(0);
  }

  @Override
  public void close() {
    // the metrics are the host's
  }
}
