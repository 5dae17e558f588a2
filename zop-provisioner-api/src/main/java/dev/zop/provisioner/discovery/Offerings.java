package dev.zop.provisioner.discovery;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * What a space's provider offers to choose from, so a form can offer lists instead of free text: sizes with what
 * they give and cost, and the versions it provisions. Read from the provider's own tables, not from the cloud; an
 * empty list means the provider does not restrict that choice (any value it validates is taken).
 *
 * @param provider           the provider's id
 * @param region             the space's region, which the prices are for
 * @param pricesAsOf         the date of the price table the prices come from, or null when there is none
 * @param machineSizes       instance types for node groups and VM pools
 * @param databaseClasses    instance classes for SQL datastores
 * @param cacheNodeTypes     node types for Redis datastores
 * @param kubernetesVersions the Kubernetes minor versions a cluster may run, oldest first
 * @param engineVersions     the versions offered for each datastore engine ({@code postgres}, {@code mysql},
 *                           {@code redis}), oldest first
 */
@NullMarked
public record Offerings(String provider, @Nullable String region, @Nullable String pricesAsOf,
    List<OfferedSize> machineSizes, List<OfferedSize> databaseClasses, List<OfferedSize> cacheNodeTypes,
    List<String> kubernetesVersions, Map<String, List<String>> engineVersions) {

  public Offerings {
    Objects.requireNonNull(provider, "provider");
    machineSizes = machineSizes == null ? List.of() : List.copyOf(machineSizes);
    databaseClasses = databaseClasses == null ? List.of() : List.copyOf(databaseClasses);
    cacheNodeTypes = cacheNodeTypes == null ? List.of() : List.copyOf(cacheNodeTypes);
    kubernetesVersions = kubernetesVersions == null ? List.of() : List.copyOf(kubernetesVersions);
    engineVersions = engineVersions == null ? Map.of() : Map.copyOf(engineVersions);
  }

  /** A provider that offers no lists: every choice is the spec's, checked when it is planned. */
  public static Offerings none(String provider, String region) {
    return new Offerings(provider, region, null, List.of(), List.of(), List.of(), List.of(), Map.of());
  }
}
