package dev.zop.provisioner.discovery;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/** A Kubernetes cluster found in an account and region. */
@NullMarked
public record DiscoveredCluster(String name, @Nullable String version, @Nullable String status,
    @Nullable String endpoint) {
  public DiscoveredCluster {
    Objects.requireNonNull(name, "name");
  }
}
