package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.MANAGED_CLUSTERS_LIST_USER_CREDENTIAL;

import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.ClusterAccess;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * Kubeconfigs for AKS clusters of the space's resource group, from the cluster's user credential
 * ({@code listClusterUserCredential}, what {@code az aks get-credentials} reads): its server, CA and token.
 * A cluster whose user credential carries no token (Entra ID clusters, which need an exec plugin) is refused
 * with a clear message.
 */
final class AksAccess implements ClusterAccess {
  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;

  AksAccess(AzureClients clients, CloudCalls calls, String resourceGroup) {
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Kubeconfig mint(String clusterName) {
    var credentials = calls.call(MANAGED_CLUSTERS_LIST_USER_CREDENTIAL, () -> clients.containerService()
        .serviceClient().getManagedClusters().listClusterUserCredentials(resourceGroup, clusterName));
    String yaml = new String(credentials.kubeconfigs().get(0).value(), StandardCharsets.UTF_8);
    Map<String, Object> config = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(yaml);
    Map<String, Object> cluster = (Map<String, Object>) ((Map<String, Object>) ((List<Object>) config.get("clusters"))
        .get(0)).get("cluster");
    Map<String, Object> user = (Map<String, Object>) ((Map<String, Object>) ((List<Object>) config.get("users"))
        .get(0)).get("user");
    Object token = user.get("token");
    if (token == null) {
      throw new UnsupportedOperationException("AKS cluster " + clusterName + " gives its users no token (an Entra ID"
          + " cluster, reached through an exec plugin); mint a kubeconfig with az aks get-credentials instead");
    }
    return new Kubeconfig(clusterName, String.valueOf(cluster.get("server")),
        String.valueOf(cluster.get("certificate-authority-data")), String.valueOf(token), null);
  }
}
