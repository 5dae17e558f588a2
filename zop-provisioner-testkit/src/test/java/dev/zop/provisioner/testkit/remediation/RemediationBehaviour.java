package dev.zop.provisioner.testkit.remediation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.RemediationStep;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.remediation.TemplateStep;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.sim.SimCloud;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every built-in remediation template end to end on the sim cloud; runs once per store. */
abstract class RemediationBehaviour {
  static final Duration WAIT = Duration.ofSeconds(30);
  static final String VM = "i-0123456789abcdef0";

  SimCloud cloud;
  EmbeddedProvisioner zop;
  CloudAccount account;
  final List<Notification> notifications = new CopyOnWriteArrayList<>();

  /** An engine on this test's store with the sim provider on {@code simCloud}. */
  abstract EmbeddedProvisionerBuilder engine(SimCloud simCloud);

  /** Called once per engine the test builds, so a subclass can reuse its store across a restart. */
  EmbeddedProvisioner build(UnaryOperator<EmbeddedProvisionerBuilder> customise) {
    return customise.apply(engine(cloud).notifier(notifications::add)).build();
  }

  @BeforeEach
  void start() {
    cloud = SimCloud.create();
    zop = build(b -> b.notifyTerminal(false));
    account = zop.accounts().create(CloudAccountRequest.of("sim", "remediation"));
  }

  @AfterEach
  void stop() {
    if (zop != null) {
      zop.close();
    }
  }

  RemediationJob startFor(String resourceType, String resourceId, String action) {
    String recommendation = "rec_" + UUID.randomUUID().toString().substring(0, 8);
    zop.remediations().putRecommendation(new Recommendation(recommendation, "sim", account.id(), "sim-east-1",
        resourceType, resourceId, action));
    return zop.remediations().start(recommendation, SubjectType.RESOURCE, resourceId);
  }

  RemediationJob awaitStatus(JobId id, JobStatus status) throws InterruptedException {
    return await().atMost(WAIT).until(() -> zop.remediations().get(id), job -> job.status() == status);
  }

  /** Notifications go out after the status they announce commits, so they may trail it by a moment. */
  List<Notification> awaitNotifications(long count) throws InterruptedException {
    await().atMost(WAIT).until(() -> notifications.size() >= count);
    return notifications;
  }

  static List<String> timeline(List<AuditEntry> audit) {
    return audit.stream().map(e -> (e.stepName() == null ? "job" : e.stepName()) + ":" + e.eventType() + ":"
        + e.actor() + (e.reason() == null ? "" : ":" + e.reason())).toList();
  }

