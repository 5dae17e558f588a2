package dev.zop.provisioner.testkit.revisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.PlanWarning;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.testkit.EngineCrashes;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Revisions of what a job made, planned as a diff and applied as steps, on the sim cloud; once per store. */
abstract class RevisionBehaviour {
  static final Duration WAIT = Duration.ofSeconds(30);

  SimCloud cloud;
  EmbeddedProvisioner zop;
  Space space;

  abstract EmbeddedProvisionerBuilder engine(SimCloud simCloud);

  @BeforeEach
  void start() {
    cloud = SimCloud.create();
    zop = engine(cloud).build();
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "revisions"));
    space = zop.spaces().create(SpaceRequest.of("sim", "revisions", account.id()).region("sim-east-1"));
  }

  @AfterEach
  void stop() {
    if (zop != null) {
      zop.close();
    }
  }

  Job created(dev.zop.provisioner.spec.ResourceSpec spec) {
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    return job;
  }

  static DatastoreSpec.Builder orders() {
    return DatastoreSpec.postgres().name("orders").version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(50).multiAz(true).backupRetentionDays(7);
  }

  @Test
  void aDatastoreRevisionIsPlannedAsADiffAndAppliedWhereItStands() {
    Job job = created(orders().build());
    DatastoreSpec larger = orders().instanceClass("db.m5.large").allocatedStorageGb(100).backupRetentionDays(14)
        .build();

    RevisionPlan plan = zop.jobs().planRevision(job.id(), larger);
    assertThat(plan.revision()).isEqualTo(2);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to,
        RevisionChange::effect).containsExactlyInAnyOrder(
        tuple("instanceClass", "db.t3.medium", "db.m5.large", RevisionChange.Effect.IN_PLACE),
        tuple("allocatedStorageGB", "50", "100", RevisionChange.Effect.IN_PLACE),
        tuple("backupRetentionDays", "7", "14", RevisionChange.Effect.IN_PLACE));
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("update-db");
    assertThat(plan.permissions()).containsExactly("database:DescribeDBInstance", "database:ModifyDBInstance");
    // the sim prices an instance class by its size and storage by the GB: both grow
    assertThat(plan.after().monthlyTotal()).isGreaterThan(plan.before().monthlyTotal());
    assertThat(plan.monthlyDelta()).isEqualByComparingTo(plan.after().monthlyTotal()
        .subtract(plan.before().monthlyTotal()));
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("instanceClass", "db.t3.medium");

    Job revised = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(revised.phase()).isEqualTo(JobPhase.UPDATE);
    assertThat(revised.spec()).isEqualTo(larger);
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("instanceClass", "db.m5.large")
        .containsEntry("allocatedStorageGB", "100").containsEntry("backupRetentionDays", "14");
    // changed where it stands: made once, changed once
    assertThat(cloud.createCount("db-instance", "orders")).isEqualTo(1);
    assertThat(cloud.modifyCount("db-instance", "orders")).isEqualTo(1);
    assertThat(revised.outputs()).containsEntry("host", "orders.sim-east-1.db.sim.invalid");
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::number, JobRevision::status,
            r -> r.spec().equals(larger))
        .containsExactly(tuple(1, JobRevision.Status.APPLIED, false), tuple(2, JobRevision.Status.APPLIED, true));

    // teardown after a revision removes what the job has now
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void aListOfNamedItemsIsComparedByNameSoAGroupDroppedFromTheMiddleIsOneChange() {
    Job job = created(KubernetesSpec.named("lists").version("1.30").nodeGroup("a", "m5.large", 1, 2)
        .nodeGroup("b", "m5.large", 1, 2).nodeGroup("c", "m5.large", 1, 3).build());
    // c moves up a place and grows; b is dropped: nothing is said of c's unchanged fields
    RevisionPlan plan = zop.jobs().planRevision(job.id(), KubernetesSpec.named("lists").version("1.30")
        .nodeGroup("a", "m5.large", 1, 2).nodeGroup("c", "m5.large", 1, 4).build());
    assertThat(plan.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactly("nodeGroups[1].max:3->4", "nodeGroups[1]:b->null");
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("update-nodegroup-c", "delete-nodegroup-b");
  }

  @Test
  void aClusterRevisionScalesItsNodeGroupsUpgradesOneMinorAndAddsAndRemovesGroups() {
    Job job = created(KubernetesSpec.named("platform").version("1.30").nodeGroup("default", "m5.large", 2, 6)
        .nodeGroup("batch", "c5.large", 1, 2).build());
    KubernetesSpec revised = KubernetesSpec.named("platform").version("1.31").nodeGroup("default", "m5.large", 3, 10)
        .nodeGroup("gpu", "m5.xlarge", 1, 1).build();

    RevisionPlan plan = zop.jobs().planRevision(job.id(), revised);
    assertThat(plan.changes()).extracting(RevisionChange::field).contains("version", "nodeGroups[0].min",
        "nodeGroups[0].max", "nodeGroups[1].name");
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("update-cluster",
        "update-nodegroup-default", "create-nodegroup-gpu", "await-nodegroup-gpu", "delete-nodegroup-batch");

    Job done = zop.jobs().await(zop.jobs().revise(job.id(), revised).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.find("kubernetes-cluster", "platform").attributes()).containsEntry("version", "1.31");
    assertThat(cloud.find("node-group", "platform-default").attributes()).containsEntry("min", "3")
        .containsEntry("max", "10");
    assertThat(cloud.find("node-group", "platform-gpu")).isNotNull();
    assertThat(cloud.find("node-group", "platform-batch")).isNull();
    assertThat(cloud.createCount("kubernetes-cluster", "platform")).isEqualTo(1);
    assertThat(done.steps()).filteredOn(s -> s.phase() == JobPhase.UPDATE).extracting(JobStep::status)
        .containsOnly(StepStatus.SUCCEEDED);

    // a second revision runs only its own steps, after the first's
    KubernetesSpec again = KubernetesSpec.named("platform").version("1.31").nodeGroup("default", "m5.large", 3, 12)
        .nodeGroup("gpu", "m5.xlarge", 1, 1).build();
    Job third = zop.jobs().await(zop.jobs().revise(job.id(), again).id(), WAIT);
    assertThat(third.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(cloud.find("node-group", "platform-default").attributes()).containsEntry("max", "12");
    assertThat(cloud.stepRuns(job.id().value(), "update-cluster")).isEqualTo(1);
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::number).containsExactly(1, 2, 3);

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void changesThatWouldLoseDataOrThatTheCloudCannotMakeAreRefusedByFieldAtPlanTime() {
    Job db = created(orders().build());
    assertThatThrownBy(() -> zop.jobs().planRevision(db.id(), orders().allocatedStorageGb(20).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.allocatedStorageGB storage_shrink"));
    assertThatThrownBy(() -> zop.jobs().revise(db.id(), DatastoreSpec.mysql().name("orders").version("8.0")
        .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code())
            .contains("config.engine engine_change", "config.version not_revisable"));
    assertThatThrownBy(() -> zop.jobs().planRevision(db.id(), orders().name("renamed").build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.name not_revisable"));
    assertThatThrownBy(() -> zop.jobs().planRevision(db.id(), orders().build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config no_change"));
    assertThatThrownBy(() -> zop.jobs().planRevision(db.id(), NetworkSpec.named("x").cidr("10.0.0.0/16").build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("kind kind_changed"));

    Job cluster = created(KubernetesSpec.named("k").version("1.29").nodeGroup("default", "m5.large", 1, 2).build());
    assertThatThrownBy(() -> zop.jobs().planRevision(cluster.id(), KubernetesSpec.named("k").version("1.31")
        .nodeGroup("default", "m5.large", 1, 2).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.version kubernetes_minor_skipped"));
    assertThatThrownBy(() -> zop.jobs().planRevision(cluster.id(), KubernetesSpec.named("k").version("1.28")
        .nodeGroup("default", "m5.large", 1, 2).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.version kubernetes_downgrade"));
    // nothing was written: the jobs are as they were
    assertThat(zop.jobs().revisions(db.id())).singleElement().satisfies(r -> {
      assertThat(r.number()).isEqualTo(1);
      assertThat(r.status()).isEqualTo(JobRevision.Status.APPLIED);
    });
    assertThat(cloud.modifyCount("db-instance", "orders")).isZero();
  }

  @Test
  void aRevisionsPlanReadsTheCloudFirstAndShowsWhatItPutsBack() {
    Job job = created(orders().build());
    // grown and made single-zone by hand: the config still says 50 GB and Multi-AZ
    cloud.changeByHand("db-instance", "orders", java.util.Map.of("allocatedStorageGB", "60", "multiAZ", "false",
        "version", "16.4"));
    DatastoreSpec revised = orders().allocatedStorageGb(60).backupRetentionDays(14).build();

    RevisionPlan plan = zop.jobs().planRevision(job.id(), revised);
    // the storage is already what the revision asks: nothing changes there; Multi-AZ is put back, and says so
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to,
        RevisionChange::effect).containsExactlyInAnyOrder(
            tuple("backupRetentionDays", "7", "14", RevisionChange.Effect.IN_PLACE),
            tuple("multiAZ", "false", "true", RevisionChange.Effect.IN_PLACE));
    assertThat(plan.changes()).filteredOn(c -> c.field().equals("multiAZ")).singleElement()
        .extracting(RevisionChange::note).asString().contains("outside the job");
    // the cost before is what the instance costs as it stands: 60 GB, one zone (the config says 50 GB, two)
    assertThat(plan.before().monthlyTotal()).isEqualByComparingTo(zop.jobs().plan(space.id(),
        orders().allocatedStorageGb(60).multiAz(false).build()).monthlyTotal());
    // a version the revision's steps do not set: it stays as the cloud has it, and the plan says so
    assertThat(plan.warnings()).extracting(PlanWarning::code, PlanWarning::field)
        .containsExactly(tuple("drift_kept", "version"));

    Job done = zop.jobs().await(zop.jobs().revise(job.id(), revised).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    // what the plan showed is what changed
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("allocatedStorageGB", "60")
        .containsEntry("multiAZ", "true").containsEntry("backupRetentionDays", "14");
  }

  @Test
  void aFailedRevisionLeavesTheJobFailedAtItsStepRetryableWithItsLastGoodConfigRecorded() {
    Job job = created(orders().build());
    cloud.deny("database:ModifyDBInstance");
    DatastoreSpec larger = orders().allocatedStorageGb(200).build();
    Job failed = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);

    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.phase()).isEqualTo(JobPhase.UPDATE);
    assertThat(failed.currentStep().name()).isEqualTo("update-db");
    assertThat(failed.lastFailure().code()).isEqualTo("access_denied");
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::number, JobRevision::status).containsExactly(
        tuple(1, JobRevision.Status.APPLIED), tuple(2, JobRevision.Status.FAILED));
    // the job's config is what its resources have: the failed revision stands beside it, never in its place
    assertThat(failed.spec()).isEqualTo(job.spec());
    assertThat(failed.revision()).isNotNull().satisfies(r -> {
      assertThat(r.number()).isEqualTo(2);
      assertThat(r.status()).isEqualTo(JobRevision.Status.FAILED);
      assertThat(r.spec()).isEqualTo(larger);
    });
    assertThat(zop.jobs().list(JobQuery.all()).items()).filteredOn(j -> j.id().equals(job.id()))
        .singleElement().satisfies(listed -> {
          assertThat(listed.spec()).isEqualTo(job.spec());
          assertThat(listed.revision()).isEqualTo(failed.revision());
        });
    // another revision may take its place: it is planned from the last config applied, not the failed one
    assertThat(zop.jobs().planRevision(job.id(), orders().allocatedStorageGb(300).build()).changes())
        .extracting(c -> c.field() + ":" + c.from() + "->" + c.to()).containsExactly("allocatedStorageGB:50->300");
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), orders().build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.code()).containsExactly("no_change"));

    cloud.allow("database:ModifyDBInstance");
    Job retried = zop.jobs().await(zop.jobs().retry(job.id()).id(), WAIT);
    assertThat(retried.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(retried.spec()).isEqualTo(larger);
    assertThat(retried.revision()).isNull();
    assertThat(zop.jobs().get(job.id()).spec()).isEqualTo(larger);
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("allocatedStorageGB", "200");
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::status)
        .containsExactly(JobRevision.Status.APPLIED, JobRevision.Status.APPLIED);
  }

  @Test
  void aFailedRevisionIsSupersededByTheNextOneMadeFromTheLastConfigApplied() {
    Job job = created(orders().build());
    cloud.deny("database:ModifyDBInstance");
    Job failed = zop.jobs().await(zop.jobs().revise(job.id(), orders().allocatedStorageGb(200).build()).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    cloud.allow("database:ModifyDBInstance");

    DatastoreSpec instead = orders().allocatedStorageGb(120).backupRetentionDays(14).build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), instead);
    assertThat(plan.revision()).isEqualTo(3);
    assertThat(plan.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactlyInAnyOrder("allocatedStorageGB:50->120", "backupRetentionDays:7->14");
    Job done = zop.jobs().await(zop.jobs().revise(job.id(), instead).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.spec()).isEqualTo(instead);
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("allocatedStorageGB", "120")
        .containsEntry("backupRetentionDays", "14");
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::number, JobRevision::status).containsExactly(
        tuple(1, JobRevision.Status.APPLIED), tuple(2, JobRevision.Status.FAILED),
        tuple(3, JobRevision.Status.APPLIED));
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(cloud.resources()).isEmpty();
  }

  @Test
  void aRevisionInterruptedAfterTheCloudAcceptedItsChangeConvergesWithoutChangingTwice() throws Exception {
    zop.close();
    zop = engine(cloud).instanceId("engine-a").leaseDuration(Duration.ofSeconds(1)).build();
    Job job = created(orders().build());
    EmbeddedProvisioner crashed = zop;
    // right after the cloud accepted the change, the engine stops as a killed process would: the step's success
    // is never written. It stops once the revision's call has answered, which reads the job after waking a
    // worker: a worker quick enough to reach the cloud first would otherwise close the store under that read.
    java.util.concurrent.CountDownLatch revised = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch halted = new java.util.concurrent.CountDownLatch(1);
    cloud.onAccepted(operation -> {
      if (operation.equals("database:ModifyDBInstance")) {
        try {
          revised.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        new Thread(() -> {
          EngineCrashes.simulateCrash(crashed);
          halted.countDown();
        }).start();
        try {
          halted.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    });
    zop.jobs().revise(job.id(), orders().instanceClass("db.m5.large").build());
    revised.countDown();
    assertThat(halted.await(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    cloud.onAccepted(operation -> { });
    assertThat(cloud.find("db-instance", "orders").attributes()).containsEntry("instanceClass", "db.m5.large");

    zop = engine(cloud).instanceId("engine-b").leaseDuration(Duration.ofSeconds(1)).build();
    Job before = zop.jobs().get(job.id());
    assertThat(before.steps()).filteredOn(s -> s.phase() == JobPhase.UPDATE).singleElement()
        .satisfies(s -> assertThat(s.status()).isEqualTo(StepStatus.RUNNING));
    Job done = zop.jobs().await(job.id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    // the step ran again, found the change made, and made none
    assertThat(cloud.stepRuns(job.id().value(), "update-db")).isEqualTo(2);
    assertThat(cloud.modifyCount("db-instance", "orders")).isEqualTo(1);
    assertThat(cloud.createCount("db-instance", "orders")).isEqualTo(1);
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::status)
        .containsExactly(JobRevision.Status.APPLIED, JobRevision.Status.APPLIED);
  }
}
