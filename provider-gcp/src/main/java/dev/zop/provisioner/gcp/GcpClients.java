package dev.zop.provisioner.gcp;

import com.google.api.gax.core.CredentialsProvider;
import com.google.api.gax.core.FixedCredentialsProvider;
import com.google.api.gax.core.NoCredentialsProvider;
import com.google.auth.oauth2.GoogleCredentials;
import com.google.devtools.artifactregistry.v1.ArtifactRegistryClient;
import com.google.devtools.artifactregistry.v1.ArtifactRegistrySettings;
import com.google.cloud.compute.v1.GlobalOperationsClient;
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
import com.google.cloud.container.v1.ClusterManagerSettings;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
  private final List<AutoCloseable> opened = new ArrayList<>();
  private CredentialsProvider credentials;
  private NetworksClient networks;
  private SubnetworksClient subnetworks;
  private GlobalOperationsClient globalOperations;
  private RegionOperationsClient regionOperations;
  private ArtifactRegistryClient artifactRegistry;
  private SecretManagerServiceClient secretManager;
  private ClusterManagerClient clusterManager;

  GcpClients(CloudAccount account) {
    this.account = account;
  }

  synchronized NetworksClient networks() {
    if (networks == null) {
      networks = open(() -> NetworksClient.create(compute(NetworksSettings.newBuilder()).build()));
    }
    return networks;
  }

  synchronized SubnetworksClient subnetworks() {
    if (subnetworks == null) {
      subnetworks = open(() -> SubnetworksClient.create(compute(SubnetworksSettings.newBuilder()).build()));
    }
    return subnetworks;
  }

  synchronized GlobalOperationsClient globalOperations() {
    if (globalOperations == null) {
      globalOperations = open(() -> GlobalOperationsClient.create(
          compute(GlobalOperationsSettings.newBuilder()).build()));
    }
    return globalOperations;
  }

  synchronized RegionOperationsClient regionOperations() {
    if (regionOperations == null) {
      regionOperations = open(() -> RegionOperationsClient.create(
          compute(RegionOperationsSettings.newBuilder()).build()));
    }
    return regionOperations;
  }

  synchronized ArtifactRegistryClient artifactRegistry() {
    if (artifactRegistry == null) {
      artifactRegistry = open(() -> ArtifactRegistryClient.create(
          configure(ArtifactRegistrySettings.newHttpJsonBuilder(), "artifactregistry").build()));
    }
    return artifactRegistry;
  }

  synchronized SecretManagerServiceClient secretManager() {
    if (secretManager == null) {
      secretManager = open(() -> SecretManagerServiceClient.create(
          configure(SecretManagerServiceSettings.newHttpJsonBuilder(), "secretmanager").build()));
    }
    return secretManager;
  }

  synchronized ClusterManagerClient clusterManager() {
    if (clusterManager == null) {
      clusterManager = open(() -> ClusterManagerClient.create(
          configure(ClusterManagerSettings.newHttpJsonBuilder(), "container").build()));
    }
    return clusterManager;
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

  private <B extends com.google.api.gax.rpc.ClientSettings.Builder<?, ?>> B compute(B builder) {
    return configure(builder, "compute");
  }

  private <B extends com.google.api.gax.rpc.ClientSettings.Builder<?, ?>> B configure(B builder, String api) {
    String endpoint = account.properties().get("endpoint." + api);
    if (endpoint != null) {
      builder.setEndpoint(endpoint);
    }
    builder.setCredentialsProvider(credentials());
    return builder;
  }

  private interface Opener<T> {
    T open() throws IOException;
  }

  private <T extends AutoCloseable> T open(Opener<T> opener) {
    try {
      T client = opener.open();
      opened.add(client);
      return client;
    } catch (IOException e) {
      throw new IllegalStateException("could not build a Google client: " + e.getMessage(), e);
    }
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
    for (AutoCloseable client : opened) {
      try {
        client.close();
      } catch (Exception e) {
        // closing releases threads only; nothing a caller could do about it
      }
    }
    opened.clear();
  }
}
