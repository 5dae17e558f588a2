package dev.zop.provisioner.helm;

import com.google.auto.service.AutoService;
import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spi.ClusterComponents;
import dev.zop.provisioner.spi.ClusterTarget;
import dev.zop.provisioner.spi.ResourceDriver;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Catalog components installed with Helm (helm-java embeds Helm's Go SDK, so releases are ordinary Helm releases
 * that {@code helm list} shows), and namespaces through fabric8. Found with {@link java.util.ServiceLoader}; a
 * host that wants its own catalog or mirrors builds one and hands it to the engine builder:
 *
 * <pre>{@code
 * HelmComponents helm = HelmComponents.create()
 *     .withRepository("ingress-nginx", "https://charts.mirror.internal/ingress-nginx")
 *     .withComponent(new CatalogComponent("podinfo", "podinfo", "demo", "6.5.0", "Demo app",
 *         "https://stefanprodan.github.io/podinfo", "podinfo", Map.of()));
 * EmbeddedProvisioner.builder().components(helm)...
 * }</pre>
 *
 * <p>Charts are cached under {@code $ZOP_HOME/charts} (default {@code ~/.cache/zop-provisioner/charts}).
 */
@AutoService(ClusterComponents.class)
public final class HelmComponents implements ClusterComponents {
  private final Map<String, CatalogComponent> catalog;
  private final ChartFetcher charts;
  private final Path chartCache;

  /** The built-in catalog with the default chart cache; what {@link java.util.ServiceLoader} makes. */
  public HelmComponents() {
    this(BuiltInCatalog.components(), defaultCache());
  }

  private HelmComponents(List<CatalogComponent> components, Path chartCache) {
    Map<String, CatalogComponent> byId = new LinkedHashMap<>();
    components.forEach(c -> byId.put(c.id(), c));
    // in the order given: built-ins first (ordered), then the host's in the order it added them
    this.catalog = java.util.Collections.unmodifiableMap(byId);
    this.chartCache = chartCache;
    this.charts = new ChartFetcher(chartCache);
  }

  public static HelmComponents create() {
    return new HelmComponents();
  }

  /** Only these components, no built-ins. */
  public static HelmComponents of(List<CatalogComponent> components) {
    return new HelmComponents(components, defaultCache());
  }

  /** Adds (or replaces) a component. */
  public HelmComponents withComponent(CatalogComponent component) {
    List<CatalogComponent> next = new ArrayList<>(ordered());
    next.removeIf(c -> c.id().equals(component.id()));
    next.add(component);
    return new HelmComponents(next, chartCache);
  }

  /** Serves a component's chart from another repository, such as a mirror. */
  public HelmComponents withRepository(String componentId, String repository) {
    CatalogComponent component = Objects.requireNonNull(catalog.get(componentId), "no component " + componentId);
    return withComponent(component.fromRepository(repository));
  }

  /** Keeps downloaded charts in {@code directory}. */
  public HelmComponents withChartCache(Path directory) {
    return new HelmComponents(ordered(), directory);
  }

  private List<CatalogComponent> ordered() {
    List<CatalogComponent> all = new ArrayList<>(catalog.values());
    List<String> builtIn = BuiltInCatalog.components().stream().map(CatalogComponent::id).toList();
    all.sort((a, b) -> Integer.compare(rank(builtIn, a.id()), rank(builtIn, b.id())));
    return all;
  }

  private static int rank(List<String> order, String id) {
    int at = order.indexOf(id);
    return at < 0 ? Integer.MAX_VALUE : at;
  }

  @Override
  public List<CatalogComponent> catalog() {
    return ordered();
  }

  @Override
  public ResourceDriver<ComponentSpec> driver(ClusterTarget cluster) {
    return new ComponentDriver(catalog::get, charts, cluster);
  }

  @Override
  public List<Namespace> namespaces(ClusterTarget cluster) throws Exception {
    return KubeNamespaces.withClient(cluster.kubeconfig(), KubeNamespaces::list);
  }

  @Override
  public Namespace createNamespace(ClusterTarget cluster, String name) throws Exception {
    KubeNamespaces.checkName(name); // before any call to the cluster
    return KubeNamespaces.withClient(cluster.kubeconfig(), c -> KubeNamespaces.create(c, name));
  }

  @Override
  public Failure classify(Throwable error) {
    return HelmErrors.classify(error);
  }

  private static Path defaultCache() {
    String home = System.getenv("ZOP_HOME");
    return home != null && !home.isBlank() ? Path.of(home, "charts")
        : Path.of(System.getProperty("user.home"), ".cache", "zop-provisioner", "charts");
  }
}
