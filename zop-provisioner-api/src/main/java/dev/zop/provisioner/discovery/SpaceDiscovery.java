package dev.zop.provisioner.discovery;

import java.util.List;

/**
 * What exists in a space's cloud account and region, found through its provider, so a caller can offer real
 * choices instead of free text. Every call asks the cloud; nothing is cached or stored.
 */
public interface SpaceDiscovery {
  /** VPCs (AWS), VPC networks (GCP), VNets (Azure). */
  List<DiscoveredNetwork> networks();

  /** Subnets of one network, or of every network when {@code networkId} is null. */
  List<DiscoveredSubnet> subnets(String networkId);

  List<DiscoveredDnsZone> dnsZones();

  /** Kubernetes clusters in the account and region. */
  List<DiscoveredCluster> clusters();
}
