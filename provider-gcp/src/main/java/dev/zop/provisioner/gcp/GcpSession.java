package dev.zop.provisioner.gcp;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.RemediationActions;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import java.time.Duration;
import java.util.Map;

/** The Google clients and drivers of one account in one region. */
final class GcpSession implements ProviderSession {
  /** The scope key that names the session's project. */
  static final String PROJECT = "projectId";

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
      case KUBERNETES -> new KubernetesDriver(context(Duration.ofSeconds(30)));
      case REGISTRY -> new RegistryDriver(context(Duration.ofSeconds(2)));
      case VM_POOL -> new VmPoolDriver(context(Duration.ofSeconds(10)));
      case DATASTORE -> new DatastoreDriver(context(Duration.ofSeconds(30)));
      case NETWORK -> new NetworkDriver(context(Duration.ofSeconds(5)));
      default -> throw new IllegalArgumentException("the GCP provider does not make " + kind.wireName() + " yet");
    };
  }

  /** What each driver is built from, its steps waiting at the kind's pace unless the session sets one. */
  private DriverContext<GcpClients> context(Duration kindDefault) {
    return new DriverContext<>(clients, calls, poll(kindDefault), () -> region, Map.of(PROJECT, project));
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
  public RemediationActions remediationActions() {
    return new GcpRemediationActions(clients, calls, project, region);
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
