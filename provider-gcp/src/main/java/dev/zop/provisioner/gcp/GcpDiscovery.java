package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.COMPUTE_NETWORKS_LIST;
import static dev.zop.provisioner.gcp.GcpPermissions.COMPUTE_SUBNETWORKS_LIST;

import com.google.cloud.compute.v1.Network;
import com.google.cloud.compute.v1.Subnetwork;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.Discovery;
import java.util.ArrayList;
import java.util.List;

/**
 * What a wizard offers for a GCP space: the project's VPC networks and their subnetworks in the space's region.
 * A network's id is its name (what {@code peerVpcID} and the other specs take); VPC networks have no CIDR of
 * their own, their subnetworks do. GKE clusters are those of the region; DNS zones are the project's managed
 * zones, named without their trailing dot.
 */
final class GcpDiscovery implements Discovery {
  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;

  GcpDiscovery(GcpClients clients, CloudCalls calls, String project, String region) {
    this.clients = clients;
    this.calls = calls;
    this.project = project;
    this.region = region;
  }

  @Override
  public List<DiscoveredNetwork> networks() {
    List<DiscoveredNetwork> found = new ArrayList<>();
    for (Network network : calls.call(COMPUTE_NETWORKS_LIST, () -> clients.networks().list(project)).iterateAll()) {
      found.add(new DiscoveredNetwork(network.getName(), network.getName(),
          network.hasIPv4Range() ? network.getIPv4Range() : null, network.getName().equals("default")));
    }
    return found;
  }

  /** The region's subnetworks of one network, or of every network when {@code networkId} is null. */
  @Override
  public List<DiscoveredSubnet> subnets(String networkId) {
    List<DiscoveredSubnet> found = new ArrayList<>();
    for (Subnetwork subnet : calls.call(COMPUTE_SUBNETWORKS_LIST,
        () -> clients.subnetworks().list(project, region)).iterateAll()) {
      String network = subnet.getNetwork().substring(subnet.getNetwork().lastIndexOf('/') + 1);
      if (networkId == null || network.equals(networkId)) {
        // subnetworks are regional: no zone
        found.add(new DiscoveredSubnet(subnet.getName(), network, subnet.getIpCidrRange(), null));
      }
    }
    return found;
  }

  @Override
  public List<DiscoveredCluster> clusters() {
    return calls.call(GcpPermissions.CONTAINER_CLUSTERS_LIST, () -> clients.clusterManager()
        .listClusters("projects/" + project + "/locations/" + region)).getClustersList().stream()
        .map(c -> new DiscoveredCluster(c.getName(), c.getCurrentMasterVersion(), c.getStatus().name(),
            "https://" + c.getEndpoint())).toList();
  }

  @Override
  public List<DiscoveredDnsZone> dnsZones() {
    var zones = calls.call(GcpPermissions.DNS_MANAGED_ZONES_LIST, () -> GcpClients.io(() -> clients.dns().api()
        .managedZones().list(project).execute().getManagedZones()));
    return zones == null ? List.of() : zones.stream().map(z -> new DiscoveredDnsZone(z.getName(),
        z.getDnsName().endsWith(".") ? z.getDnsName().substring(0, z.getDnsName().length() - 1) : z.getDnsName(),
        "private".equals(z.getVisibility()))).toList();
  }
}
