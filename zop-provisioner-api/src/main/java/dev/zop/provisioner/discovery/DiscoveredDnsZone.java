package dev.zop.provisioner.discovery;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;

/** A DNS zone the account holds; {@code privateZone} when it answers only inside networks. */
@NullMarked
public record DiscoveredDnsZone(String id, String name, boolean privateZone) {
  public DiscoveredDnsZone {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
  }
}
