package dev.zop.provisioner.aws;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.RemediationActions;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import java.time.Duration;

/** One account and region: its clients, drivers, error mapping and Secrets Manager. */
final class AwsSession implements ProviderSession {
  private final AwsClients clients;
  private final String region;
  private final Duration pollOverride;

  AwsSession(AwsClients clients, String region, Duration pollOverride) {
    this.clients = clients;
    this.region = region;
    this.pollOverride = pollOverride;
  }

  private Duration poll(Duration kindDefault) {
    return pollOverride != null ? pollOverride : kindDefault;
  }

  @Override
  public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
    return switch (kind) {
      case NETWORK -> new NetworkDriver(clients.ec2, clients.route53, region, poll(Duration.ofSeconds(5)));
      case REGISTRY -> new RegistryDriver(clients.ecr, poll(Duration.ofSeconds(2)));
      case DATASTORE -> new DatastoreDriver(clients.rds, clients.elasticache, clients.ec2,
          poll(Duration.ofSeconds(15)));
      case KUBERNETES -> new KubernetesDriver(clients.eks, new IamRoles(clients.iam), poll(Duration.ofSeconds(30)));
      case VM_POOL -> new VmPoolDriver(clients.ec2, clients.autoscaling, clients.elb, clients.ssm, region,
          poll(Duration.ofSeconds(15)));
      default -> throw new IllegalArgumentException("the AWS provider does not provision " + kind.wireName() + " yet");
    };
  }

  @Override
  public Failure classify(Throwable error) {
    return AwsErrors.classify(error);
  }

  @Override
  public ClusterAccess clusterAccess() {
    return new EksAccess(clients.eks, clients.identity, clients.credentials, region, clients.stsEndpoint);
  }

  @Override
  public Discovery discovery() {
    return new AwsDiscovery(clients.ec2, clients.eks, clients.route53);
  }

  @Override
  public RemediationActions remediationActions() {
    return new AwsRemediationActions(clients.ec2, clients.rds);
  }

  @Override
  public SecretStore secrets() {
    return new SecretsManagerStore(clients.secrets);
  }

  String region() {
    return region;
  }

  @Override
  public void close() {
    clients.close();
  }
}
