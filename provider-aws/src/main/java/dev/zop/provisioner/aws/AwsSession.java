package dev.zop.provisioner.aws;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceController;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;

/** One account and region: its clients, drivers, error mapping and Secrets Manager. */
final class AwsSession implements ProviderSession {
  private final AwsClients clients;
  private final String region;

  AwsSession(AwsClients clients, String region) {
    this.clients = clients;
    this.region = region;
  }

  @Override
  public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
    return switch (kind) {
      case NETWORK -> new NetworkDriver(clients.ec2);
      case REGISTRY -> new RegistryDriver(clients.ecr);
      case DATASTORE -> new DatastoreDriver(clients.rds, clients.elasticache);
      default -> throw new IllegalArgumentException("the AWS provider does not provision " + kind.wireName() + " yet");
    };
  }

  @Override
  public Failure classify(Throwable error) {
    return AwsErrors.classify(error);
  }

  @Override
  public ResourceController controller() {
    return new AwsController(clients.ec2, clients.rds);
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
