package dev.zop.provisioner.helm;

import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.ChartProvenance;
import dev.zop.provisioner.ComponentStatus;
import java.util.List;
import java.util.Map;

/**
 * The curated components, each pinned to a chart version in its upstream repository, with the release tag (and
 * its commit) whose {@code Chart.yaml} carries that version and appVersion. {@code CatalogProvenanceTest} checks
 * every entry against the facts read from those tags, so a version moved here without them fails the build.
 */
final class BuiltInCatalog {
  private BuiltInCatalog() {}

  static List<CatalogComponent> components() {
    return List.of(
        new CatalogComponent("ingress-nginx", "NGINX Ingress Controller", "ingress", "4.15.1",
            "Ingress controller backed by NGINX. Retired upstream: kept for clusters that already run it.",
            "https://kubernetes.github.io/ingress-nginx", "ingress-nginx",
            Map.of("controller.service.type", "LoadBalancer", "controller.metrics.enabled", true))
            .publishedFrom("1.15.1", new ChartProvenance("github.com/kubernetes/ingress-nginx",
                "helm-chart-4.15.1", "0a5901f3c64f11e92e487799b8da3f00cca37515"))
            .withStatus(ComponentStatus.RETIRED, "best-effort maintenance ended in March 2026, with no further"
                + " releases, bug fixes or security fixes (the project's README, \"Ingress NGINX Retirement\")",
                "kong"),
        new CatalogComponent("kong", "Kong Ingress Controller", "ingress", "3.4.1",
            "Ingress controller and Gateway API implementation: the Kong Ingress Controller with Kong Gateway,"
                + " without a database.",
            "https://charts.konghq.com", "kong", Map.of())
            .publishedFrom("3.9", new ChartProvenance("github.com/Kong/charts", "kong-3.4.1",
                "694d8dc4772eb1b47bb8ae674738b6b18d2fbbee")),
        // Jetstack's chart versions carry the "v" of the release tag (helm install --version v1.21.1)
        new CatalogComponent("cert-manager", "cert-manager", "tls", "v1.21.1",
            "Automated TLS certificate issuance via ACME.",
            "https://charts.jetstack.io", "cert-manager",
            Map.of("crds.enabled", true))
            .publishedFrom("v1.21.1", new ChartProvenance("github.com/cert-manager/cert-manager", "v1.21.1",
                "24e33194fb39488eff2bbf10c6dc640f407cad44")),
        new CatalogComponent("kube-prometheus-stack", "Prometheus, Alertmanager and Grafana", "observability",
            "88.5.3", "Cluster monitoring: Prometheus Operator, Alertmanager, Grafana and exporters.",
            "https://prometheus-community.github.io/helm-charts", "kube-prometheus-stack",
            Map.of("grafana.enabled", true, "alertmanager.enabled", true))
            .publishedFrom("v0.93.1", new ChartProvenance("github.com/prometheus-community/helm-charts",
                "kube-prometheus-stack-88.5.3", "ea930baeebeba39f56d6b44e351f23b2a072a600")),
        new CatalogComponent("metrics-server", "Metrics Server", "observability", "3.13.1",
            "Resource metrics for the Horizontal Pod Autoscaler and kubectl top.",
            "https://kubernetes-sigs.github.io/metrics-server/", "metrics-server",
            Map.of())
            .publishedFrom("0.8.1", new ChartProvenance("github.com/kubernetes-sigs/metrics-server",
                "metrics-server-helm-chart-3.13.1", "842dcc8c42f22cc19f10c7d5f2d32a9f4b6013b0")),
        new CatalogComponent("external-dns", "ExternalDNS", "dns", "1.21.1",
            "Keeps DNS records in the cloud's DNS service in step with Services and Ingresses.",
            "https://kubernetes-sigs.github.io/external-dns/", "external-dns",
            Map.of("policy", "upsert-only"))
            .publishedFrom("0.21.0", new ChartProvenance("github.com/kubernetes-sigs/external-dns",
                "external-dns-helm-chart-1.21.1", "9f26451346774099a8b3e3e5cc46a53bf2fd1461")));
  }
}