  @Test
  void stopIdleVmApprovedByStableStepId() throws Exception {
    cloud.workload(VM, "running");
    RemediationJob started = startFor("vm", VM, "stop");
    assertThat(started.templateId()).isEqualTo("stop-idle-vm");
    assertThat(started.steps()).extracting(RemediationStep::name)
        .containsExactly("precondition", "approval", "execute", "validate");

    RemediationJob parked = awaitStatus(started.id(), JobStatus.AWAITING_USER);
    RemediationStep approval = parked.pendingApproval();
    assertThat(approval.id()).isEqualTo(UUID.nameUUIDFromBytes("zop:stop-idle-vm:approval".getBytes()));
    assertThat(cloud.workloadState(VM)).isEqualTo("running");
    assertThat(awaitNotifications(1)).singleElement().satisfies(n -> {
      assertThat(n.template()).isEqualTo("remediation.approval_required");
      assertThat(n.recipients()).isEqualTo("org-admins");
      assertThat(n.jobId()).isEqualTo(started.id());
      assertThat(n.data()).containsEntry("stepId", approval.id().toString());
    });

    zop.remediations().approve(started.id(), StepRef.id(approval.id()), "Confirmed off-hours window");
    RemediationJob done = zop.remediations().await(started.id(), WAIT);

    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.workloadState(VM)).isEqualTo("stopped");
    assertThat(timeline(zop.remediations().audit(started.id()))).containsExactly(
        "job:created:local:template stop-idle-vm v1",
        "precondition:completed:system",
        "approval:approved:local:Confirmed off-hours window",
        "execute:completed:system",
        "validate:completed:system");
    assertThat(zop.remediations().audit(started.id())).extracting(AuditEntry::createdAt).isSorted();
    assertThat(notifications).hasSize(1); // terminal notifications are off
    // remediation jobs are not provisioning jobs
    assertThat(zop.jobs().list(JobQuery.all()).items()).isEmpty();
    assertThatThrownBy(() -> zop.jobs().get(started.id())).isInstanceOf(NotFoundException.class);
  }

  @Test
  void stopIdleDatabaseApprovedByStepNameTheLegacyForm() throws Exception {
    cloud.workload("db-prod-7", "running");
    RemediationJob started = startFor("db-instance", "db-prod-7", "stop");
    assertThat(started.templateId()).isEqualTo("stop-idle-database");
    awaitStatus(started.id(), JobStatus.AWAITING_USER);
    zop.remediations().approve(started.id(), StepRef.name("approval"), null);
    assertThat(zop.remediations().await(started.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.workloadState("db-prod-7")).isEqualTo("stopped");
    assertThat(cloud.calls()).extracting(SimCloud.Call::operation)
        .contains("database:DescribeDBInstances", "database:StopDBInstance");
  }

  @Test
  void rejectEndsTheJobCancelledAndChangesNothing() throws Exception {
    cloud.workload(VM, "running");
    RemediationJob started = startFor("vm", VM, "stop");
    awaitStatus(started.id(), JobStatus.AWAITING_USER);
    zop.remediations().reject(started.id(), StepRef.name("approval"), "Batch job runs tonight");
    RemediationJob done = zop.remediations().await(started.id(), WAIT);

    assertThat(done.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(done.lastFailure()).isNull();
    assertThat(cloud.workloadState(VM)).isEqualTo("running");
    assertThat(done.steps()).extracting(RemediationStep::name, RemediationStep::status).containsExactly(
        tuple("precondition", StepStatus.SUCCEEDED), tuple("approval", StepStatus.FAILED),
        tuple("execute", StepStatus.PENDING), tuple("validate", StepStatus.PENDING));
    assertThat(timeline(zop.remediations().audit(started.id()))).containsExactly(
        "job:created:local:template stop-idle-vm v1",
        "precondition:completed:system",
        "approval:rejected:local:Batch job runs tonight");
  }

  @Test
  void cancelWhileParkedAndWhileRunning() throws Exception {
    cloud.workload(VM, "running");
    RemediationJob parked = startFor("vm", VM, "stop");
    awaitStatus(parked.id(), JobStatus.AWAITING_USER);
    zop.remediations().cancel(parked.id(), "Owner asked to keep it");
    assertThat(zop.remediations().await(parked.id(), WAIT).status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(timeline(zop.remediations().audit(parked.id()))).last()
        .isEqualTo("job:cancelled:local:Owner asked to keep it");
    assertThatThrownBy(() -> zop.remediations().cancel(parked.id(), null))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("illegal_transition"));

    cloud.workload("i-busy", "running").latency(Duration.ofMillis(300));
    RemediationJob running = startFor("vm", "i-busy", "stop");
    awaitStatus(running.id(), JobStatus.RUNNING);
    zop.remediations().cancel(running.id(), "Changed our mind");
    RemediationJob done = zop.remediations().await(running.id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(cloud.workloadState("i-busy")).isEqualTo("running");
    assertThat(timeline(zop.remediations().audit(running.id()))).last()
        .isEqualTo("job:cancelled:local:Changed our mind");
  }

  @Test
  void aFailingPreconditionChangesNothing() throws Exception {
    cloud.workload(VM, "stopped");
    RemediationJob done = zop.remediations().await(startFor("vm", VM, "stop").id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.FAILED);
    assertThat(done.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(done.lastFailure().code()).isEqualTo("precondition_failed");
    assertThat(done.lastFailure().retryable()).isFalse();
    assertThat(done.lastFailure().message()).contains("is stopped, not running");
    assertThat(notifications).isEmpty(); // never reached the approval
    assertThat(timeline(zop.remediations().audit(done.id()))).hasSize(2).last().asString()
        .startsWith("precondition:failed:system:user_action precondition_failed");
  }

  @Test
  void aFailingValidationIsASystemFailure() throws Exception {
    cloud.workload(VM, "running").freeze(VM);
    RemediationJob started = startFor("vm", VM, "stop");
    awaitStatus(started.id(), JobStatus.AWAITING_USER);
    zop.remediations().approve(started.id(), StepRef.name("approval"), "go");
    RemediationJob done = zop.remediations().await(started.id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.FAILED);
    assertThat(done.lastFailure().category()).isEqualTo(FailureCategory.SYSTEM);
    assertThat(done.lastFailure().code()).isEqualTo("validation_failed");
    assertThat(timeline(zop.remediations().audit(started.id()))).contains("execute:completed:system")
        .last().asString().startsWith("validate:failed:system:system validation_failed");
  }

  @Test
  void eachFailureClassIsClassified() throws Exception {
    cloud.workload("i-denied", "running").deny("compute:StopInstances");
    RemediationJob denied = startFor("vm", "i-denied", "stop");
    awaitStatus(denied.id(), JobStatus.AWAITING_USER);
    zop.remediations().approve(denied.id(), StepRef.name("approval"), null);
    RemediationJob userAction = zop.remediations().await(denied.id(), WAIT);
    assertThat(userAction.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(userAction.lastFailure().fixHint()).contains("compute:StopInstances");
    assertThat(userAction.lastFailure().consoleUrl()).startsWith("https://");

    cloud.allow("compute:StopInstances").workload("i-throttled", "running").throttleNext("compute:StopInstances", 10);
    RemediationJob throttled = startFor("vm", "i-throttled", "stop");
    awaitStatus(throttled.id(), JobStatus.AWAITING_USER);
    zop.remediations().approve(throttled.id(), StepRef.name("approval"), null);
    RemediationJob transientFailure = zop.remediations().await(throttled.id(), WAIT);
    assertThat(transientFailure.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(transientFailure.lastFailure().retryable()).isTrue();
    assertThat(transientFailure.steps().get(2).attempts()).isEqualTo(4); // retried with backoff first

    RemediationJob missing = zop.remediations().await(startFor("vm", "i-gone", "stop").id(), WAIT);
    assertThat(missing.lastFailure().category()).isEqualTo(FailureCategory.SYSTEM);
    assertThat(missing.lastFailure().code()).isEqualTo("not_found");
  }

  @Test
  void pauseServiceAndTheIrreversibleDataprocPause() throws Exception {
    cloud.workload("synapse-pool-1", "running").workload("dataproc-etl", "running");
    RemediationJob synapse = startFor("synapse-pool", "synapse-pool-1", "pause");
    assertThat(synapse.templateId()).isEqualTo("pause-service");
    assertThat(synapse.irreversible()).isFalse();
    awaitStatus(synapse.id(), JobStatus.AWAITING_USER);
    zop.remediations().approve(synapse.id(), StepRef.name("approval"), null);
    assertThat(zop.remediations().await(synapse.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.workloadState("synapse-pool-1")).isEqualTo("paused");

    RemediationJob dataproc = startFor("dataproc-cluster", "dataproc-etl", "pause");
    assertThat(dataproc.templateId()).isEqualTo("pause-dataproc");
    assertThat(dataproc.irreversible()).isTrue();
    awaitStatus(dataproc.id(), JobStatus.AWAITING_USER);
    awaitNotifications(2);
    assertThat(notifications).filteredOn(n -> n.jobId().equals(dataproc.id())).singleElement()
        .satisfies(n -> assertThat(n.data().get("message")).contains("IRREVERSIBLE", "cannot be undone"));
    zop.remediations().approve(dataproc.id(), StepRef.name("approval"), "Cluster is idle; data is in GCS");
    assertThat(zop.remediations().await(dataproc.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.workloadState("dataproc-etl")).isEqualTo("terminated");
    assertThat(timeline(zop.remediations().audit(dataproc.id()))).contains("pause_service:completed:system");
  }

  @Test
  void ofConcurrentDecisionsOnOneStepExactlyOneWins() throws Exception {
    cloud.workload(VM, "running");
    RemediationJob started = startFor("vm", VM, "stop");
    UUID step = awaitStatus(started.id(), JobStatus.AWAITING_USER).pendingApproval().id();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch go = new CountDownLatch(1);
    try {
      List<Future<String>> decisions = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        boolean approve = i % 2 == 0;
        String actor = "admin-" + i;
        decisions.add(pool.submit(() -> {
          Provisioner as = zop.as(Principal.of("default", actor).withRoles(Principal.ADMIN));
          go.await();
          try {
            if (approve) {
              as.remediations().approve(started.id(), StepRef.id(step), actor);
            } else {
              as.remediations().reject(started.id(), StepRef.id(step), actor);
            }
            return "won";
          } catch (ConflictException e) {
            return e.code();
          }
        }));
      }
      go.countDown();
      List<String> outcomes = new ArrayList<>();
      for (Future<String> f : decisions) {
        outcomes.add(f.get());
      }
      assertThat(outcomes).filteredOn("won"::equals).hasSize(1);
      assertThat(outcomes).filteredOn(o -> !o.equals("won"))
          .hasSize(7).allMatch(o -> o.equals("decision_already_made") || o.equals("step_not_awaiting_decision"));
    } finally {
      pool.shutdownNow();
    }
    RemediationJob done = zop.remediations().await(started.id(), WAIT);
    List<AuditEntry> decisions = zop.remediations().audit(started.id()).stream()
        .filter(e -> e.eventType().equals("approved") || e.eventType().equals("rejected")).toList();
    assertThat(decisions).singleElement().satisfies(d ->
        assertThat(done.status()).isEqualTo(d.eventType().equals("approved") ? JobStatus.SUCCEEDED
            : JobStatus.CANCELLED));
  }

  @Test
  void onlyApproversDecide() throws Exception {
    cloud.workload(VM, "running");
    RemediationJob started = startFor("vm", VM, "stop");
    awaitStatus(started.id(), JobStatus.AWAITING_USER);
    Provisioner viewer = zop.as(Principal.of("default", "viewer@acme.com"));
    assertThatThrownBy(() -> viewer.remediations().approve(started.id(), StepRef.name("approval"), null))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> viewer.remediations().cancel(started.id(), null))
        .isInstanceOf(ForbiddenException.class);
    assertThatThrownBy(() -> zop.as(Principal.of("other-org", "x").withRoles(Principal.ADMIN)).remediations()
        .approve(started.id(), StepRef.name("approval"), null)).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> zop.remediations().approve(started.id(), StepRef.name("execute"), null))
        .isInstanceOfSatisfying(ConflictException.class, e -> assertThat(e.code()).isEqualTo("not_an_approval_step"));
    assertThatThrownBy(() -> zop.remediations().approve(started.id(), StepRef.id(UUID.randomUUID()), null))
        .isInstanceOf(NotFoundException.class);

    // deciding is an update of the workflow, and needs the approval grant besides, as over REST
    Provisioner approver = zop.as(Principal.of("default", "sre@acme.com")
        .withRoles("provisioning:update", "remediation:approve"));
    approver.remediations().approve(started.id(), StepRef.name("approval"), "on call");
    assertThat(zop.remediations().await(started.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(timeline(zop.remediations().audit(started.id()))).contains("approval:approved:sre@acme.com:on call");
  }

  @Test
  void anApprovalThatTimesOutCancelsTheJobAndIsAudited() throws Exception {
    WorkflowTemplate quick = new WorkflowTemplate("stop-vm-quickly", 1, "stop", Set.of("vm"), List.of(
        TemplateStep.precondition(UUID.randomUUID(), "precondition", "running"),
        TemplateStep.approval(UUID.randomUUID(), "approval", "answer soon", Duration.ofMillis(300)),
        TemplateStep.execute(UUID.randomUUID(), "execute", "stop")), false);
    zop.close();
    zop = build(b -> b.template(quick).notifyTerminal(false));
    cloud.workload(VM, "running");
    RemediationJob started = startFor("vm", VM, "stop");
    assertThat(started.templateId()).isEqualTo("stop-vm-quickly"); // host templates win over built-ins

    RemediationJob done = zop.remediations().await(started.id(), WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.CANCELLED);
    assertThat(cloud.workloadState(VM)).isEqualTo("running");
    assertThat(timeline(zop.remediations().audit(started.id()))).last()
        .isEqualTo("approval:rejected:system:no decision within PT0.3S");
  }

  @Test
  void approvalByIdSurvivesATemplateRevision() throws Exception {
    UUID approvalId = UUID.randomUUID();
    WorkflowTemplate v1 = new WorkflowTemplate("stop-vm-custom", 1, "stop", Set.of("vm"), List.of(
        TemplateStep.approval(approvalId, "approve-stop", "v1 wording", null),
        TemplateStep.execute(UUID.randomUUID(), "execute", "stop")), false);
    zop.close();
    zop = build(b -> b.template(v1));
    cloud.workload(VM, "running");
    RemediationJob started = startFor("vm", VM, "stop");
    awaitStatus(started.id(), JobStatus.AWAITING_USER);
    zop.close();

    // the template is revised: the step is renamed and reworded, and keeps its id
    UUID executeId = v1.steps().get(1).id();
    WorkflowTemplate v2 = new WorkflowTemplate("stop-vm-custom", 2, "stop", Set.of("vm"), List.of(
        TemplateStep.approval(approvalId, "owner-sign-off", "v2 wording", null),
        TemplateStep.execute(executeId, "execute", "stop")), false);
    zop = build(b -> b.template(v2));
    zop.remediations().approve(started.id(), StepRef.id(approvalId), "approved after the revision");
    assertThat(zop.remediations().await(started.id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.workloadState(VM)).isEqualTo("stopped");
  }

  @Test
  void terminalNotificationsOnlyWhenEnabled() throws Exception {
    zop.close();
    zop = build(b -> b.notifyTerminal(true));
    cloud.workload(VM, "running").workload("i-stopped", "stopped");
    RemediationJob started = startFor("vm", VM, "stop");
    awaitStatus(started.id(), JobStatus.AWAITING_USER);
    zop.remediations().approve(started.id(), StepRef.name("approval"), null);
    zop.remediations().await(started.id(), WAIT);
    RemediationJob failed = zop.remediations().await(startFor("vm", "i-stopped", "stop").id(), WAIT);

    // notifications are delivered after their jobs' transactions, by whichever engine thread gets there first:
    // each job's own come in order, the two jobs' may interleave
    List<Notification> sent = List.copyOf(awaitNotifications(3));
    assertThat(sent).extracting(Notification::template).containsExactlyInAnyOrder(
        "remediation.approval_required", "remediation.succeeded", "remediation.failed");
    assertThat(sent).filteredOn(n -> n.jobId().equals(started.id())).extracting(Notification::template)
        .containsExactly("remediation.approval_required", "remediation.succeeded");
    Notification failure = sent.stream().filter(n -> n.template().equals("remediation.failed")).findFirst()
        .orElseThrow();
    assertThat(failure.jobId()).isEqualTo(failed.id());
    assertThat(failure.data()).containsEntry("category", "user_action");
  }

  @Test
  void startRejectsUnknownOrMismatchedRecommendations() {
    assertThatThrownBy(() -> zop.remediations().start("rec_missing", SubjectType.RESOURCE, VM))
        .isInstanceOf(NotFoundException.class);
    zop.remediations().putRecommendation(new Recommendation("rec_1", "sim", account.id(), "sim-east-1", "vm", VM,
        "stop"));
    assertThatThrownBy(() -> zop.remediations().start("rec_1", SubjectType.RESOURCE, "i-other"))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors().get(0).field())
            .isEqualTo("subjectID"));
    zop.remediations().putRecommendation(new Recommendation("rec_2", "sim", account.id(), "sim-east-1",
        "kafka-topic", "t1", "delete"));
    assertThatThrownBy(() -> zop.remediations().start("rec_2", SubjectType.RESOURCE, "t1"))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors().get(0).code())
            .isEqualTo("no_template"));
    assertThat(zop.remediations().list(10, null).items()).isEmpty();
    assertThat(zop.remediations().templates()).extracting(WorkflowTemplate::id)
        .contains("stop-idle-vm", "stop-idle-database", "pause-service", "pause-dataproc");
  }
}
