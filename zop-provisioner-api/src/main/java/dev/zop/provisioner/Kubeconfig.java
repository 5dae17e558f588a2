package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Short-lived credentials for a space's cluster. The token is a secret: it is minted on request, never stored,
 * and expires at {@code expiresAt}.
 *
 * @param certificateAuthorityData the cluster's CA certificate, base64 as kubeconfig files carry it
 */
@NullMarked
public record Kubeconfig(String clusterName, String server, @Nullable String certificateAuthorityData, String token,
    @Nullable Instant expiresAt) {

  public Kubeconfig {
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(token, "token");
  }

  /** The kubeconfig file kubectl and client libraries read. */
  public String yaml() {
    return "apiVersion: v1\nkind: Config\n"
        + "clusters:\n- name: " + clusterName + "\n  cluster:\n    server: " + server + "\n"
        + (certificateAuthorityData == null ? "" : "    certificate-authority-data: " + certificateAuthorityData + "\n")
        + "users:\n- name: " + clusterName + "\n  user:\n    token: " + token + "\n"
        + "contexts:\n- name: " + clusterName + "\n  context:\n    cluster: " + clusterName + "\n    user: "
        + clusterName + "\n"
        + "current-context: " + clusterName + "\n";
  }

  @Override
  public String toString() {
    return "Kubeconfig[" + clusterName + " at " + server + ", token hidden, expires " + expiresAt + "]";
  }
}
