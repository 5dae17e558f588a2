package dev.zop.provisioner.discovery;

/** A Kubernetes cluster found in an account and region. */
public record DiscoveredCluster(String name, String version, String status, String endpoint) {}
