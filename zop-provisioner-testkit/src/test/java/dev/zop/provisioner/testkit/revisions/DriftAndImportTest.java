package dev.zop.provisioner.testkit.revisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.DriftReport;
import dev.zop.provisioner.ImportPlan;
import dev.zop.provisioner.ImportRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Drift and import on the simulated cloud (a test double): a resource changed and one deleted by hand are reported
 * with expected and actual values, a reconcile puts the change back, a space's schedule checks its jobs, and a
 * network made by hand is imported, revised and torn down.
 */
class DriftAndImportTest {
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  SimCloud cloud;
  EmbeddedProvisioner zop;
  Space space;
  final List<Notification> sent = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    cloud = SimCloud.create();
    // the schedule's timer is left idle here: a test runs a pass when it means to, or starts an engine that does
    zop = TestEngines.h2(dir, cloud).notifier(sent::add).driftScheduleInterval(Duration.ofDays(1)).build();
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "drift"));
    space = zop.spaces().create(SpaceRequest.of("sim", "drift", account.id()).region("sim-east-1"));
  }

  @AfterEach
  void stop() {
    if (zop != null) {
      zop.close();
    }
  }

  private Job created(Space in, dev.zop.provisioner.spec.ResourceSpec spec) {
    Job job = zop.jobs().await(zop.jobs().submit(in.id(), spec).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    return job;
  }

  private static KubernetesSpec cluster() {
    return KubernetesSpec.named("drifty").version("1.30").nodeGroup("general", "m5.large", 2, 5).build();
  }

  @Test
  void aChangeByHandIsReportedAndReconciledAndADeletionIsReportedMissing() {
    Job job = created(space, cluster());
    assertThatThrownBy(() -> zop.jobs().drift(job.id())).isInstanceOf(NotFoundException.class);
    DriftReport clean = zop.jobs().checkDrift(job.id());
    assertThat(clean.status()).isEqualTo(DriftReport.Status.IN_SYNC);
    assertThat(clean.drifts()).isEmpty();
    // the cluster and its node group, one describe each
    assertThat(clean.cloudCalls()).isEqualTo(3);
    assertThatThrownBy(() -> zop.jobs().planReconcile(job.id())).isInstanceOf(ConflictException.class)
        .hasMessageContaining("nothing to reconcile");

    cloud.changeByHand("node-group", "drifty-general", Map.of("min", "1", "max", "9"));
    DriftReport drifted = zop.jobs().checkDrift(job.id());
    assertThat(drifted.status()).isEqualTo(DriftReport.Status.DRIFTED);
    assertThat(drifted.drifts()).extracting(Drift::resource, Drift::field, Drift::expected, Drift::actual)
        .containsExactly(tuple("node-group drifty-general", "max", "5", "9"),
            tuple("node-group drifty-general", "min", "2", "1"));
    assertThat(zop.jobs().drift(job.id())).isEqualTo(drifted);
    // told once: a second check that finds the same adds no event and sends nothing
    zop.jobs().checkDrift(job.id());
    assertThat(zop.jobs().events(job.id(), 0)).filteredOn(e -> e.type() == JobEventType.DRIFTED)
        .extracting(JobEvent::message).singleElement().asString()
        .contains("node-group drifty-general max: expected 5, found 9");
    assertThat(sent).extracting(Notification::template).containsExactly("job.drifted");
    assertThat(sent.get(0).data()).containsEntry("drifts", "2").containsEntry("jobId", job.id().value());

    RevisionPlan plan = zop.jobs().planReconcile(job.id());
    assertThat(plan.revision()).isEqualTo(2);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to,
        RevisionChange::effect).containsExactly(tuple("max", "9", "5", RevisionChange.Effect.IN_PLACE),
        tuple("min", "1", "2", RevisionChange.Effect.IN_PLACE));
    assertThat(plan.before()).isEqualTo(plan.after());
    assertThat(cloud.find("node-group", "drifty-general").attributes()).containsEntry("max", "9");

    Job reconciled = zop.jobs().await(zop.jobs().reconcile(job.id()).id(), WAIT);
    assertThat(reconciled.status()).as(String.valueOf(reconciled.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.find("node-group", "drifty-general").attributes()).containsEntry("min", "2")
        .containsEntry("max", "5");
    // only what drifted was changed: the cluster's update step found it right
    assertThat(cloud.modifyCount("kubernetes-cluster", "drifty")).isZero();
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::number, JobRevision::status,
        r -> r.spec().equals(cluster())).containsExactly(tuple(1, JobRevision.Status.APPLIED, true),
        tuple(2, JobRevision.Status.APPLIED, true));
    assertThat(zop.jobs().checkDrift(job.id()).status()).isEqualTo(DriftReport.Status.IN_SYNC);

    cloud.deleteByHand("node-group", "drifty-general");
    DriftReport missing = zop.jobs().checkDrift(job.id());
    assertThat(missing.drifts()).containsExactly(Drift.missing("node-group drifty-general"));
    assertThatThrownBy(() -> zop.jobs().planReconcile(job.id())).isInstanceOf(ConflictException.class)
        .hasMessageContaining("node-group drifty-general");
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void aSpaceWithAScheduleHasItsDueJobsCheckedAndOnlyThose() {
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "scheduled"));
    Space scheduled = zop.spaces().create(SpaceRequest.of("sim", "scheduled", account.id()).region("sim-east-1")
        .config("driftCheckMinutes", "5"));
    Job watched = created(scheduled, cluster());
    Job unwatched = created(space, KubernetesSpec.named("quiet").version("1.30")
        .nodeGroup("general", "m5.large", 1, 2).build());
    cloud.changeByHand("node-group", "drifty-general", Map.of("max", "7"));
    cloud.changeByHand("node-group", "quiet-general", Map.of("max", "7"));

    assertThat(zop.runDriftSchedule()).isEqualTo(1);
    DriftReport report = zop.jobs().drift(watched.id());
    assertThat(report.checkedBy()).isEqualTo("schedule");
    assertThat(report.drifts()).extracting(Drift::field, Drift::actual).containsExactly(tuple("max", "7"));
    assertThat(zop.jobs().events(watched.id(), 0)).anyMatch(e -> e.type() == JobEventType.DRIFTED);
    assertThat(sent).extracting(Notification::template).containsExactly("job.drifted");
    // a space without a schedule is checked only on request
    assertThatThrownBy(() -> zop.jobs().drift(unwatched.id())).isInstanceOf(NotFoundException.class);
    // checked now, the job is next due in five minutes: a pass at once checks nothing
    assertThat(zop.runDriftSchedule()).isZero();

    assertThatThrownBy(() -> zop.spaces().create(SpaceRequest.of("sim", "too-often", account.id())
        .region("sim-east-1").config("driftCheckMinutes", "1"))).isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).fieldErrors()).extracting(f -> f.field())
            .containsExactly("config.driftCheckMinutes"));
  }

  @Test
  void anEngineRunningWorkersChecksDueJobsOnItsOwnTimer() {
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "timer"));
    Space scheduled = zop.spaces().create(SpaceRequest.of("sim", "timer", account.id()).region("sim-east-1")
        .config("driftCheckMinutes", "5"));
    Job watched = created(scheduled, cluster());
    cloud.changeByHand("node-group", "drifty-general", Map.of("min", "0"));
    zop.close();
    // the next engine on the store looks for due jobs every 200 ms
    zop = TestEngines.h2(dir, cloud).notifier(sent::add).driftScheduleInterval(Duration.ofMillis(200)).build();
    Awaitility.await().atMost(20, TimeUnit.SECONDS).pollInterval(Duration.ofMillis(100)).untilAsserted(() ->
        assertThat(zop.jobs().events(watched.id(), 0)).anyMatch(e -> e.type() == JobEventType.DRIFTED));
    assertThat(zop.jobs().drift(watched.id()).drifts()).extracting(Drift::field, Drift::expected, Drift::actual)
        .containsExactly(tuple("min", "2", "0"));
  }

  @Test
  void aNetworkMadeByHandIsImportedRevisedAndTornDown() {
    cloud.existingNetwork("vpc-legacy", "10.40.0.0/16", Map.of("subnet-a", "10.40.1.0/24"));
    NetworkSpec wanted = NetworkSpec.named("vpc-legacy").cidr("10.40.0.0/16")
        .subnets(List.of(Subnet.of("subnet-a", "10.40.1.0/24"), Subnet.of("b", "10.40.2.0/24"))).build();

    ImportPlan plan = zop.jobs().planImport(space.id(), ImportRequest.of(wanted, "vpc-legacy"));
    assertThat(plan.adopted()).containsExactly("vpc vpc-legacy", "subnet subnet-a");
    assertThat(plan.observed()).isEqualTo(NetworkSpec.named("vpc-legacy").cidr("10.40.0.0/16")
        .subnets(List.of(Subnet.of("subnet-a", "10.40.1.0/24"))).build());
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::to)
        .contains(tuple("subnets[1].name", "b"), tuple("subnets[1].cidr", "10.40.2.0/24"));
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("adopt-vpc", "adopt-subnet-subnet-a");
    assertThat(cloud.find("vpc", "vpc-legacy").tags()).isEmpty();
    assertThatThrownBy(() -> zop.jobs().planImport(space.id(), ImportRequest.of(wanted, "vpc-nothing")))
        .isInstanceOf(NotFoundException.class);

    Job imported = zop.jobs().await(zop.jobs().importExisting(space.id(),
        ImportRequest.of(wanted, "vpc-legacy")).id(), WAIT);
    assertThat(imported.status()).as(String.valueOf(imported.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(imported.spec()).isEqualTo(plan.observed());
    assertThat(imported.outputs()).containsEntry("importedFrom", "vpc-legacy");
    assertThat(cloud.find("vpc", "vpc-legacy").tags()).containsEntry("zop:job", imported.id().value());
    assertThat(cloud.find("subnet", "subnet-a").tags()).containsEntry("zop:job", imported.id().value());
    assertThat(zop.jobs().checkDrift(imported.id()).status()).isEqualTo(DriftReport.Status.IN_SYNC);

    // a second import of what the first took over is refused, by its tag and by the engine's own record
    assertThatThrownBy(() -> zop.jobs().planImport(space.id(), ImportRequest.of(wanted, "vpc-legacy")))
        .isInstanceOf(ConflictException.class).hasMessageContaining(imported.id().value());

    Job revised = zop.jobs().await(zop.jobs().revise(imported.id(), wanted).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.find("subnet", "vpc-legacy-b")).isNotNull();

    assertThat(zop.jobs().await(zop.jobs().delete(imported.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }
}
