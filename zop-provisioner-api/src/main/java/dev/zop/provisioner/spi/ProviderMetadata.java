package dev.zop.provisioner.spi;

import dev.zop.provisioner.JobKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a provider is and offers.
 *
 * @param id                  the short id spaces and accounts name, e.g. {@code aws}
 * @param kinds               the job kinds it can provision
 * @param regions             the regions it knows; empty means any
 * @param requiredSpaceConfig keys every space of this provider must set in its config (e.g. {@code region})
 * @param defaultTimeouts     how long a job of a kind may take before it is failed
 */
public record ProviderMetadata(
    String id,
    String displayName,
    Set<JobKind> kinds,
    List<String> regions,
    Set<String> requiredSpaceConfig,
    Map<JobKind, Duration> defaultTimeouts) {

  public ProviderMetadata {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(displayName, "displayName");
    kinds = Set.copyOf(kinds);
    regions = List.copyOf(regions);
    requiredSpaceConfig = Set.copyOf(requiredSpaceConfig);
    defaultTimeouts = Map.copyOf(defaultTimeouts);
  }

  public boolean supports(JobKind kind) {
    return kinds.contains(kind);
  }
}
