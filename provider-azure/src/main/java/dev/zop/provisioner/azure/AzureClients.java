package dev.zop.provisioner.azure;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.profile.AzureProfile;
import com.azure.identity.ClientCertificateCredentialBuilder;
import com.azure.identity.ClientSecretCredentialBuilder;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.identity.ManagedIdentityCredentialBuilder;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.containerregistry.ContainerRegistryManager;
import com.azure.resourcemanager.containerservice.ContainerServiceManager;
import com.azure.resourcemanager.postgresqlflexibleserver.PostgreSqlManager;
import com.azure.resourcemanager.monitor.MonitorManager;
import com.azure.resourcemanager.network.NetworkManager;
import com.azure.security.keyvault.secrets.SecretClient;
import com.azure.security.keyvault.secrets.SecretClientBuilder;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import java.util.Map;

/**
 * The resource managers of one account, each built on first use over the JDK's HTTP client (no Netty). The
 * account names its tenant and subscription in properties {@code tenantId} and {@code subscriptionId}; property
 * {@code endpoint} points Resource Manager elsewhere (a sovereign cloud, a private endpoint, a fake). Its
 * {@code credentialsRef} says where credentials come from: {@code default-chain} (or none) for azure-identity's
 * default chain; {@code managed-identity} (optionally {@code managed-identity:<client id>}); {@code env:<PREFIX>}
 * for a service principal's {@code <PREFIX>_CLIENT_ID} and its {@code <PREFIX>_CLIENT_SECRET} or certificate
 * ({@code <PREFIX>_CLIENT_CERTIFICATE_PATH}, PEM or PFX with {@code <PREFIX>_CLIENT_CERTIFICATE_PASSWORD}).
 * Property {@code environment} picks a sovereign cloud ({@code AzureChinaCloud}, {@code AzureUSGovernment}).
 */
final class AzureClients {
  private final CloudAccount account;
  private final java.util.function.UnaryOperator<String> environment;
  private final TokenCredential credentialOverride;
  private final HttpClient http;
  private NetworkManager network;
  private ContainerRegistryManager registry;
  private ContainerServiceManager containerService;
  private PostgreSqlManager postgres;
  private ComputeManager compute;
  private MonitorManager monitor;
  private SecretClient vault;
  private com.azure.resourcemanager.mysqlflexibleserver.MySqlManager mysql;
  private com.azure.resourcemanager.redis.RedisManager redis;
  private com.azure.resourcemanager.privatedns.PrivateDnsZoneManager privateDns;
  private com.azure.resourcemanager.synapse.SynapseManager synapse;
  private com.azure.resourcemanager.datafactory.DataFactoryManager dataFactory;
  private com.azure.resourcemanager.cognitiveservices.CognitiveServicesManager cognitive;
  private TokenCredential credential;

  AzureClients(CloudAccount account, TokenCredential credentialOverride, HttpClient http) {
    this(account, credentialOverride, http, System::getenv);
  }

  /** With the environment the {@code env:} references read, which tests give their own. */
  AzureClients(CloudAccount account, TokenCredential credentialOverride, HttpClient http,
      java.util.function.UnaryOperator<String> environment) {
    this.environment = environment;
    this.account = account;
    this.credentialOverride = credentialOverride;
    this.http = http != null ? http : new com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder().build();
  }

  String subscription() {
    return require("subscriptionId");
  }

  synchronized NetworkManager network() {
    if (network == null) {
      network = NetworkManager.configure().withHttpClient(http).authenticate(credential(), profile());
    }
    return network;
  }

  synchronized ContainerServiceManager containerService() {
    if (containerService == null) {
      containerService = ContainerServiceManager.configure().withHttpClient(http).authenticate(credential(), profile());
    }
    return containerService;
  }

  synchronized PostgreSqlManager postgres() {
    if (postgres == null) {
      postgres = PostgreSqlManager.configure().withHttpClient(http).authenticate(credential(), profile());
    }
    return postgres;
  }

