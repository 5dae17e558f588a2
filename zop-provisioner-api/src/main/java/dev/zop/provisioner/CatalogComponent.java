package dev.zop.provisioner;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * An installable in-cluster component: a Helm chart from an upstream (or mirror) repository at a pinned
 * version, with the values the catalog sets by default, where that version comes from and whether its project is
 * still maintained.
 *
 * @param repository   the chart repository URL (the directory holding {@code index.yaml})
 * @param chart        the chart's name in that repository
 * @param version      the pinned chart version
 * @param appVersion   the version of the software the pinned chart installs, as its {@code Chart.yaml} says; null
 *                     when not recorded
 * @param provenance   the release the pinned version was published from; null when not recorded
 * @param status       whether the upstream project still maintains it
 * @param statusReason why it is deprecated or retired, with the date where known; null when maintained
 * @param replacement  the id of the catalog component offered instead, or null
 */
@NullMarked
public record CatalogComponent(String id, @Nullable String name, @Nullable String category, String version,
    @Nullable String description, String repository, String chart, Map<String, Object> defaultValues,
    @Nullable String appVersion, @Nullable ChartProvenance provenance, ComponentStatus status,
    @Nullable String statusReason, @Nullable String replacement) {

  public CatalogComponent {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(chart, "chart");
    Objects.requireNonNull(version, "version");
    defaultValues = defaultValues == null ? Map.of() : Map.copyOf(defaultValues);
    status = status == null ? ComponentStatus.MAINTAINED : status;
    if (status != ComponentStatus.MAINTAINED && (statusReason == null || statusReason.isBlank())) {
      throw new IllegalArgumentException("a " + status.wireName() + " component (" + id + ") needs a reason");
    }
  }

  /** A maintained component with no recorded provenance, as a host adds its own. */
  public CatalogComponent(String id, String name, String category, String version, String description,
      String repository, String chart, Map<String, Object> defaultValues) {
    this(id, name, category, version, description, repository, chart, defaultValues, null, null,
        ComponentStatus.MAINTAINED, null, null);
  }

  /** The same component served from another repository, such as a mirror inside the network. */
  public CatalogComponent fromRepository(String mirror) {
    return new CatalogComponent(id, name, category, version, description, mirror, chart, defaultValues, appVersion,
        provenance, status, statusReason, replacement);
  }

  /**
   * The same component at another version of its chart, as a job may ask for one; what the catalog recorded of
   * its pinned release (app version, provenance) does not carry over.
   */
  public CatalogComponent atVersion(String chartVersion) {
    return chartVersion.equals(version) ? this : new CatalogComponent(id, name, category, chartVersion, description,
        repository, chart, defaultValues, null, null, status, statusReason, replacement);
  }

  /** The same component with the release its pinned version was published from. */
  public CatalogComponent publishedFrom(String appVersion, ChartProvenance provenance) {
    return new CatalogComponent(id, name, category, version, description, repository, chart, defaultValues,
        appVersion, provenance, status, statusReason, replacement);
  }

  /**
   * The same component marked deprecated or retired by its project, with why and, where the catalog has one, the
   * component to install instead.
   */
  public CatalogComponent withStatus(ComponentStatus status, String reason, String replacement) {
    return new CatalogComponent(id, name, category, version, description, repository, chart, defaultValues,
        appVersion, provenance, status, reason, replacement);
  }
}
