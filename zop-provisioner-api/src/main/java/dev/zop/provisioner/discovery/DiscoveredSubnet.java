package dev.zop.provisioner.discovery;

/** A subnet found in an account and region, with the network it belongs to and its zone. */
public record DiscoveredSubnet(String id, String networkId, String cidr, String zone) {}
