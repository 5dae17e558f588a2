package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.security.keyvault.secrets.SecretClient;
import com.azure.security.keyvault.secrets.models.KeyVaultSecret;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.SecretStore;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.function.Supplier;

/**
 * Secrets in an Azure Key Vault, named by the account's {@code keyVaultUrl}. A reference is the secret's id
 * without a version ({@code https://<vault>.vault.azure.net/secrets/<name>}); {@code get} reads its current
 * version, {@code put} and {@code rotate} add one. Engine names such as {@code zop/org/job/admin} become secret
 * names over {@code [0-9a-zA-Z-]} reversibly ({@link #encode}). A vault with soft delete keeps a deleted secret's
 * name reserved until it is purged, so {@code delete} purges it, and a {@code put} that finds its name held by a
 * deleted secret (a delete that stopped before its purge) purges that first. Where the vault refuses the purge
 * (purge protection, or no purge action granted) the delete still counts: the name stays reserved until the
 * vault's own purge.
 */
final class KeyVaultStore implements SecretStore {
  private final Supplier<SecretClient> client;
  private final CloudCalls calls;
  private final String vaultUrl;

  KeyVaultStore(Supplier<SecretClient> client, CloudCalls calls, String vaultUrl) {
    this.client = client;
    this.calls = calls;
    this.vaultUrl = vaultUrl.endsWith("/") ? vaultUrl.substring(0, vaultUrl.length() - 1) : vaultUrl;
  }

  @Override
  public String id() {
    return "azure-key-vault";
  }

  @Override
  public SecretRef put(String name, String value) {
    String secret = encode(name);
    try {
      calls.call(KEY_VAULT_SECRETS_SET, () -> client.get().setSecret(secret, value));
    } catch (CloudCallException e) {
      if (AzureErrors.status(e) != 409) {
        throw e;
      }
      // the name is held by a deleted secret that was never purged: purge it, then set again
      purge(secret);
      calls.call(KEY_VAULT_SECRETS_SET, () -> client.get().setSecret(secret, value));
    }
    return SecretRef.of(vaultUrl + "/secrets/" + secret);
  }

  @Override
  public String get(SecretRef ref) {
    KeyVaultSecret secret = calls.findOrNull(KEY_VAULT_SECRETS_GET, () -> client.get().getSecret(nameOf(ref)));
    if (secret == null) {
      throw new NoSuchElementException("no secret " + ref);
    }
    return secret.getValue();
  }

  @Override
  public SecretRef rotate(SecretRef ref, String newValue) {
    get(ref);
    calls.call(KEY_VAULT_SECRETS_SET, () -> client.get().setSecret(nameOf(ref), newValue));
    return ref;
  }

  @Override
  public void delete(SecretRef ref) {
    String secret = nameOf(ref);
    boolean deleted = calls.deleteIfExists(KEY_VAULT_SECRETS_DELETE, () -> client.get().beginDeleteSecret(secret)
        .setPollInterval(Duration.ofMillis(250)).waitForCompletion(Duration.ofMinutes(2)));
    if (deleted) {
      try {
        purge(secret);
      } catch (CloudCallException e) {
        if (AzureErrors.status(e) != 403) {
          throw e;
        }
        // a vault with purge protection, or a caller without the purge action: the secret is deleted and its
        // name (which carries its job's id) stays reserved until the vault purges it on its own schedule
      }
    }
  }

  private void purge(String secret) {
    calls.deleteIfExists(KEY_VAULT_SECRETS_PURGE, () -> client.get().purgeDeletedSecret(secret));
  }

  private String nameOf(SecretRef ref) {
    String value = ref.value();
    String prefix = vaultUrl + "/secrets/";
    if (!value.startsWith(prefix) || value.substring(prefix.length()).contains("/")) {
      throw new NoSuchElementException("not a secret of vault " + vaultUrl + ": " + ref);
    }
    return value.substring(prefix.length());
  }

  /**
   * A secret name for an engine name: letters and digits stay; {@code -} becomes {@code --}, {@code /}
   * {@code -s}, {@code _} {@code -u}, {@code .} {@code -d}, and any other character {@code -x} and its four hex
   * digits.
   */
  static String encode(String name) {
    StringBuilder out = new StringBuilder();
    for (char c : name.toCharArray()) {
      if (c < 128 && Character.isLetterOrDigit(c)) {
        out.append(c);
      } else if (c == '-') {
        out.append("--");
      } else if (c == '/') {
        out.append("-s");
      } else if (c == '_') {
        out.append("-u");
      } else if (c == '.') {
        out.append("-d");
      } else {
        out.append("-x").append(String.format("%04x", (int) c));
      }
    }
    return out.toString();
  }

  static String decode(String secret) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < secret.length(); i++) {
      char c = secret.charAt(i);
      if (c != '-') {
        out.append(c);
        continue;
      }
      if (i + 1 >= secret.length()) {
        throw new IllegalArgumentException("not an encoded secret name: " + secret);
      }
      switch (secret.charAt(++i)) {
        case '-' -> out.append('-');
        case 's' -> out.append('/');
        case 'u' -> out.append('_');
        case 'd' -> out.append('.');
        case 'x' -> {
          out.append((char) Integer.parseInt(secret.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> throw new IllegalArgumentException("not an encoded secret name: " + secret);
      }
    }
    return out.toString();
  }
}
