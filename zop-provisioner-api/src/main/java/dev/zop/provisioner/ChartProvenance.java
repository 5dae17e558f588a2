package dev.zop.provisioner;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Where a pinned chart version was published from: the chart's source repository and the release tag (with its
 * commit) whose {@code Chart.yaml} carries the version and appVersion the catalog pins.
 *
 * @param sourceRepository the source repository, as {@code github.com/<owner>/<name>}
 * @param releaseTag       the git tag the chart release was published from
 * @param commit           the commit that tag names
 */
@NullMarked
public record ChartProvenance(String sourceRepository, String releaseTag, @Nullable String commit) {
  public ChartProvenance {
    Objects.requireNonNull(sourceRepository, "sourceRepository");
    Objects.requireNonNull(releaseTag, "releaseTag");
  }
}
