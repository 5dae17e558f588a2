package dev.zop.provisioner.spi;

import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import java.util.List;

/** Reads what exists in one account and region. Errors may be thrown; the session classifies them. */
public interface Discovery {

  List<DiscoveredNetwork> networks() throws Exception;

  /** Subnets of one network, or of all when {@code networkId} is null. */
  List<DiscoveredSubnet> subnets(String networkId) throws Exception;

  List<DiscoveredCluster> clusters() throws Exception;

  List<DiscoveredDnsZone> dnsZones() throws Exception;
}
