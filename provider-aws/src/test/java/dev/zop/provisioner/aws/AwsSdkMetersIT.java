package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderSession;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The SDK's own metrics of real calls (against moto), throttled attempts included, in a Micrometer registry. */
class AwsSdkMetersIT {
  private static final MotoServer MOTO = MotoServer.get();

  @Test
  void callsRetriesAndThrottlingAreMeteredByServiceAndOperation() throws Exception {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    ThrottlingInterceptor throttling = new ThrottlingInterceptor("DescribeVpcs");
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_metered"), "aws", "metered", "default-chain",
        Map.of("endpoint", MOTO.endpoint()), Instant.now());
    try (ProviderSession session = AwsProvider.withInterceptors(throttling)
        .metricPublisher(new AwsSdkMeters(registry)).open(account, "us-east-1")) {
      throttling.throttleNext(1);
      session.discovery().networks(); // one DescribeVpcs call: throttled once, then answered
      session.discovery().networks();
    }
    assertThat(throttling.throttledSoFar()).isEqualTo(1);
    assertThat(registry.get("zop.aws.calls").tags("service", "EC2", "operation", "DescribeVpcs", "outcome",
        "success").timer().count()).isEqualTo(2);
    assertThat(registry.get("zop.aws.retries").tags("service", "EC2", "operation", "DescribeVpcs").counter()
        .count()).isEqualTo(1);
    assertThat(registry.get("zop.aws.throttled").tags("service", "EC2", "operation", "DescribeVpcs").counter()
        .count()).isEqualTo(1);
  }

  @Test
  void theSameFiguresReachAHostThroughTheSpi() throws Exception {
    List<String> calls = new CopyOnWriteArrayList<>();
    ThrottlingInterceptor throttling = new ThrottlingInterceptor("DescribeVpcs");
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_spi_metered"), "aws", "metered", "default-chain",
        Map.of("endpoint", MOTO.endpoint()), Instant.now());
    CloudProvider metered = AwsProvider.withInterceptors(throttling).withCallMetrics(
        (service, operation, succeeded, took, retries, throttled) -> calls.add(service + " " + operation + " "
            + succeeded + " timed=" + (took != null) + " retries=" + retries + " throttled=" + throttled));
    try (ProviderSession session = metered.open(account, "us-east-1")) {
      throttling.throttleNext(1);
      session.discovery().networks();
    }
    assertThat(calls).containsExactly("EC2 DescribeVpcs true timed=true retries=1 throttled=1");
  }
}
