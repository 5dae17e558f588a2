package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.cloud.secretmanager.v1.Replication;
import com.google.cloud.secretmanager.v1.Secret;
import com.google.cloud.secretmanager.v1.SecretPayload;
import com.google.protobuf.ByteString;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.SecretStore;
import java.nio.charset.StandardCharsets;
import java.util.NoSuchElementException;

/**
 * Secrets in Secret Manager, replicated automatically; a reference is the secret's resource name
 * ({@code projects/<p>/secrets/<id>}), and {@code get} reads its latest version. Engine names such as
 * {@code zop/org/job/admin} become secret ids over {@code [A-Za-z0-9_-]} reversibly ({@link #encode}).
 */
final class SecretManagerStore implements SecretStore {
  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;

  SecretManagerStore(GcpClients clients, CloudCalls calls, String project) {
    this.clients = clients;
    this.calls = calls;
    this.project = project;
  }

  @Override
  public String id() {
    return "gcp-secret-manager";
  }

  @Override
  public SecretRef put(String name, String value) {
    String secret = "projects/" + project + "/secrets/" + encode(name);
    try {
      calls.call(SECRETMANAGER_SECRETS_CREATE, () -> clients.secretManager().createSecret(
          "projects/" + project, encode(name), Secret.newBuilder()
              .setReplication(Replication.newBuilder().setAutomatic(Replication.Automatic.getDefaultInstance()))
              .putLabels("managed-by", "zop-provisioner").build()));
    } catch (CloudCallException e) {
      if (!GcpErrors.isAlreadyExists(e)) {
        throw e;
      }
      // the secret exists: its value is replaced by a new version below
    }
    addVersion(secret, value);
    return SecretRef.of(secret);
  }

  @Override
  public String get(SecretRef ref) {
    var version = calls.findOrNull(SECRETMANAGER_VERSIONS_ACCESS,
        () -> clients.secretManager().accessSecretVersion(ref.value() + "/versions/latest"));
    if (version == null) {
      throw new NoSuchElementException("no secret " + ref);
    }
    return version.getPayload().getData().toString(StandardCharsets.UTF_8);
  }

  @Override
  public SecretRef rotate(SecretRef ref, String newValue) {
    get(ref);
    addVersion(ref.value(), newValue);
    return ref;
  }

  @Override
  public void delete(SecretRef ref) {
    calls.deleteIfExists(SECRETMANAGER_SECRETS_DELETE, () -> clients.secretManager().deleteSecret(ref.value()));
  }

  private void addVersion(String secret, String value) {
    calls.call(SECRETMANAGER_VERSIONS_ADD, () -> clients.secretManager().addSecretVersion(secret,
        SecretPayload.newBuilder().setData(ByteString.copyFrom(value, StandardCharsets.UTF_8)).build()));
  }

  /**
   * A secret id for an engine name: letters, digits and {@code -} stay; {@code /} becomes {@code _s},
   * {@code _} {@code _u}, {@code .} {@code _d}, and any other character {@code _x} and its four hex digits.
   */
  static String encode(String name) {
    StringBuilder out = new StringBuilder();
    for (char c : name.toCharArray()) {
      if (c < 128 && (Character.isLetterOrDigit(c) || c == '-')) {
        out.append(c);
      } else if (c == '/') {
        out.append("_s");
      } else if (c == '_') {
        out.append("_u");
      } else if (c == '.') {
        out.append("_d");
      } else {
        out.append("_x").append(String.format("%04x", (int) c));
      }
    }
    return out.toString();
  }

  static String decode(String id) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c != '_') {
        out.append(c);
        continue;
      }
      char kind = id.charAt(++i);
      switch (kind) {
        case 's' -> out.append('/');
        case 'u' -> out.append('_');
        case 'd' -> out.append('.');
        case 'x' -> {
          out.append((char) Integer.parseInt(id.substring(i + 1, i + 5), 16));
          i += 4;
        }
        default -> throw new IllegalArgumentException("not an encoded secret id: " + id);
      }
    }
    return out.toString();
  }
}
