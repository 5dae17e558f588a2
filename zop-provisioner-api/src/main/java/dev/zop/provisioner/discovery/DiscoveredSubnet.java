package dev.zop.provisioner.discovery;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/** A subnet found in an account and region, with the network it belongs to and its zone. */
@NullMarked
public record DiscoveredSubnet(String id, String networkId, @Nullable String cidr, @Nullable String zone) {
  public DiscoveredSubnet {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(networkId, "networkId");
  }
}
