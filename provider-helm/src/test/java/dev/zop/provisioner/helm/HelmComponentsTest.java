package dev.zop.provisioner.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.Release;
import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ComponentStatus;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.testkit.kube.KubeTestCluster;
import dev.zop.provisioner.sim.SimCloud;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Component jobs and namespaces end to end: the engine (on the sim cloud, a test double, for the account) runs
 * Helm against a real kube-apiserver + etcd on loopback, with charts from a chart repository on 127.0.0.1.
 */
class HelmComponentsTest {
  static final Duration WAIT = Duration.ofSeconds(120);
  static KubeTestCluster kube;
  static ChartRepository charts;
  static EmbeddedProvisioner zop;
  static Space space;

  @BeforeAll
  static void start() throws Exception {
    kube = KubeTestCluster.shared();
    charts = ChartRepository.serve();
    // the catalog's maintained ingress as it ships, served from the vendored package instead of charts.konghq.com
    CatalogComponent kong = HelmComponents.create().catalog().stream().filter(c -> c.id().equals("kong"))
        .findFirst().orElseThrow().fromRepository(charts.url());
    HelmComponents helm = HelmComponents.of(List.of(
        new CatalogComponent("zop-demo", "Demo", "test", "0.1.0", "a ConfigMap from values", charts.url(),
            "zop-demo", Map.of("settings", Map.of("colour", "teal"))),
        new CatalogComponent("missing-version", "Missing", "test", "9.9.9", "not in the repository",
            charts.url(), "zop-demo", Map.of()),
        new CatalogComponent("retired-demo", "Retired demo", "test", "0.1.0", "a ConfigMap, no longer maintained",
            charts.url(), "zop-demo", Map.of())
            .withStatus(ComponentStatus.RETIRED, "its project stopped releasing it in March 2026", "zop-demo"),
        kong))
        .withChartCache(Files.createTempDirectory("zop-chart-cache"));
    zop = TestEngines.h2(Files.createTempDirectory("zop-helm-engine"), SimCloud.create()).components(helm).build();
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "helm"));
    space = zop.spaces().create(SpaceRequest.of("sim", "helm-space", account.id()).region("sim-east-1")
        .kubeconfig(kube.kubeconfig()));
  }

  @AfterAll
  static void stop() {
    if (zop != null) {
      zop.close();
    }
    if (charts != null) {
      charts.close();
    }
  }

  /** A space whose kubeconfig points at a loopback port where nothing listens. */
  static Space spaceWithoutItsCluster(String name) throws java.io.IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", name));
    return zop.spaces().create(SpaceRequest.of("sim", name, account.id()).region("sim-east-1")
        .kubeconfig(kube.kubeconfig("https://127.0.0.1:" + closed)));
  }

  static ConfigMap settings(String namespace, String release) {
    return KubeNamespaces.withClient(kube.kubeconfig(),
        c -> c.configMaps().inNamespace(namespace).withName(release + "-settings").get());
  }

  static List<Release> releases(String namespace) {
    try {
      java.nio.file.Path file = Files.createTempFile("kubeconfig", ".yaml");
      Files.writeString(file, kube.kubeconfig());
      return Helm.list().all().withNamespace(namespace).withKubeConfig(file).call();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void installUpgradeAndUninstallAreOrdinaryHelmReleases() {
    assertThat(space.config()).containsKey("kubeconfigRef").doesNotContainValue(kube.kubeconfig());
    assertThatThrownBy(() -> zop.spaces().kubeconfig(space.id())) // the stored credentials are not handed out
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("kubeconfig_supplied"));
    assertThat(zop.catalog().components()).extracting(CatalogComponent::id)
        .containsExactly("kong", "zop-demo", "missing-version", "retired-demo"); // built-in ids first

    Job installed = zop.jobs().await(zop.jobs().installComponent(space.id(), "zop-demo",
        Map.of("greeting", "hi, there")).id(), WAIT);
    assertThat(installed.status()).as(String.valueOf(installed.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(installed.outputs()).containsEntry("release", "zop-demo").containsEntry("namespace", "zop-demo")
        .containsEntry("revision", "1");
    assertThat(releases("zop-demo")).singleElement().satisfies(r -> {
      assertThat(r.getName()).isEqualTo("zop-demo");
      assertThat(r.getStatus()).isEqualTo("deployed");
    });
    ConfigMap first = settings("zop-demo", "zop-demo");
    assertThat(first.getData()).containsEntry("greeting", "hi, there") // a comma stays one value
        .containsEntry("colour", "teal"); // the catalog's default over the chart's

    Job upgraded = zop.jobs().await(zop.jobs().installComponent(space.id(), "zop-demo",
        Map.of("settings.colour", "green", "replicas", 3)).id(), WAIT);
    assertThat(upgraded.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(upgraded.outputs()).containsEntry("revision", "2");
    assertThat(settings("zop-demo", "zop-demo").getData()).containsEntry("colour", "green")
        .containsEntry("replicas", "3").containsEntry("greeting", "hello");
    assertThat(releases("zop-demo")).singleElement().satisfies(r -> assertThat(r.getRevision()).isEqualTo("2"));

    Job removed = zop.jobs().await(zop.jobs().delete(upgraded.id()).id(), WAIT);
    assertThat(removed.status()).isEqualTo(JobStatus.DELETED);
    assertThat(releases("zop-demo")).isEmpty();
    assertThat(settings("zop-demo", "zop-demo")).isNull();
    // the first job's teardown finds the release gone already: still a clean teardown
    assertThat(zop.jobs().await(zop.jobs().delete(installed.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aRevisionUpgradesTheReleaseAndAFailedUpgradeIsRolledBackByHelm() {
    ComponentSpec first = ComponentSpec.of("zop-demo", Map.of("greeting", "hi")).inNamespace("zop-revised");
    Plan plan = zop.jobs().plan(space.id(), first);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value()).containsExactly("chartVersion=0.1.0");
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), first).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(settings("zop-revised", "zop-demo").getData()).containsEntry("greeting", "hi")
        .doesNotContainKey("chartVersion");

    // the next chart version and another greeting: one Helm upgrade of the same release
    ComponentSpec next = first.withChartVersion("0.2.0").withValue("greeting", "hello again");
    var revision = zop.jobs().planRevision(job.id(), next);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to() + " " + c.effect())
        .containsExactlyInAnyOrder("chartVersion:0.1.0->0.2.0 IN_PLACE", "values.greeting:hi->hello again IN_PLACE");
    assertThat(revision.steps()).extracting(s -> s.name()).containsExactly("resolve-chart", "upgrade-release");
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), next.inNamespace("elsewhere")))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.namespace namespace_change"));
    Job upgraded = zop.jobs().await(zop.jobs().revise(job.id(), next).id(), WAIT);
    assertThat(upgraded.status()).as(String.valueOf(upgraded.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(upgraded.outputs()).containsEntry("chartVersion", "0.2.0").containsEntry("revision", "2");
    assertThat(releases("zop-revised")).singleElement().satisfies(r -> {
      assertThat(r.getChart()).isEqualTo("zop-demo-0.2.0");
      assertThat(r.getRevision()).isEqualTo("2");
      assertThat(r.getStatus()).isEqualTo("deployed");
    });
    assertThat(settings("zop-revised", "zop-demo").getData()).containsEntry("greeting", "hello again")
        .containsEntry("chartVersion", "0.2.0").containsEntry("colour", "teal");

    // a second ConfigMap whose name the API server refuses: Helm rolls the release back, the job fails at its step
    Job failed = zop.jobs().await(zop.jobs().revise(job.id(), next.withValue("greeting", "never seen")
        .withValue("extraConfigMapName", "Not_A_Valid_Name")).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.currentStep().name()).isEqualTo("upgrade-release");
    assertThat(failed.lastFailure().code()).isEqualTo("release_upgrade_failed");
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(failed.lastFailure().message()).contains("rolled it back", "zop-demo-0.2.0");
    assertThat(releases("zop-revised")).singleElement().satisfies(r -> {
      assertThat(r.getStatus()).isEqualTo("deployed");
      assertThat(r.getRevision()).isEqualTo("4"); // 3 failed, 4 is the rollback to 2
    });
    assertThat(settings("zop-revised", "zop-demo").getData()).containsEntry("greeting", "hello again");
    assertThat(zop.jobs().revisions(job.id())).extracting(r -> r.number() + " " + r.status())
        .containsExactly("1 APPLIED", "2 APPLIED", "3 FAILED");

    // the next revision takes the failed one's place, planned from the last config applied
    ComponentSpec fixed = next.withValue("greeting", "fixed");
    assertThat(zop.jobs().planRevision(job.id(), fixed).changes()).extracting(c -> c.field() + ":" + c.from()
        + "->" + c.to()).containsExactly("values.greeting:hello again->fixed");
    Job recovered = zop.jobs().await(zop.jobs().revise(job.id(), fixed).id(), WAIT);
    assertThat(recovered.status()).as(String.valueOf(recovered.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(settings("zop-revised", "zop-demo").getData()).containsEntry("greeting", "fixed");
    assertThat(releases("zop-revised")).singleElement().satisfies(r -> assertThat(r.getRevision()).isEqualTo("5"));
    assertThat(zop.jobs().revisions(job.id())).extracting(r -> r.number() + " " + r.status())
        .containsExactly("1 APPLIED", "2 APPLIED", "3 FAILED", "4 APPLIED");

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(releases("zop-revised")).isEmpty();
  }

  @Test
  void namespacesAreListedAndCreatedWithOurLabel() {
    List<Namespace> before = zop.spaces().namespaces(space.id()).list();
    assertThat(before).extracting(Namespace::name).contains("default", "kube-system");
    assertThat(before).filteredOn(n -> n.name().equals("default")).singleElement()
        .satisfies(n -> {
          assertThat(n.managedByZopnight()).isFalse();
          assertThat(n.createdAt()).isNull();
        });

    Namespace created = zop.spaces().namespaces(space.id()).create("checkout-prod");
    assertThat(created.managedByZopnight()).isTrue();
    assertThat(created.createdAt()).isNotNull();
    assertThat(zop.spaces().namespaces(space.id()).list()).contains(created);
    Map<String, String> labels = KubeNamespaces.withClient(kube.kubeconfig(),
        c -> c.namespaces().withName("checkout-prod").get().getMetadata().getLabels());
    assertThat(labels).containsEntry("zop.dev/managed-by", "zopnight");

    assertThatThrownBy(() -> zop.spaces().namespaces(space.id()).create("checkout-prod"))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("namespace_exists"));
    assertThatThrownBy(() -> zop.spaces().namespaces(space.id()).create("Not_A_Name"))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void aChartTheRepositoryDoesNotHaveIsAUserActionFailure() {
    Job failed = zop.jobs().await(zop.jobs().installComponent(space.id(), "missing-version", Map.of()).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(failed.lastFailure().code()).isEqualTo("chart_not_found");
    assertThat(failed.lastFailure().fixHint()).isNotBlank();
    assertThat(failed.lastFailure().retryable()).isFalse();
  }

  @Test
  void aComponentThatNeverInstalledIsTornDownWithoutTheCluster() throws Exception {
    Space unreachable = spaceWithoutItsCluster("helm-never");
    Job failed = zop.jobs().await(zop.jobs().installComponent(unreachable.id(), "missing-version", Map.of()).id(),
        WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().code()).isEqualTo("chart_not_found");
    // nothing reached the cluster, so its teardown needs nothing of it (here it could not reach it at all)
    Job deleted = zop.jobs().await(zop.jobs().delete(failed.id()).id(), WAIT);
    assertThat(deleted.status()).as(String.valueOf(deleted.lastFailure())).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void valuesTheChartRefusesAreAUserActionFailure() {
    Job failed = zop.jobs().await(zop.jobs().submit(space.id(),
        ComponentSpec.of("zop-demo", Map.of("replicas", "many")).inNamespace("bad-values")).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).as(failed.lastFailure().toString())
        .isEqualTo(FailureCategory.USER_ACTION);
    assertThat(failed.lastFailure().code()).isEqualTo("invalid_values");
    assertThatThrownBy(() -> zop.jobs().installComponent(space.id(), "no-such-component", Map.of()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field()).containsExactly("config.componentID"));
  }

  @Test
  void anApiServerThatDoesNotAnswerIsTransient() throws Exception {
    Space down = spaceWithoutItsCluster("helm-down");
    Job failed = zop.jobs().await(zop.jobs().installComponent(down.id(), "zop-demo", Map.of()).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).as(failed.lastFailure().toString())
        .isEqualTo(FailureCategory.TRANSIENT);
    assertThat(failed.lastFailure().retryable()).isTrue();
  }

  @Test
  void aRetiredComponentWarnsInItsPlanAndItsEventsAndStillInstalls() {
    ComponentSpec asked = ComponentSpec.of("retired-demo", Map.of()).inNamespace("retired-demo");
    Plan plan = zop.jobs().plan(space.id(), asked);
    assertThat(plan.warnings()).singleElement().satisfies(w -> {
      assertThat(w.code()).isEqualTo("component_retired");
      assertThat(w.field()).isEqualTo("componentID");
      assertThat(w.message()).contains("retired-demo 0.1.0 is retired upstream")
          .contains("stopped releasing it in March 2026").contains("the catalog offers zop-demo instead");
    });
    assertThat(zop.jobs().plan(space.id(), ComponentSpec.of("zop-demo", Map.of())).warnings()).isEmpty();

    Job installed = zop.jobs().await(zop.jobs().submit(space.id(), asked).id(), WAIT);
    assertThat(installed.status()).as(String.valueOf(installed.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(settings("retired-demo", "retired-demo")).isNotNull();
    List<JobEvent> events = zop.jobs().events(installed.id(), 0);
    assertThat(events).filteredOn(e -> e.type() == JobEventType.WARNING).singleElement()
        .satisfies(e -> assertThat(e.message()).isEqualTo(plan.warnings().get(0).message() + " (component_retired)"));
    // said once, right after the job was submitted, before any step ran
    assertThat(events.get(1).type()).isEqualTo(JobEventType.WARNING);
    assertThat(zop.jobs().await(zop.jobs().delete(installed.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }

  /**
   * The catalog's maintained ingress, Kong's chart as released, on the test kube-apiserver: its CRDs and its
   * controller Deployment are made and the release uninstalls. With no kubelet or scheduler here, the Deployment's
   * pods never run, so nothing of the data plane (the proxy answering, a LoadBalancer address) is checked.
   */
  @Test
  void theMaintainedIngressInstallsItsCrdsAndItsController() {
    assertThat(zop.jobs().plan(space.id(), ComponentSpec.of("kong", Map.of())).warnings()).isEmpty();
    Job installed = zop.jobs().await(zop.jobs().installComponent(space.id(), "kong", Map.of()).id(), WAIT);
    assertThat(installed.status()).as(String.valueOf(installed.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(installed.outputs()).containsEntry("chartVersion", "3.4.1").containsEntry("namespace", "kong");
    assertThat(releases("kong")).singleElement().satisfies(r -> assertThat(r.getStatus()).isEqualTo("deployed"));
    List<String> crds = KubeNamespaces.withClient(kube.kubeconfig(), c -> c.apiextensions().v1()
        .customResourceDefinitions().list().getItems().stream().map(d -> d.getMetadata().getName()).toList());
    assertThat(crds).contains("kongplugins.configuration.konghq.com", "kongclusterplugins.configuration.konghq.com",
        "kongingresses.configuration.konghq.com", "tcpingresses.configuration.konghq.com");
    Deployment controller = KubeNamespaces.withClient(kube.kubeconfig(),
        c -> c.apps().deployments().inNamespace("kong").withName("kong-kong").get());
    assertThat(controller).as("the controller's Deployment").isNotNull();
    assertThat(controller.getSpec().getTemplate().getSpec().getContainers())
        .extracting(container -> container.getName()).contains("ingress-controller", "proxy");

    Job removed = zop.jobs().await(zop.jobs().delete(installed.id()).id(), WAIT);
    assertThat(removed.status()).isEqualTo(JobStatus.DELETED);
    assertThat(releases("kong")).isEmpty();
    Deployment after = KubeNamespaces.withClient(kube.kubeconfig(),
        c -> c.apps().deployments().inNamespace("kong").withName("kong-kong").get());
    assertThat(after).as("the controller's Deployment after the teardown").isNull();
  }
}
