package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.SecretStore;
import java.time.Instant;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Key Vault secret store through the SDK's SecretClient, against the fake's Key Vault data plane. */
class KeyVaultStoreTest {
  private static final ArmFake FAKE = ArmFake.forTheAzureProvider();
  private ProviderSession session;
  private SecretStore store;

  @BeforeEach
  void open() {
    FAKE.reset();
    // the SDK remembers a vault's challenge per host for the JVM's life: forget it, so each test sees one
    com.azure.security.keyvault.secrets.implementation.KeyVaultCredentialPolicy.clearCache();
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_vault"), "azure", "vault", "default-chain",
        Map.of("tenantId", "00000000-0000-0000-0000-0000000000aa", "subscriptionId", AzureProviderTckTest.SUBSCRIPTION,
            "endpoint", FAKE.endpoint(), "keyVaultUrl", FAKE.endpoint()), Instant.now());
    session = new AzureProvider().withCredential(ArmFake.credential()).withHttpClient(FAKE.httpClient())
        .withoutVaultChallengeVerification().open(account, "eastus", Map.of("resourceGroup", "rg"));
    store = session.secrets();
  }

  @AfterEach
  void close() {
    session.close();
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  @Test
  void engineNamesBecomeVaultNamesAndBackAgain() {
    for (String name : new String[] {"zop/org_1/job-9/admin", "a.b--c", "ünï/✓", "plain"}) {
      String encoded = KeyVaultStore.encode(name);
      assertThat(encoded).matches("[0-9a-zA-Z-]+");
      assertThat(KeyVaultStore.decode(encoded)).isEqualTo(name);
    }
    // distinct names stay distinct where a lossy encoding would merge them
    assertThat(KeyVaultStore.encode("a-b")).isNotEqualTo(KeyVaultStore.encode("a/b"))
        .isNotEqualTo(KeyVaultStore.encode("a_b"));
  }

  @Test
  void aSecretIsSetReadRotatedAndDeletedWithItsNamePurged() {
    assertThat(store.id()).isEqualTo("azure-key-vault");
    SecretRef ref = store.put("zop/job_1/admin", "first");
    assertThat(ref.value()).isEqualTo(FAKE.endpoint() + "/secrets/zop-sjob-u1-sadmin");
    // the vault asked for a token before it answered: the SDK answered its challenge
    assertThat(FAKE.vaultChallenges()).isPositive();
    assertThat(FAKE.vaultSecrets()).containsEntry("zop-sjob-u1-sadmin", "first");
    assertThat(store.get(ref)).isEqualTo("first");

    assertThat(store.rotate(ref, "second")).isEqualTo(ref);
    assertThat(store.get(ref)).isEqualTo("second");
    // putting again under the same name replaces the value
    assertThat(store.put("zop/job_1/admin", "third")).isEqualTo(ref);
    assertThat(store.get(ref)).isEqualTo("third");

    store.delete(ref);
    assertThat(FAKE.vaultSecrets()).isEmpty();
    assertThat(FAKE.deletedVaultSecrets()).as("soft delete would keep the name reserved").isEmpty();
    assertThatThrownBy(() -> store.get(ref)).isInstanceOf(NoSuchElementException.class);
    store.delete(ref); // deleting what is gone succeeds
    assertThatThrownBy(() -> store.rotate(ref, "x")).isInstanceOf(NoSuchElementException.class);
  }

  @Test
  void aNameHeldByADeletedSecretIsPurgedBeforeItIsSetAgain() {
    SecretRef ref = store.put("zop/job/key", "old");
    // the vault refuses the purge (purge protection): the delete counts, the name stays reserved
    FAKE.failNext(AzureActions.KEY_VAULT_SECRETS_PURGE, new ArmFake.Fault(403, "Forbidden", "Operation"
        + " \"purge\" is not allowed because purge protection is enabled for this vault."));
    store.delete(ref);
    assertThat(FAKE.vaultSecrets()).isEmpty();
    assertThat(FAKE.deletedVaultSecrets()).containsExactly("zop-sjob-skey");
    assertThatThrownBy(() -> store.get(ref)).isInstanceOf(NoSuchElementException.class);

    assertThat(store.put("zop/job/key", "new")).isEqualTo(ref);
    assertThat(store.get(ref)).isEqualTo("new");
    assertThat(FAKE.deletedVaultSecrets()).isEmpty();
  }

  @Test
  void aVaultThatRefusesTheCallerIsTheUsersToFix() {
    FAKE.failNext(AzureActions.KEY_VAULT_SECRETS_SET, new ArmFake.Fault(403, "Forbidden", "The user, group or"
        + " application does not have secrets set permission on key vault."));
    assertThatThrownBy(() -> store.put("zop/job/admin", "x")).satisfies(e -> {
      var failure = session.classify(e);
      assertThat(failure.category()).isEqualTo(FailureCategory.USER_ACTION);
      assertThat(failure.code()).isEqualTo("access_denied");
      assertThat(failure.message()).contains(AzureActions.KEY_VAULT_SECRETS_SET);
    });
    assertThat(FAKE.vaultSecrets()).isEmpty();
  }

  /**
   * A vault reached at a host outside vault.azure.net (here the fake's address, as a private endpoint's name would
   * be): an account property names the audience its challenge must name, with no Java builder call.
   */
  @Test
  void aVaultBehindAPrivateNameIsUsedByNamingItsChallengeResource() {
    CloudAccount named = vaultAccount("ca_named", Map.of("keyVaultChallengeResource", "https://vault.azure.net"));
    try (ProviderSession verified = new AzureProvider().withCredential(ArmFake.credential())
        .withHttpClient(FAKE.httpClient()).open(named, "eastus", Map.of("resourceGroup", "rg"))) {
      SecretRef ref = verified.secrets().put("zop/job/private", "value");
      assertThat(verified.secrets().get(ref)).isEqualTo("value");
    }
    // the SDK's own check, without the property: refused, and said as the user's to fix
    com.azure.security.keyvault.secrets.implementation.KeyVaultCredentialPolicy.clearCache();
    try (ProviderSession strict = new AzureProvider().withCredential(ArmFake.credential())
        .withHttpClient(FAKE.httpClient()).open(vaultAccount("ca_strict", Map.of()), "eastus",
            Map.of("resourceGroup", "rg"))) {
      assertThatThrownBy(() -> strict.secrets().put("zop/job/strict", "x")).satisfies(e -> {
        var failure = strict.classify(e);
        assertThat(failure.category()).isEqualTo(FailureCategory.USER_ACTION);
        assertThat(failure.code()).isEqualTo("vault_challenge_mismatch");
        assertThat(failure.fixHint()).contains("keyVaultChallengeResource");
      });
    }
    // a challenge naming another resource than the account says: refused by our check
    com.azure.security.keyvault.secrets.implementation.KeyVaultCredentialPolicy.clearCache();
    try (ProviderSession other = new AzureProvider().withCredential(ArmFake.credential())
        .withHttpClient(FAKE.httpClient()).open(vaultAccount("ca_other",
            Map.of("keyVaultChallengeResource", "https://vault.example.org")), "eastus",
            Map.of("resourceGroup", "rg"))) {
      assertThatThrownBy(() -> other.secrets().put("zop/job/other", "x")).satisfies(e ->
          assertThat(other.classify(e).code()).isEqualTo("vault_challenge_mismatch"));
    }
    assertThat(FAKE.vaultSecrets()).doesNotContainKeys("zop-sjob-sstrict", "zop-sjob-sother");
  }

  private static CloudAccount vaultAccount(String id, Map<String, String> extra) {
    Map<String, String> properties = new java.util.HashMap<>(Map.of("tenantId", "00000000-0000-0000-0000-0000000000aa",
        "subscriptionId", AzureProviderTckTest.SUBSCRIPTION, "endpoint", FAKE.endpoint(), "keyVaultUrl",
        FAKE.endpoint()));
    properties.putAll(extra);
    return new CloudAccount(CloudAccountId.of(id), "azure", id, "default-chain", properties, Instant.now());
  }

  @Test
  void anAccountWithoutAVaultLeavesSecretsToTheEngine() {
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_novault"), "azure", "novault", "default-chain",
        Map.of("tenantId", "t", "subscriptionId", "s", "endpoint", FAKE.endpoint()), Instant.now());
    try (ProviderSession plain = new AzureProvider().open(account, "eastus", Map.of("resourceGroup", "rg"))) {
      assertThat(plain.secrets()).isNull();
    }
  }
}
