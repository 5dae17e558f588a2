package dev.zop.provisioner.testkit;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spi.CloudProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * Engine builders tuned for tests: the {@code sim} provider on a given {@link SimCloud}, fast polling, and a
 * retry policy with millisecond backoff, so a test of a whole job lifecycle runs in well under a second.
 */
public final class TestEngines {
  private TestEngines() {}

  /** An engine on an H2 file store inside {@code directory}. */
  public static EmbeddedProvisionerBuilder h2(Path directory, SimCloud cloud) {
    return base(cloud).dataDirectory(directory);
  }

  /** An engine on the given database (a PostgreSQL schema from {@link PostgresTestDatabase}, say). */
  public static EmbeddedProvisionerBuilder jdbc(String url, String user, String password, SimCloud cloud) {
    return base(cloud).jdbc(url, user, password);
  }

  /**
   * As {@link #jdbc(String, String, String, SimCloud)}, with the simulated provider handed to {@code around} first
   * (a {@link dev.zop.provisioner.sim.ReplacedSteps} that gives a kind of job steps of its own, say).
   */
  public static EmbeddedProvisionerBuilder jdbc(String url, String user, String password, SimCloud cloud,
      UnaryOperator<CloudProvider> around) {
    return base(cloud, around).jdbc(url, user, password);
  }

  private static EmbeddedProvisionerBuilder base(SimCloud cloud) {
    return base(cloud, UnaryOperator.identity());
  }

  private static EmbeddedProvisionerBuilder base(SimCloud cloud, UnaryOperator<CloudProvider> around) {
    cloud.pollInterval(Duration.ofMillis(20));
    return EmbeddedProvisioner.builder()
        .discoverProviders(false)
        .provider(around.apply(new SimProvider(cloud)))
        .pollInterval(Duration.ofMillis(20))
        .leaseDuration(Duration.ofSeconds(5))
        .retryPolicy(RetryPolicy.exponential(4, Duration.ofMillis(5), Duration.ofMillis(40)));
  }
}
