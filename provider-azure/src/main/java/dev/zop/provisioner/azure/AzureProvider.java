package dev.zop.provisioner.azure;

import dev.zop.provisioner.kit.Offered;
import dev.zop.provisioner.discovery.Offerings;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.google.auto.service.AutoService;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.CloudCalls;
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
 * Microsoft Azure, through the Azure SDK's resource managers over the JDK's HTTP client.
 *
 * <p>An account names its tenant and subscription ({@code tenantId}, {@code subscriptionId}); its
 * {@code credentialsRef} says where credentials come from (see {@link AzureClients}). A space names its
 * {@code resourceGroup} (an existing group the account may write to), the session's scope, and optionally a
 * {@code region}; without one, resources go to the resource group's location. An account whose
 * {@code keyVaultUrl} names a vault keeps its jobs' secrets there; without one, the engine's local store does. It makes AKS clusters (with
 * kubeconfigs for their spaces), VM scale sets behind Standard Load Balancers, PostgreSQL flexible servers,
 * virtual networks (subnets, two-sided peering) and container registries.
 */
@AutoService(CloudProvider.class)
public final class AzureProvider implements CloudProvider {
  static final String ID = "azure";
  static final List<String> REGIONS = List.of("eastus", "eastus2", "westus2", "westus3", "centralus",
      "northeurope", "westeurope", "uksouth", "germanywestcentral", "swedencentral", "southeastasia", "japaneast",
      "australiaeast", "canadacentral", "brazilsouth", "centralindia");

  private static final ProviderMetadata METADATA = new ProviderMetadata(ID, "Microsoft Azure",
      Set.of(JobKind.KUBERNETES, JobKind.NETWORK, JobKind.REGISTRY, JobKind.DATASTORE, JobKind.VM_POOL), REGIONS,
      Set.of("resourceGroup"),
      Map.of(JobKind.KUBERNETES, Duration.ofMinutes(40), JobKind.NETWORK, Duration.ofMinutes(20),
          JobKind.REGISTRY, Duration.ofMinutes(10), JobKind.DATASTORE, Duration.ofMinutes(60),
          JobKind.VM_POOL, Duration.ofMinutes(30)),
      Set.of("resourceGroup"));

  /** The host's credential for an account, or null to load it from the account's credentialsRef. */
  private final java.util.function.Function<CloudAccount, TokenCredential> credential;
  private final HttpClient http;
  private final CloudCalls.Observer observer;
  private final Duration pollInterval;
  private final boolean verifyVaultChallenge;

  public AzureProvider() {
    this(null, null, CloudCalls.Observer.NONE, null, true);
  }

  private AzureProvider(java.util.function.Function<CloudAccount, TokenCredential> credential, HttpClient http, CloudCalls.Observer observer,
      Duration pollInterval, boolean verifyVaultChallenge) {
    this.credential = credential;
    this.http = http;
    this.observer = Objects.requireNonNull(observer);
    this.pollInterval = pollInterval;
    this.verifyVaultChallenge = verifyVaultChallenge;
  }

  /** The same provider authenticating every account with this credential (a host's own, or a test's). */
  public AzureProvider withCredential(TokenCredential value) {
    Objects.requireNonNull(value);
    return withCredentials(account -> value);
  }

  /**
   * The same provider asking the host for each account's credential (one it already holds, or one built its own
   * way); an account it answers null for loads its credential from its credentialsRef.
   */
  public AzureProvider withCredentials(java.util.function.Function<CloudAccount, TokenCredential> perAccount) {
    return new AzureProvider(Objects.requireNonNull(perAccount), http, observer, pollInterval,
        verifyVaultChallenge);
  }

  /** The same provider over this HTTP client (a proxy, a custom trust store). */
  public AzureProvider withHttpClient(HttpClient value) {
    return new AzureProvider(credential, value, observer, pollInterval, verifyVaultChallenge);
  }

  /** The same provider telling {@code value} of every call Azure answered with success. */
  public AzureProvider observingCalls(CloudCalls.Observer value) {
    return new AzureProvider(credential, http, value, pollInterval, verifyVaultChallenge);
  }

  /** The same provider looking again at unfinished changes every {@code interval}; for emulators and tests. */
  @Override
  public AzureProvider pollingEvery(Duration interval) {
    return new AzureProvider(credential, http, observer, interval, verifyVaultChallenge);
  }

  /**
   * The same provider accepting a Key Vault challenge whose token audience is not the vault's own domain: for a
   * vault reached through a host outside vault.azure.net (a private endpoint's name, an emulator).
   */
  public AzureProvider withoutVaultChallengeVerification() {
    return new AzureProvider(credential, http, observer, pollInterval, false);
  }

  /**
   * What {@link AzureRemediationActions} acts on (ML compute and Databricks clusters are named so that their
   * recommendations reach it, which refuses them saying why: their management libraries are not in this build).
   */
  @Override
  public Map<String, Set<String>> remediationTypes() {
    return Map.of(BuiltInTemplates.STOP_IDLE_VM, Set.of("virtual-machine", "vm-scale-set",
            "virtual-machine-scale-set"),
        BuiltInTemplates.STOP_IDLE_DATABASE, Set.of("azure-database-server", "azure-mysql-server"),
        BuiltInTemplates.PAUSE_SERVICE, Set.of("synapse-pool", "ml-compute", "data-factory", "cognitive-services",
            "databricks-cluster"));
  }

  @Override
  public ProviderMetadata metadata() {
    return METADATA;
  }

  @Override
  public Offerings offerings(String region) {
    return new Offerings(ID, region, AzurePrices.TABLE.asOf(),
        Offered.machines(VmSizes.SIZES, name -> AzurePrices.TABLE.hourlyPrice(region, "vm:" + name)),
        // PostgreSQL's flexible-server sizes (MySQL's differ by generation and are priced at plan time)
        Offered.sizes(Offered.databaseAliases(), alias -> nameOf(DatastoreDriver.SKUS.atLeast(alias)),
            sku -> AzurePrices.TABLE.hourlyPrice(region, "pgflex:" + sku)),
        Offered.sizes(dev.zop.provisioner.kit.MachineSizes.CACHE_ALIASES,
            alias -> nameOf(RedisCache.STANDARD_SIZES.atLeast(alias)),
            size -> AzurePrices.TABLE.hourlyPrice(region, "redis:" + size)),
        java.util.List.of(), java.util.Map.of());
  }

  private static String nameOf(dev.zop.provisioner.kit.MachineSize size) {
    return size == null ? null : size.name();
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    return open(account, region, Map.of());
  }

  @Override
  public ProviderSession open(CloudAccount account, String region, Map<String, String> scope) {
    AzureClients clients = new AzureClients(account, credential == null ? null : credential.apply(account), http);
    CloudCalls calls = AzureErrors.CALLS.observedBy(observer);
    String vaultUrl = account.properties().get("keyVaultUrl");
    KeyVaultStore vault = vaultUrl == null || vaultUrl.isBlank() ? null
        : new KeyVaultStore(() -> clients.vault(vaultUrl, verifyVaultChallenge), calls, vaultUrl);
    return new AzureSession(clients, calls, account.properties().getOrDefault("subscriptionId", "unknown"),
        scope.get("resourceGroup"), region, pollInterval, vault);
  }
}
