package dev.zop.provisioner.gcp;

import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.kit.Offered;
import dev.zop.provisioner.discovery.Offerings;
import com.google.auto.service.AutoService;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import dev.zop.provisioner.remediation.BuiltInTemplates;

/**
 * Google Cloud, through Google's Java clients over their HTTP/JSON transport.
 *
 * <p>An account names its project in property {@code projectId}, and a space may name another in its config
 * ({@code config.projectId}; the account's credentials must reach it); its {@code credentialsRef} says where
 * credentials come from ({@code adc}, {@code file:<key.json>}, {@code env:<VAR>}, or {@code none} with endpoint
 * overrides; see {@link GcpClients}). Properties {@code endpoint.<api>} point one API ({@code compute},
 * {@code artifactregistry}, {@code secretmanager}, {@code container}, {@code redis}, {@code sqladmin}) at another
 * endpoint. It makes Cloud SQL and Memorystore datastores, regional GKE clusters, VM pools (managed instance groups behind Google's load balancers), networks (custom-mode VPC, subnetworks, peering on both sides) and Artifact Registry
 * repositories, mints kubeconfigs for GKE spaces, and keeps a space's secrets in Secret Manager.
 */
@AutoService(CloudProvider.class)
public final class GcpProvider implements CloudProvider {
  static final String ID = "gcp";
  static final List<String> REGIONS = List.of("us-central1", "us-east1", "us-east4", "us-west1", "us-west2",
      "northamerica-northeast1", "southamerica-east1", "europe-west1", "europe-west2", "europe-west3",
      "europe-west4", "europe-north1", "asia-east1", "asia-northeast1", "asia-south1", "asia-southeast1",
      "australia-southeast1");

  private static final ProviderMetadata METADATA = new ProviderMetadata(ID, "Google Cloud",
      Set.of(JobKind.KUBERNETES, JobKind.VM_POOL, JobKind.NETWORK, JobKind.REGISTRY, JobKind.DATASTORE), REGIONS,
      Set.of("region"),
      Map.of(JobKind.KUBERNETES, Duration.ofMinutes(40), JobKind.VM_POOL, Duration.ofMinutes(20),
          JobKind.NETWORK, Duration.ofMinutes(20), JobKind.REGISTRY, Duration.ofMinutes(5),
          JobKind.DATASTORE, Duration.ofMinutes(60)),
      // a space may work in another project than its account's
      Set.of("projectId"));

  private final CloudCalls.Observer observer;
  private final Duration pollInterval;

  /** The provider as {@link java.util.ServiceLoader} makes it. */
  public GcpProvider() {
    this(CloudCalls.Observer.NONE, null);
  }

  private GcpProvider(CloudCalls.Observer observer, Duration pollInterval) {
    this.observer = Objects.requireNonNull(observer, "observer");
    this.pollInterval = pollInterval;
  }

  /** The same provider telling {@code observer} of every call Google answered with success (metrics, audit). */
  public GcpProvider observingCalls(CloudCalls.Observer observer) {
    return new GcpProvider(observer, pollInterval);
  }

  /** The same provider looking again at unfinished changes every {@code interval}; for emulators and tests. */
  @Override
  public GcpProvider pollingEvery(Duration interval) {
    return new GcpProvider(observer, interval);
  }

  /** What {@link GcpRemediationActions} acts on: Compute Engine instances, Cloud SQL instances, Dataproc clusters. */
  @Override
  public Map<String, Set<String>> remediationTypes() {
    return Map.of(BuiltInTemplates.STOP_IDLE_VM, Set.of("compute-instance"),
        BuiltInTemplates.STOP_IDLE_DATABASE, Set.of("cloudsql-instance"),
        BuiltInTemplates.PAUSE_DATAPROC, Set.of("dataproc-cluster"));
  }

  @Override
  public ProviderMetadata metadata() {
    return METADATA;
  }

  @Override
  public Offerings offerings(String region) {
    return new Offerings(ID, region, GcpPrices.TABLE.asOf(),
        Offered.machines(MachineTypes.SIZES, name -> GcpPrices.TABLE.hourlyPrice(region, "compute:" + name)),
        Offered.sizes(Offered.databaseAliases(), alias -> nameOf(DatastoreDriver.SQL_TIERS.atLeast(alias)),
            tier -> DatastoreDriver.sqlHourly(region, tier)),
        Offered.sizes(MachineSizes.CACHE_ALIASES, alias -> nameOf(DatastoreDriver.REDIS_CAPACITIES.atLeast(alias)),
            capacity -> DatastoreDriver.redisHourly(region, Integer.parseInt(capacity.substring("redis-".length())),
                false)),
        java.util.List.of(), java.util.Map.of());
  }

  private static String nameOf(dev.zop.provisioner.kit.MachineSize size) {
    return size == null ? null : size.name();
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    return open(account, region, Map.of());
  }

  /** A space's {@code projectId}, when it sets one, takes the place of its account's. */
  @Override
  public ProviderSession open(CloudAccount account, String region, Map<String, String> scope) {
    String project = scope.getOrDefault("projectId", account.properties().get("projectId"));
    if (project == null || project.isBlank()) {
      throw new CredentialsUnavailableException("GCP account " + account.name() + " names no project",
          "Set the account's projectId property to the project the engine provisions in.", null);
    }
    return new GcpSession(new GcpClients(account, region), GcpErrors.CALLS.observedBy(observer), project, region,
        pollInterval);
  }
}
