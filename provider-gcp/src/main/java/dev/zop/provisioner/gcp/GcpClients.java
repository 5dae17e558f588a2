package dev.zop.provisioner.gcp;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.devtools.artifactregistry.v1.ArtifactRegistryClient;
import com.google.devtools.artifactregistry.v1.ArtifactRegistrySettings;
import com.google.cloud.compute.v1.BackendServicesClient;
import com.google.cloud.compute.v1.BackendServicesSettings;
import com.google.cloud.compute.v1.FirewallsClient;
import com.google.cloud.compute.v1.FirewallsSettings;
import com.google.cloud.compute.v1.ForwardingRulesClient;
import com.google.cloud.compute.v1.ForwardingRulesSettings;
import com.google.cloud.compute.v1.GlobalForwardingRulesClient;
import com.google.cloud.compute.v1.GlobalForwardingRulesSettings;
import com.google.cloud.compute.v1.HealthChecksClient;
import com.google.cloud.compute.v1.HealthChecksSettings;
import com.google.cloud.compute.v1.InstanceTemplatesClient;
import com.google.cloud.compute.v1.InstanceTemplatesSettings;
import com.google.cloud.compute.v1.RegionAutoscalersClient;
import com.google.cloud.compute.v1.RegionAutoscalersSettings;
import com.google.cloud.compute.v1.RegionBackendServicesClient;
import com.google.cloud.compute.v1.RegionBackendServicesSettings;
import com.google.cloud.compute.v1.RegionHealthChecksClient;
import com.google.cloud.compute.v1.RegionHealthChecksSettings;
import com.google.cloud.compute.v1.RegionInstanceGroupManagersClient;
import com.google.cloud.compute.v1.RegionInstanceGroupManagersSettings;
import com.google.cloud.compute.v1.TargetHttpProxiesClient;
import com.google.cloud.compute.v1.TargetHttpProxiesSettings;
import com.google.cloud.compute.v1.TargetHttpsProxiesClient;
import com.google.cloud.compute.v1.TargetHttpsProxiesSettings;
import com.google.cloud.compute.v1.UrlMapsClient;
import com.google.cloud.compute.v1.UrlMapsSettings;
import com.google.cloud.compute.v1.GlobalOperationsClient;
import com.google.cloud.compute.v1.InstancesClient;
import com.google.cloud.compute.v1.InstancesSettings;
import com.google.cloud.dataproc.v1.ClusterControllerClient;
import com.google.cloud.dataproc.v1.ClusterControllerSettings;
import com.google.cloud.compute.v1.GlobalOperationsSettings;
import com.google.cloud.compute.v1.NetworksClient;
import com.google.cloud.compute.v1.NetworksSettings;
import com.google.cloud.compute.v1.RegionOperationsClient;
import com.google.cloud.compute.v1.RegionOperationsSettings;
import com.google.cloud.compute.v1.SubnetworksClient;
import com.google.cloud.compute.v1.SubnetworksSettings;
import com.google.cloud.secretmanager.v1.SecretManagerServiceClient;
import com.google.cloud.secretmanager.v1.SecretManagerServiceSettings;
import com.google.cloud.container.v1.ClusterManagerClient;
import com.google.cloud.redis.v1.CloudRedisClient;
import com.google.cloud.redis.v1.CloudRedisSettings;
import com.google.cloud.container.v1.ClusterManagerSettings;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Google clients of one account, each built on first use over the HTTP/JSON transport (no gRPC, no Netty)
 * and closed with the session. Credentials are loaded then too, so an account without them fails the step that
 * needs them as {@code credentials_missing}, never the engine's start.
 *
 * <p>The account's {@code credentialsRef} says where credentials come from, never what they are: {@code adc} (or
 * none) for Application Default Credentials; {@code file:<path>} for a service-account key file; {@code env:<VAR>}
 * for a key's JSON in an environment variable; {@code none} for an endpoint that takes no credentials (an
 * emulator, or a private endpoint that authenticates otherwise), allowed only with endpoints set. Properties
 * {@code endpoint.<api>} (e.g. {@code endpoint.compute}) point one API at another endpoint.
 */
final class GcpClients implements AutoCloseable {
  static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";

  private final CloudAccount account;
  private final String region;
  private final Map<Class<?>, AutoCloseable> opened = new LinkedHashMap<>();
  private CredentialsProvider credentials;

