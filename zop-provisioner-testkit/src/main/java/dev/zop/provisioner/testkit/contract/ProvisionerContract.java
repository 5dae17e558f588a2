package dev.zop.provisioner.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ClusterAccessGrant;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.discovery.SpaceDiscovery;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.sim.SimCloud;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Provisioner} must do, whatever is behind it. The testkit runs it against the embedded engine
 * and against the HTTP client talking to a server; a host can run it against its own wiring by extending it.
 * Everything runs on the {@code sim} provider (a test double) over the {@link SimCloud} the subclass hands in.
 */
public abstract class ProvisionerContract {
  protected static final Duration WAIT = Duration.ofSeconds(30);

  /** The provisioner under test, acting as a principal that may do everything (an admin). */
  protected abstract Provisioner provisioner();

  /** The simulated cloud behind it, for arranging faults. */
  protected abstract SimCloud cloud();

  /**
   * The provisioner under test acting, in the same organisation, as a principal that holds only {@code grants}:
   * system roles ({@code viewer}, {@code operator}) or policies ({@code provisioning:view}); none at all when
   * empty. The embedded engine takes them as the principal's roles; a service issues a token holding them.
   */
  protected abstract Provisioner provisionerHolding(String... grants);

  private Space newSpace(String name) {
    String unique = name + "-" + UUID.randomUUID().toString().substring(0, 6);
    CloudAccount account = provisioner().accounts().create(CloudAccountRequest.of("sim", "acct-" + unique));
    return provisioner().spaces().create(SpaceRequest.of("sim", unique, account.id()).region("sim-east-1"));
  }

  private static KubernetesSpec cluster(String name) {
    return KubernetesSpec.named(name).version("1.30").nodeGroup("default", "m5.large", 2, 6).build();
  }

  private static String unique(String prefix) {
    return prefix + "-" + UUID.randomUUID().toString().substring(0, 6);
  }

