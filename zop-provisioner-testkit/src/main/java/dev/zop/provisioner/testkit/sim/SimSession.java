package dev.zop.provisioner.testkit.sim;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceController;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** A session on the simulated cloud; maps its errors to failure classes the way real providers do. */
final class SimSession implements ProviderSession {
  private final SimCloud cloud;
  private final String region;

  SimSession(SimCloud cloud, String region) {
    this.cloud = cloud;
    this.region = region;
  }

  @Override
  public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
    return SimDrivers.forKind(kind, cloud, region);
  }

  @Override
  public Failure classify(Throwable error) {
    if (!(error instanceof SimException e)) {
      return Failure.system("unexpected_error", String.valueOf(error));
    }
    String op = e.operation();
    String console = "https://console.sim.invalid/" + region + "/iam?action="
        + URLEncoder.encode(op, StandardCharsets.UTF_8);
    return switch (e.code()) {
      case ACCESS_DENIED -> Failure.userAction("access_denied", e.getMessage(),
          "Grant " + op + " to the role this cloud account uses, then retry the job.", console);
      case QUOTA_EXCEEDED -> Failure.userAction("quota_exceeded", e.getMessage(),
          "Request a higher quota for this resource type in " + region + ", then retry the job.",
          "https://console.sim.invalid/" + region + "/quotas");
      case ALREADY_EXISTS -> Failure.userAction("name_in_use", e.getMessage(),
          "Choose another name: a resource not created by this job already uses it.", null);
      case THROTTLED -> Failure.transientFailure("throttled", op + ": " + e.getMessage());
      case INTERNAL_ERROR -> Failure.transientFailure("cloud_internal_error", op + ": " + e.getMessage());
      case NOT_FOUND -> Failure.system("not_found", e.getMessage());
    };
  }

  /** <b>Test double</b> tokens: {@code sim-token-...}, accepted by nothing but tests. */
  @Override
  public ClusterAccess clusterAccess() {
    return clusterName -> {
      SimCloud.Resource cluster = cloud.describe("kubernetes:DescribeCluster", "kubernetes-cluster", clusterName);
      if (cluster == null) {
        throw new SimException(SimException.Code.NOT_FOUND, "kubernetes:DescribeCluster",
            "no cluster " + clusterName);
      }
      return new Kubeconfig(clusterName, "https://" + clusterName + "." + region + ".k8s.sim.invalid", null,
          "sim-token-" + java.util.UUID.randomUUID(), java.time.Instant.now().plus(java.time.Duration.ofMinutes(15)));
    };
  }

  @Override
  public ResourceController controller() {
    return new SimController(cloud);
  }

  @Override
  public SecretStore secrets() {
    return cloud.hasSecretStore() ? new SimSecretStore(cloud.secretMap()) : null;
  }

  @Override
  public void close() {
    // nothing to release: the simulated cloud lives in memory
  }
}
