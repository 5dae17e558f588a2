package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.eks.model.UpdateClusterVersionRequest;
import software.amazon.awssdk.services.eks.model.UpdateNodegroupVersionRequest;

/**
 * The provisioning document's kubernetes and datastore bodies created with the real AWS SDK against moto, on an
 * engine whose store is PostgreSQL, then revised; what moto holds afterwards is read with boto3, AWS's own Python
 * SDK, not with ours. moto lacks EKS's UpdateClusterVersion and UpdateNodegroupVersion: {@link EksUpgradeStandIn}
 * answers those two alone, and the requests the SDK sent are asserted.
 */
class AwsRevisionIT {
  private static final MotoServer MOTO = MotoServer.get();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final EksUpgradeStandIn upgrades = new EksUpgradeStandIn();
  private final ElastiCacheStandIn caches = new ElastiCacheStandIn();
  private PostgresTestDatabase database;
  private EmbeddedProvisioner zop;
  private Space space;

  @BeforeEach
  void start() {
    MOTO.reset();
    database = PostgresTestDatabase.create();
    zop = EmbeddedProvisioner.builder().jdbc(database.url(), database.user(), database.password())
        .discoverProviders(false)
        .provider(AwsProvider.withInterceptors(new AccessEntryStandIn(), upgrades, caches).pollingEvery(Duration.ofMillis(50)))
        .pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(3, Duration.ofMillis(10), Duration.ofMillis(50)))
        .build();
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("aws", "moto").credentialsRef("default-chain")
        .property("endpoint", MOTO.endpoint()));
    space = zop.spaces().create(SpaceRequest.of("aws", "revisions", account.id()).region("us-east-1"));
  }

  @AfterEach
  void stop() {
    zop.close();
    database.close();
  }

  /** What moto holds, as boto3 reads it. */
  private static JsonNode inventory(String script) throws IOException {
    return JSON.readTree(MOTO.boto3(script));
  }

  /** A datastore of 20 GB, single-zone, then grown to 30 GB and made Multi-AZ by hand with boto3. */
  private Job grownAndMadeMultiAzByHand() throws IOException {
    DatastoreSpec small = JSON.readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.t3.medium", "allocatedStorageGB": 20,
          "multiAZ": false, "backupRetentionDays": 7 }""", DatastoreSpec.class);
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), small).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    inventory("""
        rds = boto3.client("rds", **kw)
        rds.modify_db_instance(DBInstanceIdentifier="%s", AllocatedStorage=30, MultiAZ=True, ApplyImmediately=True)
        print(json.dumps({}))
        """.formatted(job.outputs().get("dbInstanceIdentifier")));
    return job;
  }

  /** The instance's storage and Multi-AZ, as boto3 reads them. */
  private static JsonNode storageAndMultiAz(String id) throws IOException {
    return inventory("""
        rds = boto3.client("rds", **kw)
        d = rds.describe_db_instances(DBInstanceIdentifier="%s")["DBInstances"][0]
        print(json.dumps({"AllocatedStorage": d["AllocatedStorage"], "MultiAZ": d["MultiAZ"]}))
        """.formatted(id));
  }

  /**
   * Grown and made Multi-AZ by hand (with boto3), then revised to the size it already has: the plan reads the cloud
   * first, so it shows Multi-AZ turned back off, which the revision does, and not the storage, which it leaves.
   */
  @Test
  void aRevisionsPlanShowsWhatItPutsBackFromWhatTheCloudHas() throws Exception {
    Job job = grownAndMadeMultiAzByHand();
    String id = job.outputs().get("dbInstanceIdentifier");

    DatastoreSpec revised = ((DatastoreSpec) job.spec()).toBuilder().allocatedStorageGb(30).build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), revised);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to)
        .containsExactly(tuple("multiAZ", "true", "false"));
    Job done = zop.jobs().await(zop.jobs().revise(job.id(), revised).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    JsonNode instance = storageAndMultiAz(id);
    assertThat(instance.get("AllocatedStorage").asInt()).isEqualTo(30);
    assertThat(instance.get("MultiAZ").asBoolean()).as("put back, as the plan showed").isFalse();
  }

  /**
   * Grown and made Multi-AZ by hand: the storage cannot shrink back, so the reconcile puts back Multi-AZ alone and
   * says the storage stays; RDS is never asked for less storage than it has.
   */
  @Test
  void aReconcilePutsBackWhatItCanAndLeavesStorageGrownByHand() throws Exception {
    Job job = grownAndMadeMultiAzByHand();
    String id = job.outputs().get("dbInstanceIdentifier");

    RevisionPlan plan = zop.jobs().planReconcile(job.id());
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to)
        .containsExactly(tuple("multiAZ", "true", "false"));
    assertThat(plan.warnings()).extracting(w -> w.code() + " " + w.field())
        .containsExactly("not_reconcilable allocatedStorageGB");
    Job done = zop.jobs().await(zop.jobs().reconcile(job.id()).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    JsonNode instance = storageAndMultiAz(id);
    assertThat(instance.get("MultiAZ").asBoolean()).isFalse();
    assertThat(instance.get("AllocatedStorage").asInt()).as("never shrunk").isEqualTo(30);
    assertThat(zop.jobs().checkDrift(job.id()).drifts()).extracting(d -> d.field())
        .containsExactly("allocatedStorageGB");
  }

  @Test
  void theDocumentsDatastoreGrowsWhereItStands() throws Exception {
    DatastoreSpec document = JSON.readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.t3.medium", "allocatedStorageGB": 50,
          "multiAZ": true, "backupRetentionDays": 7 }""", DatastoreSpec.class);
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), document).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    String id = job.outputs().get("dbInstanceIdentifier");

    DatastoreSpec larger = document.toBuilder().instanceClass("db.m5.large").allocatedStorageGb(100)
        .backupRetentionDays(14).build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), larger);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to,
        RevisionChange::effect).containsExactlyInAnyOrder(
        tuple("instanceClass", "db.t3.medium", "db.m5.large", RevisionChange.Effect.IN_PLACE),
        tuple("allocatedStorageGB", "50", "100", RevisionChange.Effect.IN_PLACE),
        tuple("backupRetentionDays", "7", "14", RevisionChange.Effect.IN_PLACE));
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("modify-db-instance",
        "await-db-instance-modified");
    assertThat(plan.permissions()).containsExactly("rds:DescribeDBInstances", "rds:ModifyDBInstance");
    // 2 x 730 h x 0.072 + 100 GB-month x 0.115, then 2 x 730 h x 0.178 + 200 GB-month x 0.115
    assertThat(plan.before().monthlyTotal()).isEqualByComparingTo("116.62");
    assertThat(plan.after().monthlyTotal()).isEqualByComparingTo("282.88");
    assertThat(plan.monthlyDelta()).isEqualByComparingTo("166.26");
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), document.toBuilder().allocatedStorageGb(20).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.allocatedStorageGB storage_shrink"));

    Job done = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(zop.jobs().revisions(job.id())).extracting(JobRevision::number, JobRevision::status)
        .containsExactly(tuple(1, JobRevision.Status.APPLIED), tuple(2, JobRevision.Status.APPLIED));

    JsonNode instances = inventory("""
        rds = boto3.client("rds", **kw)
        print(json.dumps([{k: d[k] for k in ("DBInstanceIdentifier", "DBInstanceClass", "AllocatedStorage",
            "BackupRetentionPeriod", "MultiAZ")} for d in rds.describe_db_instances()["DBInstances"]]))
        """);
    // one instance, the same one, with every attribute changed: nothing was replaced
    assertThat(instances).hasSize(1);
    assertThat(instances.get(0).get("DBInstanceIdentifier").asText()).isEqualTo(id);
    assertThat(instances.get(0).get("DBInstanceClass").asText()).isEqualTo("db.m5.large");
    assertThat(instances.get(0).get("AllocatedStorage").asInt()).isEqualTo(100);
    assertThat(instances.get(0).get("BackupRetentionPeriod").asInt()).isEqualTo(14);
    assertThat(instances.get(0).get("MultiAZ").asBoolean()).isTrue();

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void theDocumentsClusterScalesToThreeToTenAndUpgradesToKubernetes131() throws Exception {
    Ec2Client ec2 = MOTO.client(Ec2Client.builder());
    String vpc = ec2.createVpc(r -> r.cidrBlock("10.9.0.0/16")).vpc().vpcId();
    String a = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.9.1.0/24").availabilityZone("us-east-1a")).subnet()
        .subnetId();
    String b = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.9.2.0/24").availabilityZone("us-east-1b")).subnet()
        .subnetId();
    KubernetesSpec document = KubernetesSpec.named("platform-prod").version("1.30")
        .nodeGroup("default", "m5.large", 2, 6).vpcId(vpc).subnetIds(a, b).build();
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), document).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    KubernetesSpec revised = KubernetesSpec.named("platform-prod").version("1.31")
        .nodeGroup("default", "m5.large", 3, 10).vpcId(vpc).subnetIds(a, b).build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), revised);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to)
        .containsExactlyInAnyOrder(tuple("version", "1.30", "1.31"), tuple("nodeGroups[0].min", "2", "3"),
            tuple("nodeGroups[0].max", "6", "10"));
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("upgrade-cluster", "await-cluster-upgraded",
        "scale-nodegroup-default", "await-nodegroup-scaled-default", "upgrade-nodegroup-default",
        "await-nodegroup-upgraded-default");
    assertThat(plan.permissions()).contains("eks:UpdateClusterVersion", "eks:UpdateNodegroupConfig",
        "eks:UpdateNodegroupVersion");
    // 730 x 0.10 + 2 x 730 x 0.096, then with 3 nodes
    assertThat(plan.before().monthlyTotal()).isEqualByComparingTo("213.16");
    assertThat(plan.after().monthlyTotal()).isEqualByComparingTo("283.24");
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), document.toBuilder().version("1.32").build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.version kubernetes_minor_skipped"));

    Job done = zop.jobs().await(zop.jobs().revise(job.id(), revised).id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    // the two calls moto lacks, as the SDK sent them: the control plane first, then the node group
    assertThat(upgrades.requests).hasSize(2);
    assertThat(upgrades.requests.get(0)).isInstanceOfSatisfying(UpdateClusterVersionRequest.class, r -> {
      assertThat(r.name()).isEqualTo("platform-prod");
      assertThat(r.version()).isEqualTo("1.31");
      assertThat(r.clientRequestToken()).isNotBlank();
    });
    assertThat(upgrades.requests.get(1)).isInstanceOfSatisfying(UpdateNodegroupVersionRequest.class, r -> {
      assertThat(r.clusterName()).isEqualTo("platform-prod");
      assertThat(r.nodegroupName()).isEqualTo("default");
      assertThat(r.version()).isEqualTo("1.31");
    });
    JsonNode eks = inventory("""
        eks = boto3.client("eks", **kw)
        groups = eks.list_nodegroups(clusterName="platform-prod")["nodegroups"]
        print(json.dumps({"clusters": eks.list_clusters()["clusters"], "groups": [
            eks.describe_nodegroup(clusterName="platform-prod", nodegroupName=g)["nodegroup"]["scalingConfig"]
            for g in groups], "names": groups}))
        """);
    // the same cluster and node group, rescaled: nothing replaced
    assertThat(eks.get("clusters")).hasSize(1);
    assertThat(eks.get("names")).hasSize(1);
    assertThat(eks.at("/groups/0/minSize").asInt()).isEqualTo(3);
    assertThat(eks.at("/groups/0/maxSize").asInt()).isEqualTo(10);
    assertThat(eks.at("/groups/0/desiredSize").asInt()).isEqualTo(3);

    // a group added is made beside the others: none of its fields replaces anything
    KubernetesSpec withBatch = revised.toBuilder().nodeGroups(List.of(revised.nodeGroups().get(0),
        new dev.zop.provisioner.spec.NodeGroup("batch", "m5.large", 1, 3, null))).build();
    assertThat(zop.jobs().planRevision(job.id(), withBatch).changes())
        .filteredOn(c -> c.field().startsWith("nodeGroups[1]")).isNotEmpty()
        .allSatisfy(c -> assertThat(c.effect()).as(c.field()).isEqualTo(RevisionChange.Effect.IN_PLACE));

    // a new instance type: EKS cannot change a node group's, so a group of m5.xlarge replaces it
    KubernetesSpec larger = revised.toBuilder().nodeGroups(List.of(new dev.zop.provisioner.spec.NodeGroup("default",
        "m5.xlarge", 3, 10, null))).build();
    RevisionPlan replacing = zop.jobs().planRevision(job.id(), larger);
    assertThat(replacing.changes()).singleElement().satisfies(c -> {
      assertThat(c.field()).isEqualTo("nodeGroups[0].instanceType");
      assertThat(c.effect()).isEqualTo(RevisionChange.Effect.REPLACE);
      assertThat(c.note()).contains("drained");
    });
    assertThat(replacing.steps()).extracting(s -> s.name()).containsExactly("create-nodegroup-default-m5-xlarge",
        "await-nodegroup-default-m5-xlarge", "drain-and-delete-nodegroup-default");
    Job replaced = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(replaced.status()).as(String.valueOf(replaced.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    JsonNode after = inventory("""
        eks = boto3.client("eks", **kw)
        groups = eks.list_nodegroups(clusterName="platform-prod")["nodegroups"]
        print(json.dumps({"names": groups, "types": [eks.describe_nodegroup(clusterName="platform-prod",
            nodegroupName=g)["nodegroup"]["instanceTypes"] for g in groups]}))
        """);
    assertThat(after.get("names")).extracting(JsonNode::asText).containsExactly("default-m5-xlarge");
    assertThat(after.at("/types/0/0").asText()).isEqualTo("m5.xlarge");

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(inventory("""
        print(json.dumps(boto3.client("eks", **kw).list_clusters()["clusters"]))
        """)).isEmpty();
  }

  @Test
  void aPoolMovesToANewInstanceTypeOneInstanceAtATime() throws Exception {
    Ec2Client ec2 = MOTO.client(Ec2Client.builder());
    String vpc = ec2.createVpc(r -> r.cidrBlock("10.11.0.0/16")).vpc().vpcId();
    String subnet = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.11.1.0/24").availabilityZone("us-east-1a"))
        .subnet().subnetId();
    dev.zop.provisioner.spec.VmPoolSpec pool = dev.zop.provisioner.spec.VmPoolSpec.named("workers")
        .instanceType("t3.micro").size(3, 4).imageId("ami-12c6146b").vpcId(vpc).subnetIds(List.of(subnet)).build();
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), pool).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    String before = "print(json.dumps(sorted(i['InstanceType'] for g in boto3.client('autoscaling', **kw)"
        + ".describe_auto_scaling_groups()['AutoScalingGroups'] for i in g['Instances'])))";
    assertThat(inventory(before)).extracting(JsonNode::asText).containsExactly("t3.micro", "t3.micro", "t3.micro");

    dev.zop.provisioner.spec.VmPoolSpec larger = pool.toBuilder().instanceType("t3.large").build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), larger);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::effect)
        .containsExactly(tuple("instanceType", RevisionChange.Effect.REPLACE));
    assertThat(plan.steps()).extracting(s -> s.name()).containsExactly("new-launch-template-version",
        "replace-instances");
    assertThat(plan.after().monthlyTotal()).isGreaterThan(plan.before().monthlyTotal());
    Job rolled = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(rolled.status()).as(String.valueOf(rolled.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    // the same group, every instance replaced by one of the new type, the count kept
    JsonNode after = inventory("""
        groups = boto3.client("autoscaling", **kw).describe_auto_scaling_groups()["AutoScalingGroups"]
        ec2 = boto3.client("ec2", **kw)
        running = [i["InstanceType"] for r in ec2.describe_instances(Filters=[{"Name": "instance-state-name",
            "Values": ["running"]}])["Reservations"] for i in r["Instances"]]
        print(json.dumps({"groups": [g["AutoScalingGroupName"] for g in groups], "types": sorted(i["InstanceType"]
            for g in groups for i in g["Instances"]), "running": sorted(running)}))
        """);
    assertThat(after.get("groups")).hasSize(1);
    assertThat(after.get("types")).extracting(JsonNode::asText).containsExactly("t3.large", "t3.large", "t3.large");
    assertThat(after.get("running")).extracting(JsonNode::asText).containsExactly("t3.large", "t3.large",
        "t3.large");
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aCacheMovesToALargerNodeTypeWhereItStands() throws Exception {
    DatastoreSpec sessions = DatastoreSpec.redis().name("sessions").version("7.1").instanceClass("cache.t3.micro")
        .build();
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), sessions).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    DatastoreSpec larger = sessions.toBuilder().instanceClass("cache.m5.large").backupRetentionDays(14).build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), larger);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to)
        .containsExactlyInAnyOrder(tuple("instanceClass", "cache.t3.micro", "cache.m5.large"),
            tuple("backupRetentionDays", null, "14"));
    assertThat(plan.permissions()).contains("elasticache:ModifyReplicationGroup");
    assertThat(plan.after().monthlyTotal()).isGreaterThan(plan.before().monthlyTotal());
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), larger.toBuilder().multiAz(true).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).contains("config.multiAZ replica_change"));
    Job modified = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(modified.status()).as(String.valueOf(modified.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    // moto lacks ModifyReplicationGroup: the request the SDK sent, once, is what is asserted
    assertThat(caches.requests).singleElement().satisfies(r -> {
      assertThat(r.replicationGroupId()).isEqualTo("sessions");
      assertThat(r.cacheNodeType()).isEqualTo("cache.m5.large");
      assertThat(r.snapshotRetentionLimit()).isEqualTo(14);
      assertThat(r.applyImmediately()).isTrue();
    });
    // and the group is still the one the job made: nothing replaced
    JsonNode groups = inventory("""
        print(json.dumps([g["ReplicationGroupId"] for g in
            boto3.client("elasticache", **kw).describe_replication_groups()["ReplicationGroups"]]))
        """);
    assertThat(groups).extracting(JsonNode::asText).containsExactly("sessions");
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aRepositoryBecomesImmutableAndScannedWhereItStands() throws Exception {
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("platform/api")).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
    RegistrySpec revised = RegistrySpec.builder().name("platform/api").immutableTags(true).scanOnPush(true).build();
    RevisionPlan plan = zop.jobs().planRevision(job.id(), revised);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::effect).containsExactlyInAnyOrder(
        tuple("immutableTags", RevisionChange.Effect.IN_PLACE), tuple("scanOnPush", RevisionChange.Effect.IN_PLACE));
    assertThat(plan.permissions()).contains("ecr:PutImageTagMutability", "ecr:PutImageScanningConfiguration");
    assertThat(zop.jobs().await(zop.jobs().revise(job.id(), revised).id(), WAIT).status())
        .isEqualTo(JobStatus.SUCCEEDED);

    JsonNode repositories = inventory("""
        ecr = boto3.client("ecr", **kw)
        print(json.dumps([{"name": r["repositoryName"], "mutability": r["imageTagMutability"],
            "scan": r["imageScanningConfiguration"]["scanOnPush"]} for r in ecr.describe_repositories()["repositories"]]))
        """);
    assertThat(repositories).hasSize(1);
    assertThat(repositories.get(0).get("name").asText()).isEqualTo("platform/api");
    assertThat(repositories.get(0).get("mutability").asText()).isEqualTo("IMMUTABLE");
    assertThat(repositories.get(0).get("scan").asBoolean()).isTrue();
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }
}
