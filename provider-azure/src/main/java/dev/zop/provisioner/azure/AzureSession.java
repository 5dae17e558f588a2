package dev.zop.provisioner.azure;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
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

/** The resource managers and drivers of one account, in one region and resource group. */
final class AzureSession implements ProviderSession {
  /** The scope key that names the session's resource group. */
  static final String RESOURCE_GROUP = "resourceGroup";

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final String region;
  private final Duration poll;
  private final AzureErrors errors;
  private final KeyVaultStore vault;
  private String location;

  AzureSession(AzureClients clients, CloudCalls calls, String subscription, String resourceGroup, String region,
      Duration poll, KeyVaultStore vault) {
    this.vault = vault;
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
    this.region = region;
    this.poll = poll;
    this.errors = new AzureErrors(subscription, resourceGroup);
  }

  @Override
  public ResourceDriver<? extends ResourceSpec> driver(JobKind kind) {
    if (resourceGroup == null) {
      throw new CredentialsUnavailableException("no resource group: Azure jobs run in a space's resource group",
          "Create the job in a space whose config names its resourceGroup.", null);
    }
    return switch (kind) {
      case KUBERNETES -> new KubernetesDriver(context(Duration.ofSeconds(30)));
      case DATASTORE -> new DatastoreDriver(context(Duration.ofSeconds(30)), vault != null);
      case NETWORK -> new NetworkDriver(context(Duration.ofSeconds(5)));
      case REGISTRY -> new RegistryDriver(context(Duration.ofSeconds(5)));
      case VM_POOL -> new VmPoolDriver(context(Duration.ofSeconds(15)), vault != null);
      default -> throw new IllegalArgumentException("the Azure provider does not make " + kind.wireName() + " yet");
    };
  }

  /** What each driver is built from, its steps waiting at the kind's pace unless the session sets one. */
  private DriverContext<AzureClients> context(Duration kindDefault) {
    return new DriverContext<>(clients, calls, poll(kindDefault), this::location,
        Map.of(RESOURCE_GROUP, resourceGroup));
  }

  /** The space's region, or its resource group's location when it names none (read once). */
  @Override
  public synchronized String location() {
    if (location == null) {
      location = region != null && !region.isBlank() ? region
          : calls.call(AzureActions.RESOURCE_GROUPS_READ, () -> clients.network().resourceManager().serviceClient()
              .getResourceGroups().get(resourceGroup)).location();
    }
    return location;
  }

  private StatusPoll poll(Duration kindDefault) {
    return StatusPoll.every(poll != null ? poll : kindDefault);
  }

  @Override
  public ClusterAccess clusterAccess() {
    return resourceGroup == null ? null : new AksAccess(clients, calls, resourceGroup);
  }

  @Override
  public Discovery discovery() {
    return resourceGroup == null ? null : new AzureDiscovery(clients, calls, resourceGroup);
  }

  @Override
  public RemediationActions remediationActions() {
    return new AzureRemediationActions(clients, calls);
  }

  @Override
  public SecretStore secrets() {
    return vault;
  }

  @Override
  public Failure classify(Throwable error) {
    return errors.classify(error);
  }

  @Override
  public void close() {
    // the managers hold the shared HTTP client, which needs no closing
  }
}
