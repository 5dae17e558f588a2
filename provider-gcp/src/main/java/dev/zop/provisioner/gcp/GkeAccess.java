package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.CONTAINER_CLUSTERS_GET;

import com.google.container.v1.Cluster;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.ClusterAccess;
import java.time.Instant;
import java.util.NoSuchElementException;

/**
 * Kubeconfigs for GKE clusters of the account's project in the session's region, as
 * {@code gcloud container clusters get-credentials} writes them: the cluster's endpoint and CA, and an OAuth
 * access token of the account's own credentials (GKE maps Google identities to Kubernetes users; the token lives
 * as long as Google says). Granting needs nothing on GKE: IAM already decides what the account may do there.
 */
final class GkeAccess implements ClusterAccess {
  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;

  GkeAccess(GcpClients clients, CloudCalls calls, String project, String region) {
    this.clients = clients;
    this.calls = calls;
    this.project = project;
    this.region = region;
  }

  @Override
  public Kubeconfig mint(String clusterName) {
    Cluster cluster = calls.findOrNull(CONTAINER_CLUSTERS_GET, () -> clients.clusterManager().getCluster(
        "projects/" + project + "/locations/" + region + "/clusters/" + clusterName));
    if (cluster == null) {
      throw new NoSuchElementException("no GKE cluster " + clusterName + " in " + project + "/" + region);
    }
    var token = clients.accessToken();
    Instant expires = token.getExpirationTime() == null ? null : token.getExpirationTime().toInstant();
    return new Kubeconfig(clusterName, "https://" + cluster.getEndpoint(),
        cluster.getMasterAuth().getClusterCaCertificate(), token.getTokenValue(), expires);
  }
}
