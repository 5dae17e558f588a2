package dev.zop.provisioner.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.ComponentStatus;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.PlanWarning;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spi.ClusterTarget;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * A component job: resolve the chart, ensure the namespace, then {@code helm upgrade --install} the release
 * named after the component with the merged values. Teardown uninstalls the release (the namespace stays: other
 * releases may live in it). Every step observes before it acts, so re-running one after a crash adopts what is
 * there; failures come back classified, never thrown.
 */
final class ComponentDriver implements ResourceDriver<ComponentSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> CHART = OutputKey.text("chart");
  static final OutputKey<String> CHART_VERSION = OutputKey.text("chartVersion");
  static final OutputKey<String> REPOSITORY = OutputKey.text("repository");
  static final OutputKey<String> NAMESPACE = OutputKey.text("namespace");
  static final OutputKey<Boolean> NAMESPACE_MANAGED = OutputKey.flag("namespaceManaged");
  static final OutputKey<String> RELEASE = OutputKey.text("release");
  static final OutputKey<String> REVISION = OutputKey.text("revision");
  static final OutputKey<String> RELEASE_STATUS = OutputKey.text("releaseStatus");

  private static final Duration BUSY_RETRY = Duration.ofSeconds(10);

  private final Function<String, CatalogComponent> catalog;
  private final ChartFetcher charts;
  private final ClusterTarget cluster;

  ComponentDriver(Function<String, CatalogComponent> catalog, ChartFetcher charts, ClusterTarget cluster) {
    this.catalog = catalog;
    this.charts = charts;
    this.cluster = cluster;
  }

  @Override
  public Class<ComponentSpec> specType() {
    return ComponentSpec.class;
  }

  @Override
  public List<FieldError> validate(ComponentSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    CatalogComponent component = catalog.apply(spec.componentId());
    if (component == null) {
      errors.add(FieldError.of("componentID", "unknown_component", "no component " + spec.componentId()
          + " in the catalog"));
    }
    if (spec.namespace() != null) {
      try {
        KubeNamespaces.checkName(spec.namespace());
      } catch (ValidationException e) {
        errors.add(FieldError.of("namespace", "invalid_name", e.fieldErrors().get(0).message()));
      }
    }
    if (component != null) {
      try {
        ChartValues.merge(component.defaultValues(), spec.values());
      } catch (ChartValues.InvalidValuesException e) {
        errors.add(FieldError.of("values", "invalid_values", e.getMessage()));
      }
    }
    return errors;
  }

  /** A spec without a chart version takes the one the catalog pins, named in the plan. */
  @Override
  public Defaulted<ComponentSpec> withDefaults(ComponentSpec spec) {
    CatalogComponent pinned = catalog.apply(spec.componentId());
    if (pinned == null || spec.chartVersion() != null) {
      return new Defaulted<>(spec, List.of());
    }
    return new Defaulted<>(spec.withChartVersion(pinned.version()), List.of(new PlanDefault("chartVersion",
        pinned.version(), "the chart version the catalog pins for " + pinned.id())));
  }

  /** The catalog's component at the chart version the spec asks for. */
  private CatalogComponent component(ComponentSpec spec) {
    CatalogComponent pinned = catalog.apply(spec.componentId());
    return pinned == null || spec.chartVersion() == null ? pinned : pinned.atVersion(spec.chartVersion());
  }

  private static String namespace(ComponentSpec spec) {
    return spec.namespace() != null ? spec.namespace() : spec.componentId();
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(ComponentDriver.class);
  }

  @Override
  public List<Step> create(ComponentSpec spec) {
    return List.of(
        step("resolve-chart", List.of("http:GET chart repository"), ctx -> resolve(spec)),
        step("ensure-namespace", List.of("kubernetes:namespaces/get", "kubernetes:namespaces/create"),
            ctx -> ensureNamespace(spec)),
        step("install-release", List.of("kubernetes:secrets/*", "kubernetes:<chart resources>/*"),
            ctx -> install(spec, ctx)));
  }

  @Override
  public List<Step> teardown(ComponentSpec spec, Outputs recorded) {
    // the install step records the release before it calls Helm: without it, nothing reached the cluster, and
    // there is nothing to uninstall (nor a reason to ask for the cluster's credentials)
    boolean attempted = recorded.has(RELEASE);
    String release = attempted ? recorded.get(RELEASE) : spec.componentId();
    String namespace = recorded.has(NAMESPACE) ? recorded.get(NAMESPACE) : namespace(spec);
    return List.of(step("uninstall-release", List.of("kubernetes:secrets/*", "kubernetes:<chart resources>/*"),
        ctx -> attempted ? uninstall(release, namespace) : StepResult.done()));
  }

  /** A component whose project is deprecated or retired still installs (people depend on it), with a word. */
  @Override
  public List<PlanWarning> warnings(ComponentSpec spec) {
    CatalogComponent component = catalog.apply(spec.componentId());
    if (component == null || component.status() == ComponentStatus.MAINTAINED) {
      return List.of();
    }
    String instead = component.replacement() == null ? ""
        : "; the catalog offers " + component.replacement() + " instead";
    return List.of(new PlanWarning("component_" + component.status().wireName(), "componentID",
        component.id() + " " + component.version() + " is " + component.status().wireName() + " upstream: "
            + component.statusReason() + ". It installs as asked" + instead + "."));
  }

  /** Components run on the space's cluster; they add no cloud resources to price. */
  @Override
  public List<CostComponent> price(ComponentSpec spec, String region) {
    return List.of();
  }

  /**
   * A component's revision is a Helm upgrade of its release to the revised chart version and values, atomic: an
   * upgrade that fails is rolled back by Helm to the release's previous revision, and the job fails at the step
   * with what Helm said. The release cannot move to another namespace.
   */
  @Override
  public Revision revise(ComponentSpec current, ComponentSpec revised, Outputs recorded) {
    if (!recorded.has(RELEASE)) {
      return Revision.none();
    }
    String release = recorded.get(RELEASE);
    String namespace = recorded.has(NAMESPACE) ? recorded.get(NAMESPACE) : namespace(current);
    Revision revision = Revision.of(List.of(
        step("resolve-chart", List.of("http:GET chart repository"), ctx -> resolve(revised)),
        step("upgrade-release", List.of("kubernetes:secrets/*", "kubernetes:<chart resources>/*"),
            ctx -> upgrade(revised, release, namespace))))
        .inPlace("chartVersion", "values");
    if (!Objects.equals(namespace(current), namespace(revised))) {
      revision.refuse("namespace", "namespace_change", "release " + release + " lives in namespace " + namespace
          + " and cannot move: install the component again in " + namespace(revised) + " and delete this job");
    }
    return revision;
  }

  private StepResult upgrade(ComponentSpec revised, String release, String namespace) throws Exception {
    CatalogComponent component = component(revised);
    Path work = Files.createTempDirectory("zop-helm-");
    try {
      Path kubeconfig = KubeconfigFile.write(cluster.kubeconfig(), work);
      Release existing = find(kubeconfig, release, namespace);
      if (existing == null) {
        return StepResult.fail(Failure.userAction(FailureCodes.RESOURCE_MISSING, "release " + release + " is not"
            + " in namespace " + namespace + ": it was uninstalled outside this job", "Delete the job, or install"
            + " the component again.", null));
      }
      if (existing.getStatus() != null && existing.getStatus().startsWith("pending")) {
        return StepResult.waitFor(BUSY_RETRY, "release " + release + " is " + existing.getStatus());
      }
      Map<String, Object> values = ChartValues.merge(component.defaultValues(), revised.values());
      String chartRef = component.chart() + "-" + component.version();
      // a resumed step whose upgrade was made before the crash finds the release as revised, and leaves it
      if (!"deployed".equals(existing.getStatus()) || !chartRef.equals(existing.getChart())
          || !ChartValues.same(values, Helm.get(release).values().withNamespace(namespace)
              .withKubeConfig(kubeconfig).call())) {
        Path chart = charts.fetch(component);
        Path valuesFile = ChartValues.write(values, work);
        try {
          existing = new Helm(chart).upgrade().withName(release).withNamespace(namespace).withValuesFile(valuesFile)
              .atomic().withKubeConfig(kubeconfig).call();
        } catch (RuntimeException failed) {
          Release after = find(kubeconfig, release, namespace);
          if (after == null || !"deployed".equals(after.getStatus())
              || Integer.parseInt(after.getRevision()) <= Integer.parseInt(existing.getRevision()) + 1) {
            throw failed;
          }
          return StepResult.fail(Failure.userAction("release_upgrade_failed", "release " + release + " could not"
              + " be upgraded to " + chartRef + ": " + failed.getMessage() + "; Helm rolled it back (revision "
              + after.getRevision() + " runs " + after.getChart() + " as before)", "The release runs as before. Revise"
              + " the job with values or a chart version Helm takes, or fix what it names and retry.", null));
        }
      }
      return StepResult.done(REVISION.is(existing.getRevision()), RELEASE_STATUS.is(existing.getStatus()),
          CHART_VERSION.is(component.version()));
    } finally {
      delete(work);
    }
  }

  private StepResult resolve(ComponentSpec spec) throws Exception {
    CatalogComponent component = component(spec);
    charts.fetch(component);
    return StepResult.done(CHART.is(component.chart()), CHART_VERSION.is(component.version()),
        REPOSITORY.is(component.repository()));
  }

  private StepResult ensureNamespace(ComponentSpec spec) throws Exception {
    String namespace = namespace(spec);
    boolean managed = KubeNamespaces.withClient(cluster.kubeconfig(), c -> KubeNamespaces.ensure(c, namespace));
    return StepResult.done(NAMESPACE.is(namespace), NAMESPACE_MANAGED.is(managed));
  }

  private StepResult install(ComponentSpec spec, StepContext ctx) throws Exception {
    CatalogComponent component = component(spec);
    String namespace = namespace(spec);
    String release = spec.componentId();
    Path work = Files.createTempDirectory("zop-helm-");
    try {
      Path kubeconfig = KubeconfigFile.write(cluster.kubeconfig(), work);
      ctx.recordIntent(Map.ofEntries(RELEASE.is(release), NAMESPACE.is(namespace)));
      return install(spec, component, release, namespace, kubeconfig, work);
    } finally {
      delete(work);
    }
  }

  private StepResult install(ComponentSpec spec, CatalogComponent component, String release, String namespace,
      Path kubeconfig, Path work) throws Exception {
    Release existing = find(kubeconfig, release, namespace);
    if (existing != null && existing.getStatus() != null && existing.getStatus().startsWith("pending")) {
      return StepResult.waitFor(BUSY_RETRY, "release " + release + " is " + existing.getStatus());
    }
    if (existing != null && "failed".equals(existing.getStatus()) && "1".equals(existing.getRevision())) {
      // a first install that failed has nothing to upgrade from: take it away and install afresh
      Helm.uninstall(release).withNamespace(namespace).withKubeConfig(kubeconfig).call();
    }
    Path chart = charts.fetch(component);
    Path values = ChartValues.write(ChartValues.merge(component.defaultValues(), spec.values()), work);
    Release installed = new Helm(chart).upgrade().install().withName(release).withNamespace(namespace)
        .withValuesFile(values).withKubeConfig(kubeconfig).call();
    if ("failed".equals(installed.getStatus())) {
      return StepResult.fail(Failure.userAction("release_failed", "release " + release + " is failed after "
          + "revision " + installed.getRevision(), "Inspect it (helm status " + release + " -n " + namespace
          + "), fix the values and retry the job.", null));
    }
    return StepResult.done(RELEASE.is(release), NAMESPACE.is(namespace), REVISION.is(installed.getRevision()),
        RELEASE_STATUS.is(installed.getStatus()), CHART_VERSION.is(component.version()));
  }

  private static void delete(Path dir) throws java.io.IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private StepResult uninstall(String release, String namespace) throws Exception {
    Path work = Files.createTempDirectory("zop-helm-");
    try {
      Path kubeconfig = KubeconfigFile.write(cluster.kubeconfig(), work);
      if (find(kubeconfig, release, namespace) != null) {
        Helm.uninstall(release).withNamespace(namespace).ignoreNotFound().withKubeConfig(kubeconfig).call();
      }
      return StepResult.done();
    } finally {
      delete(work);
    }
  }

  private static Release find(Path kubeconfig, String release, String namespace) {
    return Helm.list().all().withNamespace(namespace).withKubeConfig(kubeconfig).call().stream()
        .filter(r -> r.getName().equals(release)).findFirst().orElse(null);
  }

  /** A step whose errors come back as classified failures, as the engine's contract for plug-ins asks. */
  private static Step step(String name, List<String> permissions, ProviderStep.Body action) {
    return ProviderStep.of(name, permissions, context -> {
      try {
        return action.run(context);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return StepResult.fail(Failure.transientFailure(FailureCodes.INTERRUPTED, "the step was interrupted"));
      } catch (Exception e) {
        return StepResult.fail(HelmErrors.classify(e));
      }
    });
  }
}
