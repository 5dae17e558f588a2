package dev.zop.provisioner.sim;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.HttpStatusClassifier;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.RemediationActions;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** A session on the simulated cloud; maps its errors to failure classes the way real providers do. */
final class SimSession implements ProviderSession {
  private final SimCloud cloud;
  private final String region;
  private final HttpStatusClassifier http;

  SimSession(SimCloud cloud, String region) {
    this.cloud = cloud;
    this.region = region;
    this.http = new HttpStatusClassifier(SimProvider.ID, new HttpStatusClassifier.Hints(
        "Check the simulated account's credentials.", "the role this cloud account uses",
        "https://console.sim.invalid/" + region + "/iam", "https://console.sim.invalid/" + region + "/quotas"));
  }

  @Override
  public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
    return SimDrivers.forKind(kind, cloud, region);
  }

  @Override
  public Failure classify(Throwable error) {
    Throwable cause = CloudCallException.unwrap(error);
    if (!(cause instanceof SimException e)) {
      return Failure.system(FailureCodes.UNEXPECTED_ERROR, String.valueOf(cause));
    }
    String op = e.operation();
    return switch (e.code()) {
      // the simulated console deep-links the action to grant, as AWS's policy editor does
      case ACCESS_DENIED -> Failure.userAction(FailureCodes.ACCESS_DENIED, e.getMessage(),
          "Grant " + op + " to the role this cloud account uses, then retry the job.",
          "https://console.sim.invalid/" + region + "/iam?action=" + URLEncoder.encode(op, StandardCharsets.UTF_8));
      case QUOTA_EXCEEDED -> http.quotaExceeded(e.getMessage());
      case ALREADY_EXISTS -> Failure.userAction(FailureCodes.NAME_IN_USE, e.getMessage(),
          "Choose another name: a resource not created by this job already uses it.", null);
      case THROTTLED -> http.classify(429, e.getMessage(), op);
      case INTERNAL_ERROR -> http.classify(500, e.getMessage(), op);
      case NOT_FOUND -> Failure.system("not_found", e.getMessage());
      case UNSUPPORTED -> Failure.system("unsupported_operation", e.getMessage());
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

  /** <b>Test double</b> discovery: what the simulated cloud holds, whichever job (or none) made it. */
  @Override
  public Discovery discovery() {
    return new Discovery() {
      @Override
      public List<DiscoveredNetwork> networks() throws Exception {
        return cloud.list("network:DescribeVpcs", "vpc").stream()
            .map(r -> new DiscoveredNetwork(r.name(), r.name(), r.attributes().get("cidr"), false)).toList();
      }

      @Override
      public List<DiscoveredSubnet> subnets(String networkId) throws Exception {
        return cloud.list("network:DescribeSubnets", "subnet").stream()
            .filter(r -> networkId == null || networkId.equals(r.attributes().get("vpc")))
            .map(r -> new DiscoveredSubnet(r.name(), r.attributes().get("vpc"), r.attributes().get("cidr"),
                region + "a"))
            .toList();
      }

      @Override
      public List<DiscoveredCluster> clusters() throws Exception {
        return cloud.list("kubernetes:ListClusters", "kubernetes-cluster").stream()
            .map(r -> new DiscoveredCluster(r.name(), r.attributes().get("version"),
                r.status(cloud.now()) == SimCloud.Status.ACTIVE ? "ACTIVE" : "CREATING",
                "https://" + r.name() + "." + region + ".k8s.sim.invalid"))
            .toList();
      }

      @Override
      public List<DiscoveredDnsZone> dnsZones() throws Exception {
        return cloud.list("dns:ListHostedZones", "dns-zone").stream()
            .map(r -> new DiscoveredDnsZone(r.name(), r.name(), false)).toList();
      }
    };
  }

  @Override
  public RemediationActions remediationActions() {
    return new SimRemediationActions(cloud);
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
