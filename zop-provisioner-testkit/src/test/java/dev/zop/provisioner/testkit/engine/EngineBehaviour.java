package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.sim.SimProvider;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the embedded engine does on the sim cloud; runs once per store (H2, PostgreSQL). */
abstract class EngineBehaviour {
  static final Duration WAIT = Duration.ofSeconds(30);

  SimCloud cloud;
  EmbeddedProvisioner zop;
  Space space;

  /** An engine builder on this test's store, with the sim provider on {@code simCloud}. */
  abstract EmbeddedProvisionerBuilder engine(SimCloud simCloud);

  @BeforeEach
  void start() {
    cloud = SimCloud.create();
    zop = engine(cloud).build();
    space = newSpace(zop, "checkout-prod-sim-east-1");
  }

  @AfterEach
  void stop() {
    if (zop != null) {
      zop.close();
    }
  }

  @org.junit.jupiter.api.Test
  void accountPropertiesNamedLikeCredentialsAreRefusedButEndpointsAreAddresses() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> zop.accounts().create(
            CloudAccountRequest.of("sim", "leaky").property("clientSecret", "x").property("apiToken", "y")))
        .isInstanceOfSatisfying(dev.zop.provisioner.ValidationException.class, e ->
            org.assertj.core.api.Assertions.assertThat(e.fieldErrors()).extracting(f -> f.field() + " " + f.code())
                .containsExactlyInAnyOrder("properties.clientSecret sensitive_field",
                    "properties.apiToken sensitive_field"));
    CloudAccount pointed = zop.accounts().create(CloudAccountRequest.of("sim", "pointed")
        .property("endpoint.secretmanager", "http://127.0.0.1:9"));
    org.assertj.core.api.Assertions.assertThat(pointed.properties())
        .containsEntry("endpoint.secretmanager", "http://127.0.0.1:9");
  }

  static Space newSpace(Provisioner provisioner, String name) {
    CloudAccount account = provisioner.accounts().create(CloudAccountRequest.of("sim", "acct-" + name));
    return provisioner.spaces().create(SpaceRequest.of("sim", name, account.id()).region("sim-east-1"));
  }

  /** A network of three subnets: four create steps, each recording its intent before its change. */
  static NetworkSpec.Builder network(String name) {
    return NetworkSpec.named(name).cidr("10.0.0.0/16")
        .subnet("a", "10.0.1.0/24").subnet("b", "10.0.2.0/24").subnet("c", "10.0.3.0/24");
  }

  static KubernetesSpec cluster(String name) {
    return KubernetesSpec.named(name).version("1.30").nodeGroup("default", "m5.large", 2, 6).build();
  }

  Job run(Job job) {
    return zop.jobs().await(job.id(), WAIT);
  }

  static JobStep step(Job job, JobPhase phase, String name) {
    return job.steps().stream().filter(s -> s.phase() == phase && s.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void clusterJobRunsEveryStepAndRegistersItsClusterAsASpace() {
    Job job = run(zop.jobs().submit(space.id(), cluster("platform-prod")));

    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.steps()).extracting(JobStep::name, JobStep::status, JobStep::attempts).containsExactly(
        tuple("create-role", StepStatus.SUCCEEDED, 1),
        tuple("create-cluster", StepStatus.SUCCEEDED, 1),
        tuple("await-cluster", StepStatus.SUCCEEDED, 1),
        tuple("create-nodegroup-default", StepStatus.SUCCEEDED, 1),
        tuple("await-nodegroup-default", StepStatus.SUCCEEDED, 1));
    assertThat(job.outputs()).containsEntry("clusterName", "platform-prod")
        .containsEntry("endpoint", "https://platform-prod.sim-east-1.k8s.sim.invalid");
    Space registered = zop.spaces().get(dev.zop.provisioner.SpaceId.of(job.outputs().get("spaceId")));
    assertThat(registered.name()).isEqualTo("platform-prod-sim-east-1");
    assertThat(registered.config()).containsEntry("clusterName", "platform-prod").containsEntry("region", "sim-east-1");
    assertThat(registered.cloudAccountId()).isEqualTo(space.cloudAccountId());
    assertThat(cloud.resources()).extracting(SimCloud.Resource::type)
        .containsExactlyInAnyOrder("iam-role", "kubernetes-cluster", "node-group");

    Kubeconfig kubeconfig = zop.spaces().kubeconfig(registered.id());
    assertThat(kubeconfig.server()).isEqualTo(job.outputs().get("endpoint"));
    assertThat(kubeconfig.token()).startsWith("sim-token-");
    assertThat(kubeconfig.yaml()).contains("server: " + kubeconfig.server(), "token: " + kubeconfig.token());
    assertThat(kubeconfig.toString()).doesNotContain(kubeconfig.token());
    assertThatThrownBy(() -> zop.spaces().kubeconfig(space.id()))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("no_cluster"));

    Job deleted = run(zop.jobs().delete(job.id()));
    assertThat(deleted.status()).isEqualTo(JobStatus.DELETED);
    assertThat(deleted.steps().stream().filter(s -> s.phase() == JobPhase.TEARDOWN).map(JobStep::name))
        .containsExactly("delete-nodegroup-default", "delete-cluster", "delete-role");
    assertThat(cloud.resources()).isEmpty();
    assertThatThrownBy(() -> zop.spaces().get(registered.id())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void aWaitingJobIsParkedUntilTheCloudIsReady() {
    cloud.stuckCreating("kubernetes-cluster");
    Job job = zop.jobs().submit(space.id(), cluster("slow"));

    assertThatThrownBy(() -> zop.jobs().await(job.id(), Duration.ofMillis(400)))
        .isInstanceOfSatisfying(AwaitTimeoutException.class, e -> {
          assertThat(e.lastSeen().status()).isEqualTo(JobStatus.RUNNING);
          assertThat(step(e.lastSeen(), JobPhase.CREATE, "await-cluster").status()).isEqualTo(StepStatus.WAITING);
        });
    int polls = cloud.stepRuns(job.id().value(), "await-cluster");
    assertThat(polls).isGreaterThan(1);
    assertThat(step(zop.jobs().get(job.id()), JobPhase.CREATE, "await-cluster").attempts()).isEqualTo(1);

    cloud.unstick("kubernetes-cluster");
    assertThat(run(job).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(zop.jobs().events(job.id(), 0)).extracting(JobEvent::type).contains(JobEventType.STEP_WAITING);
  }

  @Test
  void aStepThatWaitsLongerThanTheProvidersLimitFailsRetryably() {
    zop.close();
    zop = engine(cloud).provider(new SimProvider(cloud).timeouts(Map.of(JobKind.KUBERNETES, Duration.ofMillis(300))))
        .build();
    cloud.stuckCreating("kubernetes-cluster");
    Job failed = run(zop.jobs().submit(space.id(), cluster("never-ready")));
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().code()).isEqualTo("timed_out");
    assertThat(failed.lastFailure().retryable()).isTrue();
    assertThat(failed.lastFailure().message()).contains("await-cluster", "PT0.3S", "CREATING");

    cloud.unstick("kubernetes-cluster");
    assertThat(run(zop.jobs().retry(failed.id())).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.maxCreateCount()).isEqualTo(1);
  }

  @Test
  void transientFailuresAreRetriedWithBackoffInsideTheStep() {
    cloud.throttleNext("kubernetes:CreateCluster", 2);
    Job job = run(zop.jobs().submit(space.id(), cluster("throttled")));

    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(step(job, JobPhase.CREATE, "create-cluster").attempts()).isEqualTo(3);
    assertThat(zop.jobs().events(job.id(), 0)).filteredOn(e -> e.type() == JobEventType.STEP_RETRYING)
        .hasSize(2)
        .allSatisfy(e -> assertThat(e.message()).startsWith("throttled"));
    assertThat(cloud.createCount("kubernetes-cluster", "throttled")).isEqualTo(1);
  }

  @Test
  void retryAfterTransientFailuresRunOutResumesAtTheFailedStep() {
    cloud.throttleNext("kubernetes:CreateNodegroup", 4); // the test retry policy allows 4 attempts
    Job failed = run(zop.jobs().submit(space.id(), cluster("flaky")));

    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(failed.lastFailure().retryable()).isTrue();
    JobStep failedStep = step(failed, JobPhase.CREATE, "create-nodegroup-default");
    assertThat(failedStep.status()).isEqualTo(StepStatus.FAILED);
    assertThat(failedStep.attempts()).isEqualTo(4);

    Job retried = run(zop.jobs().retry(failed.id()));
    assertThat(retried.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(retried.lastFailure()).isNull();
    String id = failed.id().value();
    assertThat(cloud.stepRuns(id, "create-cluster")).isEqualTo(1);
    assertThat(cloud.stepRuns(id, "create-nodegroup-default")).isEqualTo(5);
    assertThat(step(retried, JobPhase.CREATE, "create-cluster").id())
        .isEqualTo(step(failed, JobPhase.CREATE, "create-cluster").id());
    assertThat(cloud.maxCreateCount()).isEqualTo(1);
    assertThat(zop.jobs().events(failed.id(), 0)).filteredOn(e -> e.type() == JobEventType.RETRIED)
        .singleElement()
        .satisfies(e -> assertThat(e.message()).contains("retried by local", "throttled"));
  }

  @Test
  void userActionFailureCarriesTheFixAndRetrySucceedsOnceFixed() {
    cloud.deny("kubernetes:CreateNodegroup");
    Job failed = run(zop.jobs().submit(space.id(), cluster("denied")));

    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(failed.lastFailure().code()).isEqualTo("access_denied");
    assertThat(failed.lastFailure().retryable()).isFalse();
    assertThat(failed.lastFailure().fixHint()).contains("kubernetes:CreateNodegroup");
    assertThat(failed.lastFailure().consoleUrl()).startsWith("https://").contains("kubernetes%3ACreateNodegroup");
    assertThat(step(failed, JobPhase.CREATE, "create-nodegroup-default").attempts()).isEqualTo(1);
    assertThat(step(failed, JobPhase.CREATE, "await-cluster").status()).isEqualTo(StepStatus.SUCCEEDED);

    cloud.allow("kubernetes:CreateNodegroup");
    Job retried = run(zop.jobs().retry(failed.id()));
    assertThat(retried.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.stepRuns(failed.id().value(), "create-cluster")).isEqualTo(1);
    assertThat(cloud.maxCreateCount()).isEqualTo(1);
  }

  @Test
  void teardownAfterAPartialFailureLeavesNothingBehind() {
    cloud.quotaExceeded("node-group");
    Job failed = run(zop.jobs().submit(space.id(), cluster("partial")));
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().code()).isEqualTo("quota_exceeded");
    assertThat(cloud.resources()).extracting(SimCloud.Resource::type)
        .containsExactlyInAnyOrder("iam-role", "kubernetes-cluster");

    Job deleted = run(zop.jobs().delete(failed.id()));
    assertThat(deleted.status()).isEqualTo(JobStatus.DELETED);
    // the node group's intent was recorded before its create call failed, so teardown checks for it too
    assertThat(deleted.steps().stream().filter(s -> s.phase() == JobPhase.TEARDOWN).map(JobStep::name))
        .containsExactly("delete-nodegroup-default", "delete-cluster", "delete-role");
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void aFailedTeardownCanBeRetried() {
    Job job = run(zop.jobs().submit(space.id(), cluster("sticky")));
    cloud.deny("kubernetes:DeleteCluster");
    Job failed = run(zop.jobs().delete(job.id()));
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.phase()).isEqualTo(JobPhase.TEARDOWN);
    assertThat(failed.lastFailure().code()).isEqualTo("access_denied");

    cloud.allow("kubernetes:DeleteCluster");
    assertThat(run(zop.jobs().retry(job.id())).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void submitWithTheSameIdempotencyKeyReturnsTheSameJob() throws Exception {
    RegistrySpec spec = RegistrySpec.named("team/api");
    Job first = zop.jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey("key-1"));
    Job again = zop.jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey("key-1"));
    assertThat(again.id()).isEqualTo(first.id());

    assertThatThrownBy(() -> zop.jobs().submit(space.id(), RegistrySpec.named("team/other"),
        SubmitOptions.idempotencyKey("key-1")))
        .isInstanceOfSatisfying(ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("idempotency_key_reused"));

    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Job>> racing = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        racing.add(pool.submit(() -> zop.jobs().submit(space.id(), RegistrySpec.named("team/raced"),
            SubmitOptions.idempotencyKey("key-2"))));
      }
      Set<dev.zop.provisioner.JobId> ids = new HashSet<>();
      for (Future<Job> f : racing) {
        ids.add(f.get().id());
      }
      assertThat(ids).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
    run(first);
    assertThat(zop.jobs().list(JobQuery.inSpace(space.id())).items()).hasSize(2);
    assertThat(cloud.createCount("registry", "team/raced")).isLessThanOrEqualTo(1);
  }

  @Test
  void aRepeatedKeyAnswersWithItsJobEvenWhereANewSubmitWouldBeRefused() {
    RegistrySpec spec = RegistrySpec.named("team/kept");
    Job first = zop.jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey("key-kept"));
    zop.spaces().setStatus(space.id(), SpaceStatus.INACTIVE);

    assertThat(zop.jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey("key-kept")).id())
        .isEqualTo(first.id());
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), RegistrySpec.named("team/other"),
        SubmitOptions.idempotencyKey("key-kept")))
        .isInstanceOfSatisfying(ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("idempotency_key_reused"));
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey("key-new")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("space_inactive"));
    assertThat(zop.jobs().list(JobQuery.inSpace(space.id())).items()).extracting(Job::id)
        .containsExactly(first.id());
  }

  /** What another engine on the same store does to a space: the row changed, this engine not told. */
  private void changeSpaceBehindTheEngine(String sql) throws SQLException {
    try (Connection c = zop.dataSource().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, space.id().value());
      assertThat(ps.executeUpdate()).isEqualTo(1);
    }
  }

  @Test
  void aSpaceDeactivatedByAnotherEngineRefusesTheNextSubmit() throws SQLException {
    Job first = zop.jobs().submit(space.id(), RegistrySpec.named("team/first")); // this engine finds it active
    changeSpaceBehindTheEngine("UPDATE deployment_spaces SET status = 'inactive' WHERE id = ?");

    assertThatThrownBy(() -> zop.jobs().submit(space.id(), RegistrySpec.named("team/second")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("space_inactive"));
    assertThat(zop.jobs().list(JobQuery.inSpace(space.id())).items()).extracting(Job::id)
        .containsExactly(first.id());

    changeSpaceBehindTheEngine("UPDATE deployment_spaces SET status = 'active' WHERE id = ?");
    assertThat(zop.jobs().submit(space.id(), RegistrySpec.named("team/third")).status())
        .isEqualTo(JobStatus.PENDING); // an inactive space is not remembered
  }

  @Test
  void aSpaceDeletedByAnotherEngineIsNotFoundByTheNextSubmit() throws SQLException {
    zop.jobs().submit(space.id(), RegistrySpec.named("team/first"));
    changeSpaceBehindTheEngine("DELETE FROM deployment_spaces WHERE id = ?");

    assertThatThrownBy(() -> zop.jobs().submit(space.id(), RegistrySpec.named("team/second")))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field, FieldError::code).containsExactly(tuple("spaceID", "not_found")));
    assertThat(zop.jobs().list(JobQuery.all()).items()).hasSize(1);
  }

  @Test
  void specValidationNamesEveryBadFieldUnderConfig() {
    KubernetesSpec bad = new KubernetesSpec("Bad Name", "1.99", List.of(new NodeGroup("ng", null, 5, 2, null)),
        null, List.of(), null);
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), bad))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field)
            .containsExactlyInAnyOrder("config.name", "config.nodeGroups[0].instanceType", "config.nodeGroups[0].max"));
    // the provider's own rules run once the spec itself is valid
    KubernetesSpec oldVersion = cluster("valid").toBuilder().version("1.19").build();
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), oldVersion))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field, FieldError::code)
            .containsExactly(tuple("config.version", "unsupported_version")));
    assertThat(zop.jobs().list(JobQuery.all()).items()).isEmpty();
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void planShowsStepsPermissionsAndCostWithoutTouchingTheCloud() {
    Plan plan = zop.jobs().plan(space.id(), DatastoreSpec.postgres().version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(50).multiAz(true).backupRetentionDays(7));
    assertThat(plan.steps()).extracting(s -> s.name())
        .containsExactly("create-subnet-group", "create-db", "await-db");
    assertThat(plan.permissions()).contains("database:CreateDBInstance", "database:DescribeDBInstance");
    // 2 x 730 h x 0.072 + 100 GB-month x 0.115
    assertThat(plan.monthlyTotal()).isEqualByComparingTo(new BigDecimal("116.62"));
    assertThat(plan.complete()).isTrue();
    // the state the steps will record, as the driver declares it: the password only as a reference
    assertThat(plan.outputs()).contains(new dev.zop.provisioner.PlanOutput("host", "text", false),
        new dev.zop.provisioner.PlanOutput("port", "number", false),
        new dev.zop.provisioner.PlanOutput("tls", "flag", false),
        new dev.zop.provisioner.PlanOutput("adminSecretRef", "secretRef", false),
        new dev.zop.provisioner.PlanOutput("{part}.name", "text", true));
    assertThat(plan.outputs()).extracting(dev.zop.provisioner.PlanOutput::key).isSorted().doesNotHaveDuplicates();
    Plan unknown = zop.jobs().plan(space.id(), KubernetesSpec.named("x").version("1.30")
        .nodeGroup("gpu", "p9.mega", 1, 1));
    assertThat(unknown.complete()).isFalse();
    assertThat(unknown.costs()).filteredOn(c -> !c.priceKnown()).singleElement()
        .satisfies(c -> assertThat(c.note()).contains("p9.mega"));
    assertThat(cloud.calls()).isEmpty();
    assertThat(zop.jobs().list(JobQuery.all()).items()).isEmpty();
  }

  @Test
  void listFiltersBySpaceAndStatusAndPaginates() {
    Space other = newSpace(zop, "other");
    List<Job> mine = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      mine.add(run(zop.jobs().submit(space.id(), RegistrySpec.named("repo-" + i))));
    }
    run(zop.jobs().submit(other.id(), RegistrySpec.named("elsewhere")));
    cloud.deny("registry:CreateRepository");
    Job failed = run(zop.jobs().submit(space.id(), RegistrySpec.named("denied")));

    List<String> seen = new ArrayList<>();
    JobQuery query = JobQuery.inSpace(space.id()).limit(2);
    Page<Job> page;
    int pages = 0;
    do {
      page = zop.jobs().list(query);
      page.items().forEach(j -> seen.add(j.name()));
      query = query.after(page.nextCursor());
      pages++;
    } while (page.hasMore());
    assertThat(seen).containsExactly("denied", "repo-4", "repo-3", "repo-2", "repo-1", "repo-0");
    assertThat(pages).isEqualTo(3);
    seen.clear();
    query = JobQuery.inSpace(space.id()).limit(4).order(dev.zop.provisioner.ListOrder.OLDEST_FIRST);
    do {
      page = zop.jobs().list(query);
      page.items().forEach(j -> seen.add(j.name()));
      query = query.after(page.nextCursor());
    } while (page.hasMore());
    assertThat(seen).containsExactly("repo-0", "repo-1", "repo-2", "repo-3", "repo-4", "denied");
    assertThat(zop.jobs().list(JobQuery.inSpace(space.id()).withStatus(JobStatus.FAILED)).items())
        .extracting(Job::id).containsExactly(failed.id());
    assertThatThrownBy(() -> zop.jobs().list(JobQuery.all().after("bogus")))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void updateChangesNameAndTagsWithoutRerunning() {
    Job job = run(zop.jobs().submit(space.id(), RegistrySpec.named("team/web")));
    Job renamed = zop.jobs().update(job.id(), JobPatch.name("web images").withTags(Map.of("team", "web")));
    assertThat(renamed.name()).isEqualTo("web images");
    assertThat(renamed.tags()).containsExactly(Map.entry("team", "web"));
    assertThat(renamed.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.stepRuns(job.id().value(), "create-repository")).isEqualTo(1);
    assertThatThrownBy(() -> zop.jobs().update(job.id(), JobPatch.name(" ")))
        .isInstanceOf(ValidationException.class);
  }

  @Test
  void watchDeliversEveryEventInOrder() throws Exception {
    List<JobEvent> events = new CopyOnWriteArrayList<>();
    Job job = zop.jobs().submit(space.id(), RegistrySpec.named("team/watched"));
    try (Subscription ignored = zop.jobs().watch(job.id(), events::add)) {
      run(job);
      await().atMost(WAIT).until(() -> events.stream().anyMatch(e -> e.status() == JobStatus.SUCCEEDED));
    }
    assertThat(events).extracting(JobEvent::type).containsExactly(JobEventType.SUBMITTED, JobEventType.STATUS,
        JobEventType.STEP_STARTED, JobEventType.STEP_SUCCEEDED, JobEventType.STATUS);
    assertThat(events).extracting(JobEvent::seq).isSorted();
    assertThat(events.get(events.size() - 1).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void anotherOrganisationSeesNothing() {
    Job job = run(zop.jobs().submit(space.id(), RegistrySpec.named("team/private")));
    Provisioner stranger = zop.as(Principal.of("other-org", "mallory").withRoles(Principal.ADMIN));
    assertThatThrownBy(() -> stranger.jobs().get(job.id())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> stranger.jobs().delete(job.id())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> stranger.spaces().get(space.id())).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> stranger.jobs().submit(space.id(), RegistrySpec.named("x")))
        .isInstanceOf(ValidationException.class);
    assertThat(stranger.jobs().list(JobQuery.all()).items()).isEmpty();
    assertThat(stranger.spaces().list()).isEmpty();
    stranger.close(); // a view: the engine keeps running
    assertThat(zop.jobs().get(job.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @Test
  void spacesAreValidatedAndGuardedWhileJobsRemain() {
    CloudAccount account = zop.accounts().list().get(0);
    assertThatThrownBy(() -> zop.spaces().create(new SpaceRequest("bad name!", "nope", "kubernetes", null,
        Map.of("caCert", "-----BEGIN CERTIFICATE-----"))))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field)
            // a CA certificate alone is half of the credentials a space may be given: the rest is named
            .containsExactlyInAnyOrder("name", "provider", "config.serviceAccountToken", "config.endpoint",
                "cloudAccountId"));
    assertThatThrownBy(() -> zop.spaces().create(SpaceRequest.of("sim", "no-region", account.id())))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.region"));
    assertThatThrownBy(() -> zop.spaces().create(SpaceRequest.of("sim", space.name(), account.id())
        .region("sim-east-1")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("space_name_taken"));
    assertThat(SpaceRequest.of("sim", "x", account.id()).spaceType()).isEqualTo("kubernetes");

    Job job = run(zop.jobs().submit(space.id(), RegistrySpec.named("team/guarded")));
    assertThatThrownBy(() -> zop.spaces().delete(space.id()))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("space_has_jobs"));

    zop.spaces().setStatus(space.id(), SpaceStatus.INACTIVE);
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), RegistrySpec.named("team/late")))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("space_inactive"));
    assertThat(zop.jobs().plan(space.id(), RegistrySpec.named("team/late")).steps()).hasSize(1);

    run(zop.jobs().delete(job.id()));
    zop.spaces().delete(space.id());
    assertThatThrownBy(() -> zop.spaces().get(space.id())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void deletingARunningJobIsRefusedAndDeleteIsIdempotent() {
    cloud.stuckCreating("kubernetes-cluster");
    Job job = zop.jobs().submit(space.id(), cluster("busy"));
    assertThatThrownBy(() -> zop.jobs().delete(job.id()))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("job_in_progress"));
    assertThatThrownBy(() -> zop.jobs().retry(job.id()))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("illegal_transition"));
    cloud.unstick("kubernetes-cluster");
    run(job);
    Job deleting = zop.jobs().delete(job.id());
    Job again = zop.jobs().delete(job.id());
    assertThat(again.id()).isEqualTo(deleting.id());
    assertThat(run(again).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().delete(job.id()).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }

  /**
   * A step's start, and the intent it declared, are written on its job's row alone, yet a read while the step runs
   * shows it running in its attempt, from its start, with that intent; once it ends, its own row holds them.
   */
  @Test
  void aStepStartedOnItsJobsRowReadsAsRunningWithItsIntentAndItsEndRecordsThem() {
    Map<String, JobStep> whileRunning = new java.util.concurrent.ConcurrentHashMap<>();
    // runs on the step's own thread, right after the cloud accepted its change
    cloud.onAccepted(operation -> {
      String[] caller = cloud.callingStep().split("/", 2);
      zop.jobs().get(JobId.of(caller[0])).steps().stream().filter(s -> s.name().equals(caller[1])).findFirst()
          .ifPresent(s -> whileRunning.put(caller[1], s));
    });
    Job done = run(zop.jobs().submit(space.id(), network("net-read")));

    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    List<JobStep> created = done.steps().stream().filter(s -> s.phase() == JobPhase.CREATE).toList();
    assertThat(whileRunning).hasSize(created.size());
    for (JobStep step : created) {
      JobStep seen = whileRunning.get(step.name());
      assertThat(seen.status()).as(step.name()).isEqualTo(StepStatus.RUNNING);
      assertThat(seen.attempts()).as(step.name()).isEqualTo(1);
      assertThat(seen.outputs()).as(step.name()).isNotEmpty();
      assertThat(step.status()).isEqualTo(StepStatus.SUCCEEDED);
      assertThat(step.attempts()).as(step.name()).isEqualTo(1);
      assertThat(step.startedAt()).as(step.name()).isEqualTo(seen.startedAt());
      assertThat(step.finishedAt()).as(step.name()).isAfterOrEqualTo(step.startedAt());
      assertThat(step.outputs()).as(step.name()).containsAllEntriesOf(seen.outputs());
    }
  }

  /**
   * A worker thread does not wait for a step's success to commit (the job goes on as a new task once it has), yet
   * no step changes anything in the cloud before every step ahead of it is recorded as succeeded: what a crash
   * leaves behind is always a prefix of the job's work.
   */
  @Test
  void everyCloudChangeFollowsTheDurableSuccessOfTheStepsBeforeIt() {
    AtomicInteger checked = new AtomicInteger();
    List<String> early = new CopyOnWriteArrayList<>();
    // runs on the step's own thread, right after the cloud accepted a change
    cloud.onAccepted(operation -> {
      String[] caller = cloud.callingStep().split("/", 2);
      String job = caller[0];
      String step = caller[1];
      List<String[]> stored = storedSteps(job);
      if (stored.stream().noneMatch(row -> row[0].equals(step))) {
        early.add(job + ": " + step + " is not among its stored steps");
      }
      for (String[] row : stored) {
        if (row[0].equals(step)) {
          break;
        }
        if (!row[1].equals("succeeded")) {
          early.add(job + ": " + operation + " in " + step + " while " + row[0] + " is recorded " + row[1]);
        }
      }
      checked.incrementAndGet();
    });
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      jobs.add(zop.jobs().submit(space.id(), network("net-" + i)));
    }
    for (Job job : jobs) {
      assertThat(run(job).status()).isEqualTo(JobStatus.SUCCEEDED);
    }
    assertThat(early).isEmpty();
    assertThat(checked.get()).isEqualTo(12 * 4); // a network and three subnets a job
  }

  /**
   * A step's declared intent is recorded when it starts, before it looks at the cloud: a job refused a name
   * another job holds has the name recorded, and its teardown, which looks before it deletes, leaves the other
   * job's resource in place.
   */
  @Test
  void aJobRefusedANameAnotherJobHoldsDeletesNothingOfTheOthers() {
    Job first = run(zop.jobs().submit(space.id(), network("shared-net")));
    assertThat(first.status()).isEqualTo(JobStatus.SUCCEEDED);

    Job second = run(zop.jobs().submit(space.id(), network("shared-net")));
    assertThat(second.status()).isEqualTo(JobStatus.FAILED);
    assertThat(second.lastFailure().code()).isEqualTo("name_in_use");
    JobStep refused = second.steps().get(0);
    assertThat(refused.status()).isEqualTo(StepStatus.FAILED);
    assertThat(refused.outputs()).as("the intent it declared").containsValue("shared-net");

    assertThat(run(zop.jobs().delete(second.id())).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.find("vpc", "shared-net")).as("the first job's network").isNotNull();
    assertThat(zop.jobs().get(first.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  /**
   * A graceful close lets the steps under way finish, gives every unfinished job back at once (no lease left to
   * run out, though the runs go on as new tasks after each commit), and a later engine finishes them, creating
   * nothing twice.
   */
  @Test
  void closingMidRunGivesUnfinishedJobsBackAndALaterEngineFinishesThemOnce() {
    cloud.latency(Duration.ofMillis(20)); // a step takes two calls: the jobs cannot all finish before the close
    List<Job> jobs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      jobs.add(zop.jobs().submit(space.id(), network("net-" + i)));
    }
    await().atMost(WAIT).until(() -> jobs.stream()
        .anyMatch(j -> zop.jobs().get(j.id()).status() == JobStatus.SUCCEEDED));
    zop.close();

    zop = engine(cloud).runWorkers(false).build();
    long unfinished = jobs.stream().filter(j -> !zop.jobs().get(j.id()).status().isTerminal()).count();
    assertThat(unfinished).as("jobs left unfinished by the close").isPositive();
    assertThat(leasedUnfinishedJobs()).isZero();
    zop.close();

    cloud.latency(Duration.ZERO);
    zop = engine(cloud).build();
    for (Job job : jobs) {
      assertThat(run(job).status()).isEqualTo(JobStatus.SUCCEEDED);
    }
    for (int i = 0; i < 40; i++) {
      assertThat(cloud.createCount("vpc", "net-" + i)).isEqualTo(1);
      for (String subnet : List.of("a", "b", "c")) {
        assertThat(cloud.createCount("subnet", "net-" + i + "-" + subnet)).isEqualTo(1);
      }
    }
  }

  private long leasedUnfinishedJobs() {
    try (Connection c = zop.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM provisioning_jobs"
            + " WHERE lease_owner IS NOT NULL AND status IN ('pending', 'running')");
        ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The job's steps in order, name and status as stored, read past the engine. */
  private List<String[]> storedSteps(String jobId) {
    try (Connection c = zop.dataSource().getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT steps FROM provisioning_jobs WHERE id = ?")) {
      ps.setString(1, jobId);
      List<String[]> rows = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          for (com.fasterxml.jackson.databind.JsonNode step
              : new com.fasterxml.jackson.databind.ObjectMapper().readTree(rs.getString(1))) {
            rows.add(new String[] {step.get("name").asText(), step.get("status").asText().toLowerCase(Locale.ROOT)});
          }
        }
      }
      return rows;
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
