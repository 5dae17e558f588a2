package dev.zop.provisioner;

import java.util.Map;
import java.util.Objects;

/**
 * An installable in-cluster component: a Helm chart from an upstream (or mirror) repository at a pinned
 * version, with the values the catalog sets by default.
 *
 * @param repository the chart repository URL (the directory holding {@code index.yaml})
 * @param chart      the chart's name in that repository
 * @param version    the pinned chart version
 */
public record CatalogComponent(String id, String name, String category, String version, String description,
    String repository, String chart, Map<String, Object> defaultValues) {

  public CatalogComponent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(chart, "chart");
    Objects.requireNonNull(version, "version");
    defaultValues = defaultValues == null ? Map.of() : Map.copyOf(defaultValues);
  }

  /** The same component served from another repository, such as a mirror inside the network. */
  public CatalogComponent fromRepository(String mirror) {
    return new CatalogComponent(id, name, category, version, description, mirror, chart, defaultValues);
  }
}
