package dev.zop.provisioner;

import java.util.Objects;

/**
 * Where a pinned chart version was published from: the chart's source repository and the release tag (with its
 * commit) whose {@code Chart.yaml} carries the version and appVersion the catalog pins.
 *
 * @param sourceRepository the source repository, as {@code github.com/<owner>/<name>}
 * @param releaseTag       the git tag the chart release was published from
 * @param commit           the commit that tag names
 */
public record ChartProvenance(String sourceRepository, String releaseTag, String commit) {
  public ChartProvenance {
    Objects.requireNonNull(sourceRepository, "sourceRepository");
    Objects.requireNonNull(releaseTag, "releaseTag");
  }
}
