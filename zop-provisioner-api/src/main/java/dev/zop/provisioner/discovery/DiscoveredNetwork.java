package dev.zop.provisioner.discovery;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/** A network (VPC, VNet) found in an account and region. {@code name} is null when it has none. */
@NullMarked
public record DiscoveredNetwork(String id, @Nullable String name, @Nullable String cidr, boolean isDefault) {
  public DiscoveredNetwork {
    Objects.requireNonNull(id, "id");
  }
}
