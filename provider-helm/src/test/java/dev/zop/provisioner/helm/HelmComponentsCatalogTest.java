package dev.zop.provisioner.helm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.spi.ClusterComponents;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class HelmComponentsCatalogTest {
  @Test
  void theBuiltInCatalogPinsEachComponentToAnUpstreamChartVersion() {
    List<CatalogComponent> catalog = HelmComponents.create().catalog();
    assertThat(catalog).extracting(CatalogComponent::id).containsExactly("ingress-nginx", "kong", "cert-manager",
        "kube-prometheus-stack", "metrics-server", "external-dns");
    assertThat(catalog).filteredOn(c -> c.id().equals("cert-manager")).extracting(CatalogComponent::version)
        .containsExactly("v1.21.1");
    assertThat(catalog).allSatisfy(c -> {
      assertThat(c.repository()).startsWith("https://");
      // as the repository's index spells it: a semantic version, with a "v" where the chart's publisher uses one
      assertThat(c.version()).matches("v?\\d+\\.\\d+\\.\\d+");
      assertThat(c.name()).isNotBlank();
      assertThat(c.category()).isNotBlank();
      assertThat(c.description()).isNotBlank();
    });
  }

  @Test
  void hostsAddComponentsAndPointThemAtMirrors() {
    HelmComponents helm = HelmComponents.create()
        .withRepository("ingress-nginx", "https://charts.mirror.internal/ingress-nginx")
        .withComponent(new CatalogComponent("podinfo", "podinfo", "demo", "6.5.0", "A demo app",
            "https://charts.mirror.internal/podinfo", "podinfo", Map.of("replicaCount", 2)));
    assertThat(helm.catalog()).extracting(CatalogComponent::id).startsWith("ingress-nginx").endsWith("podinfo");
    assertThat(helm.catalog().get(0).repository()).isEqualTo("https://charts.mirror.internal/ingress-nginx");
    assertThat(helm.catalog().get(0).version()).isEqualTo(HelmComponents.create().catalog().get(0).version());
    assertThat(HelmComponents.create().catalog().get(0).repository())
        .isEqualTo("https://kubernetes.github.io/ingress-nginx"); // the original is unchanged
  }

  @Test
  void serviceLoaderFindsIt() {
    assertThat(ServiceLoader.load(ClusterComponents.class).findFirst()).get().isInstanceOf(HelmComponents.class);
  }
}
