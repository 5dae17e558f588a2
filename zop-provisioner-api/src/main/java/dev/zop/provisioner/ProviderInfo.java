package dev.zop.provisioner;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;

/**
 * A cloud provider the engine has loaded: what accounts and spaces may name, what it provisions, and the settings
 * each of its spaces must give.
 *
 * @param kinds               the job kinds it provisions, by their wire names, sorted
 * @param regions             the regions it knows; empty means any
 * @param requiredSpaceConfig the keys every space of this provider sets in its config, sorted
 */
@NullMarked
public record ProviderInfo(String id, String displayName, List<String> kinds, List<String> regions,
    List<String> requiredSpaceConfig) {

  public ProviderInfo {
    Objects.requireNonNull(displayName, "displayName");
    Objects.requireNonNull(id, "id");
    kinds = List.copyOf(kinds);
    regions = List.copyOf(regions);
    requiredSpaceConfig = List.copyOf(requiredSpaceConfig);
  }
}
