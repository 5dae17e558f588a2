package dev.zop.provisioner.spi;

import java.time.Duration;

/**
 * Where a provider reports each call its cloud SDK made, as the SDK measured it; the host turns them into its own
 * meters ({@code zop serve} into Micrometer's {@code zop.<provider>.calls}, {@code .retries} and {@code .throttled}).
 */
@FunctionalInterface
public interface CallMetrics {

  /**
   * One call, its retries included.
   *
   * @param service the cloud service as the SDK names it ({@code EC2}, {@code EKS})
   * @param operation the operation ({@code DescribeVpcs})
   * @param succeeded whether the call ended in success
   * @param took how long it took, retries included; null when the SDK did not time it
   * @param retries attempts made again
   * @param throttled attempts the cloud answered with a throttling error
   */
  void called(String service, String operation, boolean succeeded, Duration took, int retries, int throttled);
}
