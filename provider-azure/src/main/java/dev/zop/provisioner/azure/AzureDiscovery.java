package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.SUBNETS_READ;
import static dev.zop.provisioner.azure.AzureActions.VIRTUAL_NETWORKS_READ;

import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkInner;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.spi.Discovery;
import java.util.ArrayList;
import java.util.List;

/**
 * What a wizard offers for an Azure space: the virtual networks of its resource group and their subnets, its
 * AKS clusters and its private DNS zones. A network's id is its name (what {@code peerVpcID} takes), a subnet's
 * too.
 */
final class AzureDiscovery implements Discovery {
  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;

  AzureDiscovery(AzureClients clients, CloudCalls calls, String resourceGroup) {
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
  }

  @Override
  public List<DiscoveredNetwork> networks() {
    List<DiscoveredNetwork> found = new ArrayList<>();
    for (VirtualNetworkInner network : calls.call(VIRTUAL_NETWORKS_READ, () -> clients.network().serviceClient()
        .getVirtualNetworks().listByResourceGroup(resourceGroup))) {
      List<String> prefixes = network.addressSpace() == null || network.addressSpace().addressPrefixes() == null
          ? List.of() : network.addressSpace().addressPrefixes();
      found.add(new DiscoveredNetwork(network.name(), network.name(), prefixes.isEmpty() ? null : prefixes.get(0),
          false));
    }
    return found;
  }

  /** The subnets of one network, or of every network of the group when {@code networkId} is null. */
  @Override
  public List<DiscoveredSubnet> subnets(String networkId) {
    List<DiscoveredSubnet> found = new ArrayList<>();
    List<String> networks = networkId != null ? List.of(networkId)
        : networks().stream().map(DiscoveredNetwork::id).toList();
    for (String network : networks) {
      for (SubnetInner subnet : calls.call(SUBNETS_READ, () -> clients.network().serviceClient().getSubnets()
          .list(resourceGroup, network))) {
        // Azure subnets span the region's zones: no zone
        found.add(new DiscoveredSubnet(subnet.name(), network, subnet.addressPrefix(), null));
      }
    }
    return found;
  }

  @Override
  public List<DiscoveredCluster> clusters() {
    List<DiscoveredCluster> found = new ArrayList<>();
    for (var cluster : calls.call(AzureActions.MANAGED_CLUSTERS_READ, () -> clients.containerService()
        .serviceClient().getManagedClusters().listByResourceGroup(resourceGroup))) {
      found.add(new DiscoveredCluster(cluster.name(), cluster.kubernetesVersion(),
          String.valueOf(cluster.provisioningState()), cluster.fqdn() == null ? null : "https://" + cluster.fqdn()));
    }
    return found;
  }

  /** The group's private DNS zones, by name (what {@code dnsZone} takes). */
  @Override
  public List<DiscoveredDnsZone> dnsZones() {
    List<DiscoveredDnsZone> found = new ArrayList<>();
    for (var zone : calls.call(AzureActions.PRIVATE_ZONES_READ, () -> clients.privateDns().serviceClient()
        .getPrivateZones().listByResourceGroup(resourceGroup))) {
      found.add(new DiscoveredDnsZone(zone.name(), zone.name(), true));
    }
    return found;
  }
}
