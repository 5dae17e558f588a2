package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.azure.identity.ClientCertificateCredential;
import com.azure.identity.ClientSecretCredential;
import com.azure.identity.ManagedIdentityCredential;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which azure-identity credential an account's reference makes, and what it says when it cannot make one. */
class AzureCredentialsTest {
  @TempDir Path dir;

  private static AzureClients clients(String ref, Map<String, String> environment, Map<String, String> extra) {
    Map<String, String> properties = new java.util.HashMap<>(Map.of("tenantId", "t", "subscriptionId", "s"));
    properties.putAll(extra);
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_creds"), "azure", "creds", ref, properties,
        Instant.now());
    return new AzureClients(account, null, null, environment::get);
  }

  @Test
  void aServicePrincipalSignsInWithItsSecretOrItsCertificate() throws Exception {
    assertThat(clients("env:SP", Map.of("SP_CLIENT_ID", "app", "SP_CLIENT_SECRET", "s3cret"), Map.of())
        .credential()).isInstanceOf(ClientSecretCredential.class);
    Path pem = Files.writeString(dir.resolve("sp.pem"), dev.zop.provisioner.kit.GeneratedSecrets.sshPrivateKey());
    assertThat(clients("env:SP", Map.of("SP_CLIENT_ID", "app", "SP_CLIENT_CERTIFICATE_PATH", pem.toString()),
        Map.of()).credential()).isInstanceOf(ClientCertificateCredential.class);
    assertThat(clients("managed-identity:1234", Map.of(), Map.of()).credential())
        .isInstanceOf(ManagedIdentityCredential.class);
  }

  @Test
  void aHostMayHandInEachAccountsCredential() throws Exception {
    ArmFake fake = ArmFake.forTheAzureProvider();
    try (fake) {
      fake.resourceGroup("rg", "eastus");
      java.util.List<String> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
      AzureProvider provider = new AzureProvider().withHttpClient(fake.httpClient()).withCredentials(account -> {
        asked.add(account.name());
        return account.name().equals("hosted") ? ArmFake.credential() : null;
      });
      CloudAccount hosted = new CloudAccount(CloudAccountId.of("ca_h"), "azure", "hosted", "env:UNSET_FOR_TEST",
          Map.of("tenantId", "t", "subscriptionId", "s", "endpoint", fake.endpoint()), Instant.now());
      try (var session = provider.open(hosted, null, Map.of("resourceGroup", "rg"))) {
        assertThat(session.discovery().networks()).isEmpty();
      }
      // an account the host does not answer for loads its own: here, from variables that are not set
      CloudAccount own = new CloudAccount(CloudAccountId.of("ca_o"), "azure", "own", "env:UNSET_FOR_TEST",
          Map.of("tenantId", "t", "subscriptionId", "s", "endpoint", fake.endpoint()), Instant.now());
      try (var session = provider.open(own, null, Map.of("resourceGroup", "rg"))) {
        assertThatThrownBy(() -> session.discovery().networks())
            .isInstanceOf(CredentialsUnavailableException.class);
      }
      assertThat(asked).containsExactly("hosted", "own");
    }
  }

  @Test
  void resourceManagersTokenAudienceIsSetApartFromItsEndpoint() throws Exception {
    ArmFake fake = ArmFake.forTheAzureProvider();
    try (fake) {
      fake.resourceGroup("rg", "eastus");
      java.util.List<String> scopes = new java.util.concurrent.CopyOnWriteArrayList<>();
      com.azure.core.credential.TokenCredential recording = request -> {
        scopes.addAll(request.getScopes());
        return ArmFake.credential().getToken(request);
      };
      AzureProvider provider = new AzureProvider().withHttpClient(fake.httpClient()).withCredential(recording);
      // behind a proxy or a private link: the calls go to the endpoint, the token is for Resource Manager
      CloudAccount proxied = new CloudAccount(CloudAccountId.of("ca_p"), "azure", "proxied", "default-chain",
          Map.of("tenantId", "t", "subscriptionId", "s", "endpoint", fake.endpoint(),
              "resourceManagerAudience", "https://management.core.windows.net/"), Instant.now());
      try (var session = provider.open(proxied, null, Map.of("resourceGroup", "rg"))) {
        assertThat(session.discovery().networks()).isEmpty();
      }
      assertThat(scopes).isNotEmpty().allSatisfy(scope ->
          assertThat(scope).startsWith("https://management.core.windows.net/").endsWith(".default"));
      // an emulator, where everything is at the endpoint, the audience too
      scopes.clear();
      CloudAccount emulated = new CloudAccount(CloudAccountId.of("ca_e"), "azure", "emulated", "default-chain",
          Map.of("tenantId", "t", "subscriptionId", "s", "endpoint", fake.endpoint()), Instant.now());
      try (var session = provider.open(emulated, null, Map.of("resourceGroup", "rg"))) {
        assertThat(session.discovery().networks()).isEmpty();
      }
      assertThat(scopes).isNotEmpty().allSatisfy(scope -> assertThat(scope).startsWith(fake.endpoint()));
    }
  }

  @Test
  void whatIsMissingIsNamedWithItsFix() {
    assertThatThrownBy(() -> clients("env:SP", Map.of("SP_CLIENT_ID", "app"), Map.of()).credential())
        .isInstanceOfSatisfying(CredentialsUnavailableException.class, e -> assertThat(e.fixHint())
            .contains("SP_CLIENT_SECRET", "SP_CLIENT_CERTIFICATE_PATH"));
    assertThatThrownBy(() -> clients("env:SP", Map.of("SP_CLIENT_ID", "app", "SP_CLIENT_CERTIFICATE_PATH",
        dir.resolve("absent.pem").toString()), Map.of()).credential())
        .isInstanceOfSatisfying(CredentialsUnavailableException.class, e -> assertThat(e.getMessage())
            .contains("absent.pem"));
    assertThatThrownBy(() -> clients("password:hunter2", Map.of(), Map.of()).credential())
        .isInstanceOfSatisfying(CredentialsUnavailableException.class, e -> assertThat(e.fixHint())
            .contains("default-chain", "managed-identity", "env:"));
  }

  @Test
  void aSovereignCloudIsNamedByTheAccountsEnvironment() {
    AzureClients china = new AzureClients(new CloudAccount(CloudAccountId.of("ca_cn"), "azure", "cn",
        "default-chain", Map.of("tenantId", "t", "subscriptionId", "s", "environment", "AzureChinaCloud"),
        Instant.now()), ArmFake.credential(), null);
    assertThat(china.network().serviceClient().getEndpoint()).isEqualTo("https://management.chinacloudapi.cn/");
    AzureClients mars = new AzureClients(new CloudAccount(CloudAccountId.of("ca_mars"), "azure", "mars",
        "default-chain", Map.of("tenantId", "t", "subscriptionId", "s", "environment", "MarsCloud"),
        Instant.now()), ArmFake.credential(), null);
    assertThatThrownBy(mars::network).isInstanceOfSatisfying(CredentialsUnavailableException.class,
        e -> assertThat(e.fixHint()).contains("AzureChinaCloud", "AzureUSGovernment"));
  }
}
