package dev.zop.provisioner.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.marcnuri.helm.Helm;
import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.ComponentStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The built-in catalog against the facts read from each chart's upstream repository at its release tag
 * ({@code upstream-charts/charts.tsv}): a version, appVersion, chart repository or release that no row backs fails
 * here, as does a maintained component pinned behind the newest release the facts know of.
 */
class CatalogProvenanceTest {
  static final Path FACTS = Path.of("src/test/resources/upstream-charts/charts.tsv");

  /** One row of the facts: a chart release as its {@code Chart.yaml} at the release tag describes it. */
  record Release(String chart, String chartRepository, String version, String appVersion, String sourceRepository,
      String releaseTag, String tagCommit, String kubeVersion, String newestVersion, String newestAppVersion,
      String status) {

    static Release parse(String line) {
      String[] f = line.split("\t", -1);
      assertThat(f).as("a row of %s has 11 columns: %s", FACTS, line).hasSize(11);
      return new Release(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9], f[10]);
    }

    /** {@code maintained}, or the word before the reason ({@code retired: ...}). */
    String statusWord() {
      int colon = status.indexOf(':');
      return colon < 0 ? status : status.substring(0, colon);
    }
  }

  static List<Release> facts() throws IOException {
    return Files.readAllLines(FACTS).stream()
        .filter(l -> !l.isBlank() && !l.startsWith("#"))
        .map(Release::parse)
        .toList();
  }

  static Release backing(CatalogComponent c, List<Release> facts) {
    return facts.stream()
        .filter(r -> r.chart().equals(c.chart()) && r.version().equals(c.version()))
        .findFirst()
        .orElseThrow(() -> new AssertionError(c.id() + " " + c.version() + " has no row in " + FACTS
            + ": read its Chart.yaml at the release tag upstream and add one, or pin a version that has one"));
  }

  @Test
  void everyBuiltInEntryIsTheReleaseItsUpstreamTagDescribes() throws IOException {
    List<Release> facts = facts();
    List<CatalogComponent> catalog = HelmComponents.create().catalog();
    assertThat(catalog).isNotEmpty();
    for (CatalogComponent c : catalog) {
      Release release = backing(c, facts);
      assertThat(c.repository()).as(c.id() + " chart repository").isEqualTo(release.chartRepository());
      assertThat(c.appVersion()).as(c.id() + " appVersion").isEqualTo(release.appVersion());
      assertThat(c.provenance()).as(c.id() + " provenance").isNotNull();
      assertThat(c.provenance().sourceRepository()).as(c.id()).isEqualTo(release.sourceRepository());
      assertThat(c.provenance().releaseTag()).as(c.id()).isEqualTo(release.releaseTag());
      assertThat(c.provenance().commit()).as(c.id()).isEqualTo(release.tagCommit());
      assertThat(c.status().wireName()).as(c.id() + " status").isEqualTo(release.statusWord());
    }
  }

  @Test
  void maintainedEntriesArePinnedToTheNewestReleaseTheFactsKnow() throws IOException {
    List<Release> facts = facts();
    for (CatalogComponent c : HelmComponents.create().catalog()) {
      Release release = backing(c, facts);
      if (c.status() == ComponentStatus.MAINTAINED) {
        assertThat(c.version()).as(c.id() + ": newest release upstream").isEqualTo(release.newestVersion());
        assertThat(c.appVersion()).as(c.id()).isEqualTo(release.newestAppVersion());
      }
    }
  }

  @Test
  void aRetiredEntrySaysWhyAndPointsAtAMaintainedOneOfItsCategory() {
    Map<String, CatalogComponent> byId = HelmComponents.create().catalog().stream()
        .collect(Collectors.toMap(CatalogComponent::id, c -> c));
    CatalogComponent nginx = byId.get("ingress-nginx");
    assertThat(nginx.status()).isEqualTo(ComponentStatus.RETIRED);
    assertThat(nginx.statusReason()).contains("March 2026");
    assertThat(nginx.description()).doesNotContainIgnoringCase("production-ready");
    for (CatalogComponent c : byId.values()) {
      if (c.status() != ComponentStatus.MAINTAINED) {
        assertThat(c.replacement()).as(c.id() + " replacement").isNotNull();
        CatalogComponent instead = byId.get(c.replacement());
        assertThat(instead).as(c.id() + " -> " + c.replacement()).isNotNull();
        assertThat(instead.status()).isEqualTo(ComponentStatus.MAINTAINED);
        assertThat(instead.category()).isEqualTo(c.category());
      }
    }
  }

  @Test
  void theVendoredKongPackageIsTheReleaseTheCatalogPins() {
    CatalogComponent kong = HelmComponents.create().catalog().stream().filter(c -> c.id().equals("kong"))
        .findFirst().orElseThrow();
    String chartYaml = Helm.show(Path.of("src/test/resources/upstream-charts/kong-" + kong.version() + ".tgz")
        .toAbsolutePath().toString()).chart().call();
    assertThat(chartYaml).contains("name: " + kong.chart())
        .contains("version: " + kong.version())
        .contains("appVersion: \"" + kong.appVersion() + "\"");
  }
}