  GcpClients(CloudAccount account, String region) {
    this.account = account;
    this.region = region;
  }

  NetworksClient networks() {
    return client(NetworksClient.class, () -> NetworksClient.create(compute(NetworksSettings.newBuilder())));
  }

  SubnetworksClient subnetworks() {
    return client(SubnetworksClient.class, () -> SubnetworksClient.create(compute(SubnetworksSettings.newBuilder())));
  }

  GlobalOperationsClient globalOperations() {
    return client(GlobalOperationsClient.class,
        () -> GlobalOperationsClient.create(compute(GlobalOperationsSettings.newBuilder())));
  }

  RegionOperationsClient regionOperations() {
    return client(RegionOperationsClient.class,
        () -> RegionOperationsClient.create(compute(RegionOperationsSettings.newBuilder())));
  }

  InstanceTemplatesClient instanceTemplates() {
    return client(InstanceTemplatesClient.class,
        () -> InstanceTemplatesClient.create(compute(InstanceTemplatesSettings.newBuilder())));
  }

  RegionInstanceGroupManagersClient instanceGroupManagers() {
    return client(RegionInstanceGroupManagersClient.class,
        () -> RegionInstanceGroupManagersClient.create(compute(RegionInstanceGroupManagersSettings.newBuilder())));
  }

  RegionAutoscalersClient autoscalers() {
    return client(RegionAutoscalersClient.class,
        () -> RegionAutoscalersClient.create(compute(RegionAutoscalersSettings.newBuilder())));
  }

  FirewallsClient firewalls() {
    return client(FirewallsClient.class, () -> FirewallsClient.create(compute(FirewallsSettings.newBuilder())));
  }

  HealthChecksClient healthChecks() {
    return client(HealthChecksClient.class,
        () -> HealthChecksClient.create(compute(HealthChecksSettings.newBuilder())));
  }

  RegionHealthChecksClient regionHealthChecks() {
    return client(RegionHealthChecksClient.class,
        () -> RegionHealthChecksClient.create(compute(RegionHealthChecksSettings.newBuilder())));
  }

  BackendServicesClient backendServices() {
    return client(BackendServicesClient.class,
        () -> BackendServicesClient.create(compute(BackendServicesSettings.newBuilder())));
  }

  RegionBackendServicesClient regionBackendServices() {
    return client(RegionBackendServicesClient.class,
        () -> RegionBackendServicesClient.create(compute(RegionBackendServicesSettings.newBuilder())));
  }

  UrlMapsClient urlMaps() {
    return client(UrlMapsClient.class, () -> UrlMapsClient.create(compute(UrlMapsSettings.newBuilder())));
  }

  TargetHttpProxiesClient targetHttpProxies() {
    return client(TargetHttpProxiesClient.class,
        () -> TargetHttpProxiesClient.create(compute(TargetHttpProxiesSettings.newBuilder())));
  }

  TargetHttpsProxiesClient targetHttpsProxies() {
    return client(TargetHttpsProxiesClient.class,
        () -> TargetHttpsProxiesClient.create(compute(TargetHttpsProxiesSettings.newBuilder())));
  }

  GlobalForwardingRulesClient globalForwardingRules() {
    return client(GlobalForwardingRulesClient.class,
        () -> GlobalForwardingRulesClient.create(compute(GlobalForwardingRulesSettings.newBuilder())));
  }

  ForwardingRulesClient forwardingRules() {
    return client(ForwardingRulesClient.class,
        () -> ForwardingRulesClient.create(compute(ForwardingRulesSettings.newBuilder())));
  }

  ArtifactRegistryClient artifactRegistry() {
    return client(ArtifactRegistryClient.class, () -> ArtifactRegistryClient.create(
        configure(ArtifactRegistrySettings.newHttpJsonBuilder(), "artifactregistry").build()));
  }

  SecretManagerServiceClient secretManager() {
    return client(SecretManagerServiceClient.class, () -> SecretManagerServiceClient.create(
        configure(SecretManagerServiceSettings.newHttpJsonBuilder(), "secretmanager").build()));
  }

  InstancesClient instances() {
    return client(InstancesClient.class, () -> InstancesClient.create(compute(InstancesSettings.newBuilder())));
  }

