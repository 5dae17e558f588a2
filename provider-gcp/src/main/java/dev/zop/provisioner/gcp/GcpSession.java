package dev.zop.provisioner.gcp;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceController;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import java.time.Duration;

/** The Google clients and drivers of one account in one region. */
final class GcpSession implements ProviderSession {
  private final GcpClients clients;
  private final CloudCalls calls;
  private final GcpErrors errors;
  private final String project;
  private final String region;
  private final Duration poll;

  GcpSession(GcpClients clients, CloudCalls calls, String project, String region, Duration poll) {
    this.clients = clients;
    this.calls = calls;
    this.errors = new GcpErrors(project);
    this.project = project;
    this.region = region;
    this.poll = poll;
  }

  @Override
  public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
    return switch (kind) {
      case KUBERNETES -> new KubernetesDriver(clients, calls, project, region, poll(Duration.ofSeconds(30)));
      case REGISTRY -> new RegistryDriver(clients, calls, project, region, poll(Duration.ofSeconds(2)));
      case VM_POOL -> new VmPoolDriver(clients, calls, project, region, poll(Duration.ofSeconds(10)));
      case DATASTORE -> new DatastoreDriver(clients, calls, project, region, poll(Duration.ofSeconds(30)));
      case NETWORK -> new NetworkDriver(clients, calls, project, region, poll(Duration.ofSeconds(5)));
      default -> throw new IllegalArgumentException("the GCP provider does not make " + kind.wireName() + " yet");
    };
  }

  private StatusPoll poll(Duration kindDefault) {
    return StatusPoll.every(poll != null ? poll : kindDefault);
  }

  @Override
  public Failure classify(Throwable error) {
    return errors.classify(error);
  }

  @Override
  public ClusterAccess clusterAccess() {
    return new GkeAccess(clients, calls, project, region);
  }

  @Override
  public ResourceController controller() {
    return new GcpController(clients, calls, project, region);
  }

  @Override
  public Discovery discovery() {
    return new GcpDiscovery(clients, calls, project, region);
  }

  @Override
  public SecretStore secrets() {
    return new SecretManagerStore(clients, calls, project);
  }

  @Override
  public void close() {
    clients.close();
  }
}
