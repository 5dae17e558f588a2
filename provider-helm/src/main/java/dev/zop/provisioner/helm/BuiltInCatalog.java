package dev.zop.provisioner.helm;

import dev.zop.provisioner.CatalogComponent;
import java.util.List;
import java.util.Map;

/** The curated components, each pinned to a chart version in its upstream repository. */
final class BuiltInCatalog {
  private BuiltInCatalog() {}

  static List<CatalogComponent> components() {
    return List.of(
        new CatalogComponent("ingress-nginx", "NGINX Ingress Controller", "ingress", "4.10.0",
            "Production-ready ingress controller backed by NGINX.",
            "https://kubernetes.github.io/ingress-nginx", "ingress-nginx",
            Map.of("controller.service.type", "LoadBalancer", "controller.metrics.enabled", true)),
        // Jetstack's chart versions carry the "v" of the release tag (helm install --version v1.15.0)
        new CatalogComponent("cert-manager", "cert-manager", "tls", "v1.15.0",
            "Automated TLS certificate issuance via ACME.",
            "https://charts.jetstack.io", "cert-manager",
            Map.of("crds.enabled", true)),
        new CatalogComponent("kube-prometheus-stack", "Prometheus, Alertmanager and Grafana", "observability",
            "58.2.2", "Cluster monitoring: Prometheus Operator, Alertmanager, Grafana and exporters.",
            "https://prometheus-community.github.io/helm-charts", "kube-prometheus-stack",
            Map.of("grafana.enabled", true, "alertmanager.enabled", true)),
        new CatalogComponent("metrics-server", "Metrics Server", "observability", "3.12.1",
            "Resource metrics for the Horizontal Pod Autoscaler and kubectl top.",
            "https://kubernetes-sigs.github.io/metrics-server/", "metrics-server",
            Map.of()),
        new CatalogComponent("external-dns", "ExternalDNS", "dns", "1.14.4",
            "Keeps DNS records in the cloud's DNS service in step with Services and Ingresses.",
            "https://kubernetes-sigs.github.io/external-dns/", "external-dns",
            Map.of("policy", "upsert-only")));
  }
}