  @Test
  void aViewerReadsEverythingAndChangesNothing() {
    Space space = newSpace("rbac-viewer");
    Job job = provisioner().jobs().await(provisioner().jobs().submit(space.id(),
        RegistrySpec.named(unique("rbac/viewer"))).id(), WAIT);
    Provisioner viewer = provisionerHolding(Policies.VIEWER);
    assertThat(viewer.jobs().get(job.id()).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(viewer.jobs().list(JobQuery.inSpace(space.id())).items()).extracting(Job::id).contains(job.id());
    assertThat(viewer.spaces().get(space.id())).isEqualTo(space);
    assertThat(viewer.jobs().plan(space.id(), RegistrySpec.named(unique("rbac/plan"))).steps()).isNotEmpty();

    List<ThrowingCallable> changes = List.of(
        () -> viewer.jobs().submit(space.id(), RegistrySpec.named(unique("rbac/refused"))),
        () -> viewer.jobs().update(job.id(), JobPatch.name("renamed")),
        () -> viewer.jobs().delete(job.id()),
        () -> viewer.jobs().retry(job.id()),
        () -> viewer.spaces().create(SpaceRequest.of("sim", unique("rbac"), space.cloudAccountId())
            .region("sim-east-1")),
        () -> viewer.spaces().setStatus(space.id(), SpaceStatus.INACTIVE),
        () -> viewer.spaces().delete(space.id()),
        () -> viewer.accounts().create(CloudAccountRequest.of("sim", unique("rbac"))));
    for (ThrowingCallable change : changes) {
      assertThatThrownBy(change).isInstanceOfSatisfying(ForbiddenException.class,
          e -> assertThat(e.getMessage()).contains("policy"));
    }
    Job after = provisioner().jobs().get(job.id());
    assertThat(after.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(after.name()).isEqualTo(job.name());
    assertThat(provisioner().spaces().get(space.id()).status()).isEqualTo(SpaceStatus.ACTIVE);
    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id())).items()).hasSize(1);
  }

  @Test
  void grantsDecideEachCallAndNoGrantsRefuseAll() {
    Space space = newSpace("rbac-grants");
    Provisioner operator = provisionerHolding(Policies.OPERATOR);
    Job job = operator.jobs().await(operator.jobs().submit(space.id(), RegistrySpec.named(unique("rbac/op"))).id(),
        WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    // operators run and tear down what they provision, but do not delete spaces
    assertThatThrownBy(() -> operator.spaces().delete(space.id())).isInstanceOf(ForbiddenException.class);

    Provisioner reader = provisionerHolding("provisioning:view");
    assertThat(reader.jobs().get(job.id()).id()).isEqualTo(job.id());
    assertThatThrownBy(() -> reader.spaces().list()).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> reader.jobs().delete(job.id())).isInstanceOf(ForbiddenException.class);

    Provisioner nobody = provisionerHolding();
    assertThatThrownBy(() -> nobody.jobs().get(job.id())).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> nobody.spaces().list()).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> nobody.accounts().list()).isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> nobody.remediations().templates()).isInstanceOf(ForbiddenException.class);

    assertThat(operator.jobs().await(operator.jobs().delete(job.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
  }

  @Test
  void accountsAndSpacesRoundTrip() {
    CloudAccount account = provisioner().accounts().create(
        CloudAccountRequest.of("sim", unique("acct")).credentialsRef("env:SIM_KEY").property("team", "platform"));
    assertThat(provisioner().accounts().get(account.id())).isEqualTo(account);
    assertThat(provisioner().accounts().list()).contains(account);

    String name = unique("checkout-prod");
    Space space = provisioner().spaces().create(SpaceRequest.of("sim", name, account.id())
        .region("sim-east-1").clusterName("checkout-prod"));
    assertThat(space.name()).isEqualTo(name);
    assertThat(space.spaceType()).isEqualTo("kubernetes");
    assertThat(space.status()).isEqualTo(SpaceStatus.ACTIVE);
    assertThat(space.config()).containsEntry("region", "sim-east-1").containsEntry("clusterName", "checkout-prod");
    assertThat(provisioner().spaces().get(space.id())).isEqualTo(space);
    assertThat(provisioner().spaces().list()).contains(space);

    Space inactive = provisioner().spaces().setStatus(space.id(), SpaceStatus.INACTIVE);
    assertThat(inactive.status()).isEqualTo(SpaceStatus.INACTIVE);
    assertThatThrownBy(() -> provisioner().jobs().submit(space.id(), cluster("refused")))
        .isInstanceOf(ConflictException.class);

    provisioner().spaces().delete(space.id());
    assertThatThrownBy(() -> provisioner().spaces().get(space.id())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void invalidRequestsNameEveryBadField() {
    Space space = newSpace("invalid");
    assertThatThrownBy(() -> provisioner().spaces().create(SpaceRequest.of("sim", "", space.cloudAccountId())))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.fieldErrors()).extracting(f -> f.field()).contains("name"));
    VmPoolSpec bad = new VmPoolSpec("", "", 5, 2, false, null, List.of(), null, List.of(), null, null);
    assertThatThrownBy(() -> provisioner().jobs().submit(space.id(), bad))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors()).hasSizeGreaterThan(1));
    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id())).items()).isEmpty();
    assertThatThrownBy(() -> provisioner().jobs().get(JobId.of("job_doesnotexist")))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> provisioner().jobs().submit(SpaceId.of("spc_doesnotexist"), cluster("nowhere")))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.fieldErrors()).extracting(f -> f.field()).containsExactly("spaceID"));
  }

  @Test
  void planShowsStepsPermissionsAndCostWithoutTouchingTheCloud() {
    Space space = newSpace("plan");
    int before = cloud().resources().size();
    Plan plan = provisioner().jobs().plan(space.id(), DatastoreSpec.postgres().name("orders").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7).build());
    assertThat(plan.kind()).isEqualTo(JobKind.DATASTORE);
    assertThat(plan.steps()).isNotEmpty();
    assertThat(plan.permissions()).isNotEmpty();
    assertThat(plan.costs()).isNotEmpty();
    assertThat(cloud().resources()).hasSize(before);
  }

  @Test
  void aPlanPricesTheStartingSizeAndTheLargest() {
    Space space = newSpace("plan-max");
    // two m5.large nodes to start, six at most, and the control plane
    Plan plan = provisioner().jobs().plan(space.id(), cluster(unique("max")));
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("213.16");
    assertThat(plan.monthlyTotalAtMax()).isEqualByComparingTo("493.48");
    Plan registry = provisioner().jobs().plan(space.id(), RegistrySpec.named(unique("reg")));
    assertThat(registry.monthlyTotalAtMax()).isEqualByComparingTo(registry.monthlyTotal());
  }

  @Test
  void aSpaceOffersItsProvidersSizesAndVersionsAndCostsWhatItsJobsRun() {
    Space space = newSpace("offers");
    dev.zop.provisioner.discovery.Offerings offerings = provisioner().spaces().offerings(space.id());
    assertThat(offerings.provider()).isEqualTo("sim");
    assertThat(offerings.region()).isEqualTo("sim-east-1");
    assertThat(offerings.machineSizes()).anySatisfy(size -> {
      assertThat(size.name()).isEqualTo("m5.large");
      assertThat(size.vcpus()).isEqualTo(2);
      assertThat(size.memoryGib()).isEqualTo(8.0);
      assertThat(size.hourlyPrice()).isEqualByComparingTo("0.096");
    });
    assertThat(offerings.databaseClasses()).extracting(dev.zop.provisioner.discovery.OfferedSize::name)
        .contains("db.t3.medium");
    assertThat(offerings.cacheNodeTypes()).extracting(dev.zop.provisioner.discovery.OfferedSize::name)
        .contains("cache.t3.micro");
    assertThat(offerings.kubernetesVersions()).containsExactly("1.28", "1.29", "1.30", "1.31");
    assertThat(offerings.engineVersions().get("postgres")).contains("16.3");
    // every size it offers is one a plan accepts and prices
    Plan plan = provisioner().jobs().plan(space.id(), KubernetesSpec.named(unique("offered")).version("1.31")
        .nodeGroup("default", offerings.machineSizes().get(0).name(), 1, 2).build());
    assertThat(plan.complete()).isEqualTo(offerings.machineSizes().get(0).hourlyPrice() != null);

    assertThat(provisioner().spaces().cost(space.id()).jobs()).isEmpty();
    Job pool = provisioner().jobs().await(provisioner().jobs().submit(space.id(),
        VmPoolSpec.named(unique("pool")).instanceType("m5.large").size(1, 3).build()).id(), WAIT);
    assertThat(pool.status()).isEqualTo(JobStatus.SUCCEEDED);
    dev.zop.provisioner.SpaceCost cost = provisioner().spaces().cost(space.id());
    assertThat(cost.jobs()).singleElement().satisfies(line -> {
      assertThat(line.jobId()).isEqualTo(pool.id());
      assertThat(line.monthly()).isEqualByComparingTo("70.08");
    });
    assertThat(cost.monthlyTotal()).isEqualByComparingTo("70.08");
    assertThat(cost.complete()).isTrue();
    // every space's in one answer: this one's the same, and no space without a succeeded job
    assertThat(provisioner().spaces().costs()).filteredOn(c -> c.spaceId().equals(space.id())).singleElement()
        .satisfies(same -> assertThat(same.monthlyTotal()).isEqualByComparingTo("70.08"));
    assertThat(provisioner().spaces().costs()).allSatisfy(c -> assertThat(c.jobs()).isNotEmpty());
  }

  @Test
  void theLoadedProvidersAndTheRecordedRecommendationsAreListed() {
    assertThat(provisioner().accounts().providers()).anySatisfy(provider -> {
      assertThat(provider.id()).isEqualTo("sim");
      assertThat(provider.kinds()).contains("kubernetes", "datastore");
      assertThat(provider.requiredSpaceConfig()).contains("region");
    });
    Space space = newSpace("recs");
    String id = unique("rec");
    provisioner().remediations().putRecommendation(new Recommendation(id, "sim", space.cloudAccountId(),
        "sim-east-1", "vm", "i-" + id, "stop"));
    assertThat(provisioner().remediations().recommendations()).anySatisfy(r -> {
      assertThat(r.id()).isEqualTo(id);
      assertThat(r.resourceId()).isEqualTo("i-" + id);
    });
  }

  @Test
  void aJobRunsToTheEndIsListedPatchedAndTornDown() {
    Space space = newSpace("lifecycle");
    String name = unique("platform");
    Job submitted = provisioner().jobs().submit(space.id(), cluster(name),
        SubmitOptions.none().withName("platform cluster").withTags(Map.of("team", "platform")));
    assertThat(submitted.kind()).isEqualTo(JobKind.KUBERNETES);
    assertThat(submitted.spec()).isEqualTo(cluster(name));

    Job done = provisioner().jobs().await(submitted.id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.steps()).extracting(JobStep::name, JobStep::status).containsExactly(
        tuple("create-role", StepStatus.SUCCEEDED),
        tuple("create-cluster", StepStatus.SUCCEEDED),
        tuple("await-cluster", StepStatus.SUCCEEDED),
        tuple("create-nodegroup-default", StepStatus.SUCCEEDED),
        tuple("await-nodegroup-default", StepStatus.SUCCEEDED));
    assertThat(done.outputs()).containsEntry("clusterName", name);
    assertThat(provisioner().jobs().get(done.id())).isEqualTo(done);

    Job patched = provisioner().jobs().update(done.id(), JobPatch.name("renamed").withTags(Map.of("env", "prod")));
    assertThat(patched.name()).isEqualTo("renamed");
    assertThat(patched.tags()).isEqualTo(Map.of("env", "prod"));
    assertThat(patched.steps()).isEqualTo(done.steps()); // nothing re-ran

    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id()).withStatus(JobStatus.SUCCEEDED)).items())
        .extracting(Job::id).containsExactly(done.id());
    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id()).withStatus(JobStatus.FAILED)).items())
        .isEmpty();

    Job deleted = provisioner().jobs().await(provisioner().jobs().delete(done.id()).id(), WAIT);
    assertThat(deleted.status()).isEqualTo(JobStatus.DELETED);
    assertThat(deleted.steps().stream().filter(s -> s.phase() == JobPhase.TEARDOWN).map(JobStep::name))
        .containsExactly("delete-nodegroup-default", "delete-cluster", "delete-role");
    assertThat(cloud().resourcesOf(done.id().value())).isEmpty();
  }

  @Test
  void listsPaginateWithACursorNewestFirstUnlessAskedOtherwise() {
    Space space = newSpace("pages");
    List<JobId> submitted = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      submitted.add(provisioner().jobs().submit(space.id(), cluster(unique("page" + i))).id());
    }
    List<JobId> newestFirst = new ArrayList<>(submitted);
    java.util.Collections.reverse(newestFirst);
    assertThat(pages(JobQuery.inSpace(space.id()).limit(2))).containsExactlyElementsOf(newestFirst);
    assertThat(pages(JobQuery.inSpace(space.id()).limit(2).order(ListOrder.OLDEST_FIRST)))
        .containsExactlyElementsOf(submitted);
    // the first page of a busy space shows the job just submitted
    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id()).limit(1)).items())
        .extracting(Job::id).containsExactly(submitted.get(4));
    String newestCursor = provisioner().jobs().list(JobQuery.inSpace(space.id()).limit(2)).nextCursor();
    assertThatThrownBy(() -> provisioner().jobs().list(JobQuery.inSpace(space.id()).limit(2)
        .order(ListOrder.OLDEST_FIRST).after(newestCursor)))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.fieldErrors()).extracting(FieldError::field).containsExactly("cursor"));
    for (JobId id : submitted) {
      provisioner().jobs().await(id, WAIT);
    }
  }

  private List<JobId> pages(JobQuery query) {
    List<JobId> seen = new ArrayList<>();
    Page<Job> page = provisioner().jobs().list(query);
    seen.addAll(page.items().stream().map(Job::id).toList());
    while (page.hasMore()) {
      assertThat(page.items()).hasSize(query.limit());
      page = provisioner().jobs().list(query.after(page.nextCursor()));
      seen.addAll(page.items().stream().map(Job::id).toList());
    }
    return seen;
  }

  @Test
  void theSameIdempotencyKeyGivesTheSameJob() {
    Space space = newSpace("idempotent");
    String key = UUID.randomUUID().toString();
    KubernetesSpec spec = cluster(unique("once"));
    Job first = provisioner().jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey(key));
    Job second = provisioner().jobs().submit(space.id(), spec, SubmitOptions.idempotencyKey(key));
    assertThat(second.id()).isEqualTo(first.id());
    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id())).items()).hasSize(1);
    provisioner().jobs().await(first.id(), WAIT);
  }

  @Test
  void aTransientFailureIsRetryableAndRetryResumesAtTheFailedStep() {
    Space space = newSpace("retry");
    cloud().throttleNext("kubernetes:CreateNodegroup", 4);
    Job failed = provisioner().jobs().await(provisioner().jobs().submit(space.id(), cluster(unique("flaky"))).id(),
        WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(failed.lastFailure().retryable()).isTrue();

    Job retried = provisioner().jobs().await(provisioner().jobs().retry(failed.id()).id(), WAIT);
    assertThat(retried.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud().stepRuns(failed.id().value(), "create-cluster")).isEqualTo(1);
    assertThatThrownBy(() -> provisioner().jobs().retry(retried.id())).isInstanceOf(ConflictException.class);
  }

  @Test
  void aUserActionFailureCarriesItsFix() {
    Space space = newSpace("denied");
    cloud().deny("kubernetes:CreateNodegroup");
    try {
      Job failed = provisioner().jobs().await(
          provisioner().jobs().submit(space.id(), cluster(unique("denied"))).id(), WAIT);
      assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
      assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
      assertThat(failed.lastFailure().code()).isEqualTo("access_denied");
      assertThat(failed.lastFailure().fixHint()).contains("kubernetes:CreateNodegroup");
      assertThat(failed.lastFailure().consoleUrl()).startsWith("https://");
    } finally {
      cloud().allow("kubernetes:CreateNodegroup");
    }
  }

  @Test
  void awaitGivesUpAtItsTimeoutAndWatchStreamsEveryEventInOrder() throws Exception {
    Space space = newSpace("watch");
    cloud().stuckCreating("kubernetes-cluster");
    Job job;
    List<JobEvent> received = new CopyOnWriteArrayList<>();
    try {
      job = provisioner().jobs().submit(space.id(), cluster(unique("slow")));
      Subscription subscription = provisioner().jobs().watch(job.id(), received::add);
      try {
        JobId id = job.id();
        assertThatThrownBy(() -> provisioner().jobs().await(id, Duration.ofMillis(300)))
            .isInstanceOfSatisfying(AwaitTimeoutException.class,
                e -> assertThat(e.lastSeen().status().isTerminal()).isFalse());
        cloud().unstick("kubernetes-cluster");
        assertThat(provisioner().jobs().await(job.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
        List<JobEvent> recorded = provisioner().jobs().events(job.id(), 0);
        await().atMost(WAIT).until(() -> received.size() >= recorded.size());
        assertThat(received).isEqualTo(recorded);
        assertThat(received).extracting(JobEvent::seq).isSorted().doesNotHaveDuplicates();
        assertThat(received.get(received.size() - 1).status()).isEqualTo(JobStatus.SUCCEEDED);
        assertThat(received).extracting(JobEvent::type).contains(JobEventType.STEP_WAITING);
      } finally {
        subscription.close();
      }
    } finally {
      cloud().unstick("kubernetes-cluster");
    }
  }

  @Test
  void aSpaceWithJobsCannotBeDeleted() {
    Space space = newSpace("busy");
    Job job = provisioner().jobs().await(provisioner().jobs().submit(space.id(), cluster(unique("busy"))).id(), WAIT);
    assertThatThrownBy(() -> provisioner().spaces().delete(space.id())).isInstanceOf(ConflictException.class);
    provisioner().jobs().await(provisioner().jobs().delete(job.id()).id(), WAIT);
    provisioner().spaces().delete(space.id());
  }

  /** Polls (gently: a remote provisioner counts requests) until the workflow waits for a decision. */
  private RemediationJob awaitParked(JobId id) {
    return await().atMost(WAIT).pollInterval(Duration.ofMillis(10))
        .until(() -> provisioner().remediations().get(id), job -> job.status() == JobStatus.AWAITING_USER);
  }

  @Test
  void aRemediationIsApprovedByStableStepIdAndAudited() {
    CloudAccount account = provisioner().accounts().create(CloudAccountRequest.of("sim", unique("remediation")));
    String vm = "i-" + UUID.randomUUID().toString().replace("-", "").substring(0, 17);
    cloud().workload(vm, "running");
    String recommendation = unique("rec");
    provisioner().remediations().putRecommendation(
        new Recommendation(recommendation, "sim", account.id(), "sim-east-1", "vm", vm, "stop"));
    RemediationJob started = provisioner().remediations().start(recommendation, SubjectType.RESOURCE, vm);
    assertThat(started.templateId()).isEqualTo("stop-idle-vm");

    RemediationJob parked = awaitParked(started.id());
    UUID approval = parked.pendingApproval().id();
    provisioner().remediations().approve(started.id(), StepRef.id(approval), "Confirmed off-hours window");
    assertThatThrownBy(() -> provisioner().remediations().approve(started.id(), StepRef.id(approval), "twice"))
        .isInstanceOf(ConflictException.class);
    RemediationJob done = provisioner().remediations().await(started.id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud().workloadState(vm)).isEqualTo("stopped");
    assertThat(provisioner().remediations().audit(started.id())).extracting(AuditEntry::stepName,
        AuditEntry::eventType, AuditEntry::reason).contains(
            tuple("approval", "approved", "Confirmed off-hours window"),
            tuple("execute", "completed", null));
    assertThat(provisioner().remediations().list(100, null).items()).extracting(RemediationJob::id)
        .contains(started.id());
    assertThat(provisioner().remediations().templates()).isNotEmpty();
  }

  @Test
  void aRemediationRejectedByNameEndsCancelled() {
    CloudAccount account = provisioner().accounts().create(CloudAccountRequest.of("sim", unique("reject")));
    String vm = "i-" + UUID.randomUUID().toString().replace("-", "").substring(0, 17);
    cloud().workload(vm, "running");
    String recommendation = unique("rec");
    provisioner().remediations().putRecommendation(
        new Recommendation(recommendation, "sim", account.id(), "sim-east-1", "vm", vm, "stop"));
    RemediationJob started = provisioner().remediations().start(recommendation, SubjectType.RESOURCE, vm);
    awaitParked(started.id());
    RemediationJob rejected = provisioner().remediations().reject(started.id(), StepRef.name("approval"), "not now");
    assertThat(provisioner().remediations().await(rejected.id(), WAIT).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(cloud().workloadState(vm)).isEqualTo("running");
    assertThatThrownBy(() -> provisioner().remediations().get(JobId.of("job_nosuchremediation")))
        .isInstanceOf(NotFoundException.class);
  }

  /**
   * An import whose config the resource cannot be revised to is refused by field, and the refusal carries the config
   * the resource has, so the caller can ask again with it; asked again so, it is planned.
   */
  @Test
  void aRefusedImportSaysWhatTheResourceHas() {
    Space space = newSpace("import-refused");
    String vpc = unique("vpc");
    cloud().existingNetwork(vpc, "10.41.0.0/16", Map.of(vpc + "-a", "10.41.1.0/24"));
    dev.zop.provisioner.spec.NetworkSpec narrower = dev.zop.provisioner.spec.NetworkSpec.named(vpc).cidr("10.41.0.0/17")
        .subnet(vpc + "-a", "10.41.1.0/24").build();
    dev.zop.provisioner.spec.ResourceSpec[] observed = new dev.zop.provisioner.spec.ResourceSpec[1];
    assertThatThrownBy(() -> provisioner().jobs().planImport(space.id(),
        dev.zop.provisioner.ImportRequest.of(narrower, vpc)))
        .isInstanceOfSatisfying(ValidationException.class, e -> {
          assertThat(e.fieldErrors()).extracting(f -> f.field() + " " + f.code())
              .contains("config.cidr not_revisable");
          assertThat(e.observedConfig()).isInstanceOfSatisfying(dev.zop.provisioner.spec.NetworkSpec.class,
              n -> assertThat(n.cidr()).isEqualTo("10.41.0.0/16"));
          observed[0] = e.observedConfig();
        });
    assertThat(provisioner().jobs().planImport(space.id(), dev.zop.provisioner.ImportRequest.of(observed[0], vpc))
        .changes()).isEmpty();
  }

  @Test
  void discoveryFindsWhatTheAccountHoldsAndSubmitRefusesNetworksItDoesNotHold() {
    Space space = newSpace("discovery");
    String vpc = unique("vpc");
    cloud().existingNetwork(vpc, "10.9.0.0/16", Map.of(vpc + "-a", "10.9.1.0/24", vpc + "-b", "10.9.2.0/24"));
    SpaceDiscovery discovery = provisioner().spaces().discovery(space.id());
    assertThat(discovery.networks()).extracting(DiscoveredNetwork::id).contains(vpc);
    assertThat(discovery.subnets(vpc)).extracting(DiscoveredSubnet::id, DiscoveredSubnet::networkId)
        .containsExactlyInAnyOrder(tuple(vpc + "-a", vpc), tuple(vpc + "-b", vpc));
    assertThat(discovery.subnets(null)).extracting(DiscoveredSubnet::id).contains(vpc + "-a", vpc + "-b");
    assertThat(discovery.dnsZones()).isNotNull();

    String name = unique("in-vpc");
    Job job = provisioner().jobs().await(provisioner().jobs().submit(space.id(), KubernetesSpec.named(name)
        .version("1.30").nodeGroup("default", "m5.large", 1, 2).vpcId(vpc).subnetIds(vpc + "-a", vpc + "-b")
        .build()).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(discovery.clusters()).extracting(DiscoveredCluster::name).contains(name);

    KubernetesSpec wrong = KubernetesSpec.named(unique("nowhere")).version("1.30")
        .nodeGroup("default", "m5.large", 1, 2).vpcId("vpc-doesnotexist").subnetIds(vpc + "-a", "subnet-nope")
        .build();
    assertThatThrownBy(() -> provisioner().jobs().submit(space.id(), wrong))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field(), f -> f.code()).containsExactlyInAnyOrder(
                tuple("config.vpcID", "not_found"),
                tuple("config.subnetIDs[0]", "wrong_network"),
                tuple("config.subnetIDs[1]", "not_found")));
    assertThatThrownBy(() -> provisioner().jobs().plan(space.id(), wrong)).isInstanceOf(ValidationException.class);
    assertThat(provisioner().jobs().list(JobQuery.inSpace(space.id())).items()).extracting(Job::id)
        .containsExactly(job.id());
    provisioner().jobs().await(provisioner().jobs().delete(job.id()).id(), WAIT);
  }

  @Test
  void aClusterIsNotTornDownFromUnderTheJobsInItsSpace() {
    Space space = newSpace("cluster-space");
    Job cluster = provisioner().jobs().await(provisioner().jobs().submit(space.id(), cluster(unique("host"))).id(),
        WAIT);
    SpaceId clusterSpace = SpaceId.of(cluster.outputs().get("spaceId"));
    Job tenant = provisioner().jobs().await(provisioner().jobs().submit(clusterSpace,
        RegistrySpec.named(unique("tenant/images"))).id(), WAIT);
    assertThat(tenant.status()).isEqualTo(JobStatus.SUCCEEDED);

    assertThatThrownBy(() -> provisioner().jobs().delete(cluster.id()))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("space_has_jobs"));
    assertThat(provisioner().jobs().get(cluster.id()).status()).isEqualTo(JobStatus.SUCCEEDED);

    provisioner().jobs().await(provisioner().jobs().delete(tenant.id()).id(), WAIT);
    assertThat(provisioner().jobs().await(provisioner().jobs().delete(cluster.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    assertThatThrownBy(() -> provisioner().spaces().get(clusterSpace)).isInstanceOf(NotFoundException.class);
  }

  @Test
  void kubeconfigsNeedTheClusterRegisteredOnTheAccount() {
    Space space = newSpace("access");
    String name = unique("access");
    Job job = provisioner().jobs().await(provisioner().jobs().submit(space.id(), cluster(name)).id(), WAIT);
    Space clusterSpace = provisioner().spaces().get(SpaceId.of(job.outputs().get("spaceId")));
    assertThat(provisioner().spaces().kubeconfig(clusterSpace.id()).server()).contains(name);
    assertThat(provisioner().accounts().clusters(space.cloudAccountId(), "sim-east-1"))
        .extracting(DiscoveredCluster::name).contains(name);
    // without a region, the account's own region; an account without one must be told which
    CloudAccount regional = provisioner().accounts().create(CloudAccountRequest.of("sim", unique("regional"))
        .property("region", "sim-east-1"));
    assertThat(provisioner().accounts().clusters(regional.id(), null))
        .isEqualTo(provisioner().accounts().clusters(regional.id(), "sim-east-1"));
    assertThatThrownBy(() -> provisioner().accounts().clusters(space.cloudAccountId(), null))
        .isInstanceOfSatisfying(ValidationException.class,
            e -> assertThat(e.fieldErrors()).extracting(f -> f.field()).containsExactly("region"));

    provisioner().accounts().revokeClusterAccess(space.cloudAccountId(), "sim-east-1", name);
    assertThatThrownBy(() -> provisioner().spaces().kubeconfig(clusterSpace.id()))
        .isInstanceOfSatisfying(ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("cluster_access_revoked"));
    assertThatThrownBy(() -> provisioner().accounts().revokeClusterAccess(space.cloudAccountId(), "sim-east-1",
        name)).isInstanceOf(NotFoundException.class);

    ClusterAccessGrant grant = provisioner().accounts().registerClusterAccess(space.cloudAccountId(), "sim-east-1",
        name);
    assertThat(grant.clusterName()).isEqualTo(name);
    assertThat(grant.registeredAt()).isNotNull();
    assertThat(provisioner().accounts().registerClusterAccess(space.cloudAccountId(), "sim-east-1", name))
        .isEqualTo(grant);
    assertThat(provisioner().spaces().kubeconfig(clusterSpace.id()).token()).isNotBlank();
    assertThatThrownBy(() -> provisioner().accounts().registerClusterAccess(space.cloudAccountId(), "sim-east-1",
        "no-such-cluster")).isInstanceOf(NotFoundException.class);
    provisioner().jobs().await(provisioner().jobs().delete(job.id()).id(), WAIT);
  }
}
