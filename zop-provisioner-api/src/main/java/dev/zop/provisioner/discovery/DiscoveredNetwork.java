package dev.zop.provisioner.discovery;

/** A network (VPC, VNet) found in an account and region. {@code name} is null when it has none. */
public record DiscoveredNetwork(String id, String name, String cidr, boolean isDefault) {}