  /**
   * The data-plane client of the account's Key Vault ({@code keyVaultUrl}). Key Vault answers a first request
   * with a challenge naming its token audience, which must match the vault's domain unless the provider was told
   * otherwise (a vault behind a private endpoint or an emulator, whose host is not under vault.azure.net).
   */
  synchronized SecretClient vault(String url, boolean verifyChallengeResource) {
    if (vault == null) {
      SecretClientBuilder builder = new SecretClientBuilder().vaultUrl(url).credential(credential()).httpClient(http);
      String challengeResource = account.properties().get("keyVaultChallengeResource");
      if (challengeResource != null && !challengeResource.isBlank()) {
        // the account names the audience: checked by us, since the SDK's check wants the vault host's domain
        builder.disableChallengeResourceVerification().addPolicy(new VaultChallengeCheck(challengeResource));
      } else if (!verifyChallengeResource) {
        builder.disableChallengeResourceVerification();
      }
      vault = builder.buildClient();
    }
    return vault;
  }

  synchronized com.azure.resourcemanager.synapse.SynapseManager synapse() {
    if (synapse == null) {
      synapse = com.azure.resourcemanager.synapse.SynapseManager.configure().withHttpClient(http)
          .authenticate(credential(), profile());
    }
    return synapse;
  }

  synchronized com.azure.resourcemanager.datafactory.DataFactoryManager dataFactory() {
    if (dataFactory == null) {
      dataFactory = com.azure.resourcemanager.datafactory.DataFactoryManager.configure().withHttpClient(http)
          .authenticate(credential(), profile());
    }
    return dataFactory;
  }

  synchronized com.azure.resourcemanager.cognitiveservices.CognitiveServicesManager cognitive() {
    if (cognitive == null) {
      cognitive = com.azure.resourcemanager.cognitiveservices.CognitiveServicesManager.configure()
          .withHttpClient(http).authenticate(credential(), profile());
    }
    return cognitive;
  }

  synchronized com.azure.resourcemanager.privatedns.PrivateDnsZoneManager privateDns() {
    if (privateDns == null) {
      privateDns = com.azure.resourcemanager.privatedns.PrivateDnsZoneManager.configure().withHttpClient(http)
          .authenticate(credential(), profile());
    }
    return privateDns;
  }

  synchronized com.azure.resourcemanager.redis.RedisManager redis() {
    if (redis == null) {
      redis = com.azure.resourcemanager.redis.RedisManager.configure().withHttpClient(http)
          .authenticate(credential(), profile());
    }
    return redis;
  }

  synchronized com.azure.resourcemanager.mysqlflexibleserver.MySqlManager mysql() {
    if (mysql == null) {
      mysql = com.azure.resourcemanager.mysqlflexibleserver.MySqlManager.configure().withHttpClient(http)
          .authenticate(credential(), profile());
    }
    return mysql;
  }

  synchronized ComputeManager compute() {
    if (compute == null) {
      compute = ComputeManager.configure().withHttpClient(http).authenticate(credential(), profile());
    }
    return compute;
  }

  synchronized MonitorManager monitor() {
    if (monitor == null) {
      monitor = MonitorManager.configure().withHttpClient(http).authenticate(credential(), profile());
    }
    return monitor;
  }

  synchronized ContainerRegistryManager registry() {
    if (registry == null) {
      registry = ContainerRegistryManager.configure().withHttpClient(http).authenticate(credential(), profile());
    }
    return registry;
  }

  private String require(String property) {
    String value = account.properties().get(property);
    if (value == null || value.isBlank()) {
      throw new CredentialsUnavailableException("Azure account " + account.name() + " sets no " + property,
          "Set the account's " + property + " property.", null);
    }
    return value;
  }

