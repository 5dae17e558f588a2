package dev.zop.provisioner.discovery;

/** A DNS zone the account holds; {@code privateZone} when it answers only inside networks. */
public record DiscoveredDnsZone(String id, String name, boolean privateZone) {}
