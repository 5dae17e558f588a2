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
 * @param scopeKeys           space config keys that choose where in the account a space's resources go (a GCP
 *                            project, an Azure resource group): the engine opens a session per account, region
 *                            and these keys' values, and hands them to {@link CloudProvider#open(
 *                            dev.zop.provisioner.CloudAccount, String, Map)}
 */
public record ProviderMetadata(
    String id,
    String displayName,
    Set<JobKind> kinds,
    List<String> regions,
    Set<String> requiredSpaceConfig,
    Map<JobKind, Duration> defaultTimeouts,
    Set<String> scopeKeys) {

  /** A provider whose sessions depend on the account and region only. */
  public ProviderMetadata(String id, String displayName, Set<JobKind> kinds, List<String> regions,
      Set<String> requiredSpaceConfig, Map<JobKind, Duration> defaultTimeouts) {
    this(id, displayName, kinds, regions, requiredSpaceConfig, defaultTimeouts, Set.of());
  }

  public ProviderMetadata {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(displayName, "displayName");
    kinds = Set.copyOf(kinds);
    regions = List.copyOf(regions);
    requiredSpaceConfig = Set.copyOf(requiredSpaceConfig);
    defaultTimeouts = Map.copyOf(defaultTimeouts);
    scopeKeys = Set.copyOf(scopeKeys);
  }

  public boolean supports(JobKind kind) {
    return kinds.contains(kind);
  }
}