  private AzureProfile profile() {
    String endpoint = account.properties().get("endpoint");
    String cloud = account.properties().getOrDefault("environment", "AzureCloud");
    AzureEnvironment environment = switch (cloud) {
      case "AzureCloud" -> AzureEnvironment.AZURE;
      case "AzureChinaCloud" -> AzureEnvironment.AZURE_CHINA;
      case "AzureUSGovernment" -> AzureEnvironment.AZURE_US_GOVERNMENT;
      default -> throw new CredentialsUnavailableException("unknown Azure environment '" + cloud + "'",
          "Set the account's environment property to AzureCloud, AzureChinaCloud or AzureUSGovernment, or point"
              + " endpoint at Resource Manager.", null);
    };
    String audience = account.properties().get("resourceManagerAudience");
    if (endpoint != null) {
      String base = endpoint.endsWith("/") ? endpoint : endpoint + "/";
      java.util.Map<String, String> settings = new java.util.HashMap<>(environment.getEndpoints());
      settings.put("resourceManagerEndpointUrl", base);
      if (audience == null || audience.isBlank()) {
        // everything at one address, the token audience too: an emulator
        settings = Map.of("resourceManagerEndpointUrl", base, "managementEndpointUrl", base,
            "activeDirectoryEndpointUrl", base, "microsoftGraphResourceId", base);
      } else {
        // a proxy or a private link in front of Resource Manager: the calls go there, tokens stay for the
        // audience Entra ID knows, from the cloud's own Entra ID unless activeDirectoryEndpoint says otherwise
        settings.put("managementEndpointUrl", audience.endsWith("/") ? audience : audience + "/");
        String directory = account.properties().get("activeDirectoryEndpoint");
        if (directory != null && !directory.isBlank()) {
          settings.put("activeDirectoryEndpointUrl", directory.endsWith("/") ? directory : directory + "/");
        }
      }
      environment = new AzureEnvironment(settings);
    } else if (audience != null && !audience.isBlank()) {
      java.util.Map<String, String> settings = new java.util.HashMap<>(environment.getEndpoints());
      settings.put("managementEndpointUrl", audience.endsWith("/") ? audience : audience + "/");
      environment = new AzureEnvironment(settings);
    }
    return new AzureProfile(require("tenantId"), subscription(), environment);
  }

  /** One credential for all the account's managers, so they share its token cache. */
  synchronized TokenCredential credential() {
    if (credential == null) {
      credential = load();
    }
    return credential;
  }

  private TokenCredential load() {
    if (credentialOverride != null) {
      return credentialOverride;
    }
    String ref = account.credentialsRef() == null || account.credentialsRef().isBlank() ? "default-chain"
        : account.credentialsRef();
    if (ref.equals("default-chain")) {
      return new DefaultAzureCredentialBuilder().tenantId(require("tenantId")).build();
    }
    if (ref.equals("managed-identity") || ref.startsWith("managed-identity:")) {
      ManagedIdentityCredentialBuilder builder = new ManagedIdentityCredentialBuilder();
      if (ref.startsWith("managed-identity:")) {
        builder.clientId(ref.substring("managed-identity:".length()));
      }
      return builder.build();
    }
    if (ref.startsWith("env:")) {
      String prefix = ref.substring("env:".length());
      String id = environment.apply(prefix + "_CLIENT_ID");
      String secret = environment.apply(prefix + "_CLIENT_SECRET");
      String certificate = environment.apply(prefix + "_CLIENT_CERTIFICATE_PATH");
      if (id == null || secret == null && certificate == null) {
        throw new CredentialsUnavailableException(prefix + "_CLIENT_ID, or both " + prefix + "_CLIENT_SECRET and "
            + prefix + "_CLIENT_CERTIFICATE_PATH, are not set", "Set " + prefix + "_CLIENT_ID to the service"
                + " principal's id and " + prefix + "_CLIENT_SECRET to its secret, or " + prefix
                + "_CLIENT_CERTIFICATE_PATH to its certificate (PEM, or PFX with " + prefix
                + "_CLIENT_CERTIFICATE_PASSWORD), in the engine's environment; or change the account's"
                + " credentialsRef.", null);
      }
      if (secret != null) {
        return new ClientSecretCredentialBuilder().tenantId(require("tenantId")).clientId(id).clientSecret(secret)
            .build();
      }
      if (!java.nio.file.Files.isReadable(java.nio.file.Path.of(certificate))) {
        throw new CredentialsUnavailableException("the service principal's certificate " + certificate
            + " cannot be read", "Put the certificate where " + prefix + "_CLIENT_CERTIFICATE_PATH says, readable"
                + " by the engine.", null);
      }
      var builder = new ClientCertificateCredentialBuilder().tenantId(require("tenantId")).clientId(id);
      String password = environment.apply(prefix + "_CLIENT_CERTIFICATE_PASSWORD");
      return certificate.endsWith(".pfx") || certificate.endsWith(".p12")
          ? builder.pfxCertificate(certificate).clientCertificatePassword(password).build()
          : builder.pemCertificate(certificate).build();
    }
    throw new CredentialsUnavailableException("unknown credentialsRef '" + ref + "'",
        "Use default-chain, managed-identity[:<client id>] or env:<PREFIX>.", null);
  }
}