  /** Dataproc serves each region at its own endpoint ({@code <region>-dataproc.googleapis.com}). */
  ClusterControllerClient dataproc() {
    return client(ClusterControllerClient.class, () -> {
      var builder = ClusterControllerSettings.newHttpJsonBuilder();
      if (!account.properties().containsKey("endpoint.dataproc")) {
        builder.setEndpoint(region + "-dataproc.googleapis.com:443");
      }
      return ClusterControllerClient.create(configure(builder, "dataproc").build());
    });
  }

  CloudRedisClient redis() {
    return client(CloudRedisClient.class, () -> CloudRedisClient.create(
        configure(CloudRedisSettings.newHttpJsonBuilder(), "redis").build()));
  }

  /** Cloud SQL Admin, which has no Google Cloud client library: its discovery-generated client. */
  SqlAdminClient sqlAdmin() {
    return client(SqlAdminClient.class, () -> new SqlAdminClient(discoveryClient(
        com.google.api.services.sqladmin.SQLAdmin.Builder::new, "sqladmin").build()));
  }

  /** Cloud DNS, likewise through its discovery-generated client. */
  DnsClient dns() {
    return client(DnsClient.class, () -> new DnsClient(discoveryClient(
        com.google.api.services.dns.Dns.Builder::new, "dns").build()));
  }

  private interface DiscoveryBuilder<B extends com.google.api.client.googleapis.services.json
      .AbstractGoogleJsonClient.Builder> {
    B create(com.google.api.client.http.HttpTransport transport, com.google.api.client.json.JsonFactory json,
        com.google.api.client.http.HttpRequestInitializer initializer);
  }

  /** A discovery-generated client with the account's credentials, pointed at {@code endpoint.<api>} if set. */
  private <B extends com.google.api.client.googleapis.services.json.AbstractGoogleJsonClient.Builder> B
      discoveryClient(DiscoveryBuilder<B> builder, String api) throws IOException {
    var found = credentials().getCredentials();
    com.google.api.client.http.HttpRequestInitializer auth = found == null ? request -> { }
        : new com.google.auth.http.HttpCredentialsAdapter(found);
    B client = builder.create(new com.google.api.client.http.javanet.NetHttpTransport(),
        com.google.api.client.json.gson.GsonFactory.getDefaultInstance(), auth);
    client.setApplicationName("zop-provisioner");
    String endpoint = account.properties().get("endpoint." + api);
    if (endpoint != null) {
      client.setRootUrl(endpoint.endsWith("/") ? endpoint : endpoint + "/");
    }
    return client;
  }

  /** The discovery-generated clients keep no threads or pools of their own: closing them releases nothing. */
  record SqlAdminClient(com.google.api.services.sqladmin.SQLAdmin api) implements AutoCloseable {
    @Override
    public void close() {
      // nothing held
    }
  }

  record DnsClient(com.google.api.services.dns.Dns api) implements AutoCloseable {
    @Override
    public void close() {
      // nothing held
    }
  }

  ClusterManagerClient clusterManager() {
    return client(ClusterManagerClient.class, () -> ClusterManagerClient.create(
        configure(ClusterManagerSettings.newHttpJsonBuilder(), "container").build()));
  }

  /**
   * A fresh OAuth access token from the account's credentials, for a kubeconfig (what
   * {@code gcloud container clusters get-credentials} leaves to its auth plugin to fetch).
   */
  com.google.auth.oauth2.AccessToken accessToken() {
    try {
      var found = credentials().getCredentials();
      if (!(found instanceof GoogleCredentials google)) {
        throw new CredentialsUnavailableException("the account's credentials (" + account.credentialsRef()
            + ") cannot mint access tokens", "Use adc, file:<key.json> or env:<VAR> for accounts whose clusters"
            + " need kubeconfigs.", null);
      }
      google.refreshIfExpired();
      return google.getAccessToken();
    } catch (IOException e) {
      throw new CredentialsUnavailableException("an access token could not be obtained: " + e.getMessage(),
          hint(account.credentialsRef() == null ? "adc" : account.credentialsRef()), e);
    }
  }

  @SuppressWarnings("unchecked")
  private <S extends com.google.api.gax.rpc.ClientSettings<S>> S compute(
      com.google.api.gax.rpc.ClientSettings.Builder<S, ?> builder) {
    try {
      return configure(builder, "compute").build();
    } catch (IOException e) {
      throw new IllegalStateException("could not configure a Compute Engine client: " + e.getMessage(), e);
    }
  }

  private <B extends com.google.api.gax.rpc.ClientSettings.Builder<?, ?>> B configure(B builder, String api) {
    String endpoint = account.properties().get("endpoint." + api);
    if (endpoint != null) {
      builder.setEndpoint(endpoint);
    }
    builder.setCredentialsProvider(credentials());
    return builder;
  }

  /** A call of a discovery-generated client (Cloud SQL, Cloud DNS), which throws checked IOExceptions. */
  interface IoCall<T> {
    T run() throws IOException;
  }

  /** Runs it, its HTTP errors (Google's answers, which the error classifier reads) unchecked. */
  static <T> T io(IoCall<T> call) {
    try {
      return call.run();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private interface Opener<T> {
    T open() throws IOException;
  }

  /** The client of this type, built on first use and closed with the session. */
  private synchronized <T extends AutoCloseable> T client(Class<T> type, Opener<T> opener) {
    AutoCloseable client = opened.get(type);
    if (client == null) {
      try {
        client = opener.open();
      } catch (IOException e) {
        throw new IllegalStateException("could not build a Google client: " + e.getMessage(), e);
      }
      opened.put(type, client);
    }
    return type.cast(client);
  }

  private synchronized CredentialsProvider credentials() {
    if (credentials == null) {
      credentials = load(account);
    }
    return credentials;
  }

  /** The credentials the account's reference points at, loaded now. */
  static CredentialsProvider load(CloudAccount account) {
    String ref = account.credentialsRef() == null || account.credentialsRef().isBlank() ? "adc"
        : account.credentialsRef();
    try {
      if (ref.equals("adc") || ref.equals("default-chain")) {
        return FixedCredentialsProvider.create(GoogleCredentials.getApplicationDefault().createScoped(SCOPE));
      }
      if (ref.startsWith("file:")) {
        Path file = Path.of(ref.substring("file:".length()));
        if (!Files.isReadable(file)) {
          throw new CredentialsUnavailableException("no service-account key is readable at " + file,
              "Put the service account's JSON key at " + file + " (readable by the engine), or change the"
                  + " account's credentialsRef.", null);
        }
        try (InputStream in = Files.newInputStream(file)) {
          return FixedCredentialsProvider.create(GoogleCredentials.fromStream(in).createScoped(SCOPE));
        }
      }
      if (ref.startsWith("env:")) {
        String variable = ref.substring("env:".length());
        String json = System.getenv(variable);
        if (json == null || json.isBlank()) {
          throw new CredentialsUnavailableException("environment variable " + variable + " is not set",
              "Set " + variable + " to the service account's JSON key in the engine's environment, or change the"
                  + " account's credentialsRef.", null);
        }
        return FixedCredentialsProvider.create(GoogleCredentials.fromStream(
            new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))).createScoped(SCOPE));
      }
      if (ref.equals("none")) {
        boolean overridden = account.properties().keySet().stream().anyMatch(k -> k.startsWith("endpoint."));
        if (!overridden) {
          throw new CredentialsUnavailableException("credentialsRef 'none' is for endpoints that take no"
              + " credentials, and the account sets no endpoint", "Use adc, file:<key.json> or env:<VAR>, or set"
              + " the account's endpoint.<api> properties.", null);
        }
        return NoCredentialsProvider.create();
      }
    } catch (IOException e) {
      throw new CredentialsUnavailableException("Google credentials could not be loaded (" + ref + "): "
          + e.getMessage(), hint(ref), e);
    }
    throw new CredentialsUnavailableException("unknown credentialsRef '" + ref + "'",
        "Use adc, file:<key.json>, env:<VAR> or none.", null);
  }

  private static String hint(String ref) {
    return ref.equals("adc") || ref.equals("default-chain")
        ? "Application Default Credentials were not found: set GOOGLE_APPLICATION_CREDENTIALS to a service-account"
            + " key file, run `gcloud auth application-default login` for the user the engine runs as, or run on"
            + " Google Cloud with an attached service account."
        : "Check that " + ref + " holds a valid service-account JSON key.";
  }

  @Override
  public synchronized void close() {
    for (AutoCloseable client : opened.values()) {
      try {
        client.close();
      } catch (Exception e) {
        // closing releases threads only; nothing a caller could do about it
      }
    }
    opened.clear();
  }
}
