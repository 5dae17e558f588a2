package dev.zop.provisioner.aws;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.math.BigDecimal;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.elasticache.model.ReplicationGroup;
import software.amazon.awssdk.services.elasticache.model.ReplicationGroupNotFoundException;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DBInstance;
import software.amazon.awssdk.services.rds.model.DbInstanceNotFoundException;
import software.amazon.awssdk.services.rds.model.DbSubnetGroupNotFoundException;
import software.amazon.awssdk.services.rds.model.Tag;

/**
 * RDS PostgreSQL/MySQL (optionally in a subnet group of the given subnets, and behind a security group open to
 * its VPC when a VPC is given) with a generated master password
 * kept in Secrets Manager, or an ElastiCache Redis replication group. The endpoint and the secret's ARN are
 * the job's outputs, so databases can be created on the server. Teardown of an RDS instance keeps a final
 * snapshot: deleting a datastore never loses its data.
 */
final class DatastoreDriver implements ResourceDriver<DatastoreSpec> {
  private static final String MASTER_USER = "zopadmin";
  private static final char[] PASSWORD = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789".toCharArray();

  private final RdsClient rds;
  private final ElastiCacheClient cache;
  private final Ec2Client ec2;
  private final SecureRandom random = new SecureRandom();

  /** How long to wait before looking again at a resource still being created or deleted. */
  private final Duration poll;

  DatastoreDriver(RdsClient rds, ElastiCacheClient cache, Ec2Client ec2, Duration poll) {
    this.rds = rds;
    this.cache = cache;
    this.ec2 = ec2;
    this.poll = poll;
  }

  @Override
  public Class<DatastoreSpec> specType() {
    return DatastoreSpec.class;
  }

  @Override
  public List<FieldError> validate(DatastoreSpec spec) {
    String prefix = spec.engine() == DatastoreEngine.REDIS ? "cache." : "db.";
    if (!spec.instanceClass().startsWith(prefix)) {
      return List.of(FieldError.of("instanceClass", "invalid_value",
          spec.engine().wireName() + " instance classes start with '" + prefix + "', e.g. " + prefix + "t3.medium"));
    }
    return List.of();
  }

  @Override
  public List<Step> create(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return List.of(
          new AwsStep("create-replication-group", List.of("elasticache:DescribeReplicationGroups",
              "elasticache:CreateReplicationGroup", "elasticache:AddTagsToResource"), ctx -> createRedis(ctx, spec)),
          new AwsStep("await-replication-group", List.of("elasticache:DescribeReplicationGroups"), this::awaitRedis));
    }
    List<Step> steps = new ArrayList<>();
    if (!spec.subnetIds().isEmpty()) {
      steps.add(new AwsStep("create-subnet-group", List.of("rds:DescribeDBSubnetGroups", "rds:CreateDBSubnetGroup",
          "rds:AddTagsToResource"), ctx -> createSubnetGroup(ctx, spec)));
    }
    if (spec.vpcId() != null) {
      steps.add(new AwsStep("create-security-group", List.of("ec2:DescribeSecurityGroups", "ec2:DescribeVpcs",
          "ec2:CreateSecurityGroup", "ec2:CreateTags", "ec2:AuthorizeSecurityGroupIngress"),
          ctx -> createSecurityGroup(ctx, spec)));
    }
    steps.add(new AwsStep("create-master-secret", List.of("secretsmanager:CreateSecret",
        "secretsmanager:PutSecretValue", "secretsmanager:TagResource"), this::createMasterSecret));
    steps.add(new AwsStep("create-db-instance", List.of("rds:DescribeDBInstances", "rds:CreateDBInstance",
        "rds:AddTagsToResource", "secretsmanager:GetSecretValue"), ctx -> createDatabase(ctx, spec)));
    steps.add(new AwsStep("await-db-instance", List.of("rds:DescribeDBInstances"), ctx -> awaitDatabase(ctx, spec)));
    return steps;
  }

  @Override
  public List<Step> teardown(DatastoreSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (recorded.has("replicationGroupId")) {
      steps.add(new AwsStep("delete-replication-group", List.of("elasticache:DescribeReplicationGroups",
          "elasticache:DeleteReplicationGroup"), ctx -> deleteRedis(recorded.get("replicationGroupId"))));
    }
    if (recorded.has("dbInstanceIdentifier")) {
      String id = recorded.get("dbInstanceIdentifier");
      steps.add(new AwsStep("delete-db-instance", List.of("rds:DescribeDBInstances", "rds:DeleteDBInstance",
          "rds:CreateDBSnapshot"), ctx -> deleteDatabase(ctx, id)));
    }
    if (recorded.has("dbSecurityGroupName")) {
      String name = recorded.get("dbSecurityGroupName");
      steps.add(new AwsStep("delete-security-group", List.of("ec2:DescribeSecurityGroups",
          "ec2:DeleteSecurityGroup"), ctx -> deleteSecurityGroup(name, spec.vpcId())));
    }
    if (recorded.has("dbSubnetGroupName")) {
      String name = recorded.get("dbSubnetGroupName");
      steps.add(new AwsStep("delete-subnet-group", List.of("rds:DeleteDBSubnetGroup"), ctx -> deleteSubnetGroup(name)));
    }
    if (recorded.has("adminSecretRef")) {
      SecretRef ref = SecretRef.of(recorded.get("adminSecretRef"));
      steps.add(new AwsStep("delete-master-secret", List.of("secretsmanager:DeleteSecret"), ctx -> {
        ctx.secrets().delete(ref);
        return StepResult.done();
      }));
    }
    return steps;
  }

  @Override
  public List<CostComponent> price(DatastoreSpec spec, String region) {
    int copies = spec.multiAz() ? 2 : 1;
    if (spec.engine() == DatastoreEngine.REDIS) {
      return List.of(AwsPrices.hourly(region, "ElastiCache " + spec.instanceClass() + " x" + copies,
          "elasticache:" + spec.instanceClass(), copies));
    }
    return List.of(
        AwsPrices.hourly(region, "RDS " + spec.engine().wireName() + " " + spec.instanceClass()
            + (spec.multiAz() ? " (multi-AZ)" : ""), "rds-" + spec.engine().wireName() + ":" + spec.instanceClass(),
            copies),
        AwsPrices.monthly(region, "gp2 storage", "GB-month", "rds:gp2-storage-gb",
            BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies)));
  }

  // ---- RDS ---------------------------------------------------------------------------------------------

  private static String identifier(StepContext ctx, DatastoreSpec spec) {
    return spec.name() != null ? spec.name() : ctx.resourceName("db");
  }

  private StepResult createSubnetGroup(StepContext ctx, DatastoreSpec spec) {
    String name = ctx.resourceName("db-subnets");
    try {
      AwsErrors.call("rds:DescribeDBSubnetGroups", () -> rds.describeDBSubnetGroups(r -> r.dbSubnetGroupName(name)));
    } catch (AwsActionException e) {
      if (!(e.getCause() instanceof DbSubnetGroupNotFoundException)) {
        throw e;
      }
      ctx.recordIntent(Map.of("dbSubnetGroupName", name));
      AwsErrors.call("rds:CreateDBSubnetGroup", () -> rds.createDBSubnetGroup(r -> r.dbSubnetGroupName(name)
          .dbSubnetGroupDescription("zop job " + ctx.jobId()).subnetIds(spec.subnetIds()).tags(jobTag(ctx))));
    }
    return StepResult.done(Map.of("dbSubnetGroupName", name));
  }

  /** A security group that lets the VPC, and only the VPC, reach the database port. */
  private StepResult createSecurityGroup(StepContext ctx, DatastoreSpec spec) {
    String name = ctx.resourceName("db-sg");
    String id = findSecurityGroup(name, spec.vpcId());
    if (id == null) {
      ctx.recordIntent(Map.of("dbSecurityGroupName", name));
      String cidr = AwsErrors.call("ec2:DescribeVpcs", () -> ec2.describeVpcs(r -> r.vpcIds(spec.vpcId()))).vpcs()
          .get(0).cidrBlock();
      String created = AwsErrors.call("ec2:CreateSecurityGroup", () -> ec2.createSecurityGroup(r -> r.groupName(name)
          .description("zop datastore " + ctx.jobId()).vpcId(spec.vpcId())
          .tagSpecifications(t -> t.resourceType(ResourceType.SECURITY_GROUP)
              .tags(tag -> tag.key(AwsTags.JOB).value(ctx.jobId().value()))))).groupId();
      int port = spec.engine().defaultPort();
      AwsErrors.call("ec2:AuthorizeSecurityGroupIngress", () -> ec2.authorizeSecurityGroupIngress(r -> r
          .groupId(created).ipPermissions(p -> p.ipProtocol("tcp").fromPort(port).toPort(port)
              .ipRanges(range -> range.cidrIp(cidr).description("the datastore's VPC")))));
      id = created;
    }
    return StepResult.done(Map.of("dbSecurityGroupName", name, "dbSecurityGroupId", id));
  }

  private StepResult deleteSecurityGroup(String name, String vpcId) {
    String id = findSecurityGroup(name, vpcId);
    if (id != null) {
      AwsErrors.call("ec2:DeleteSecurityGroup", () -> ec2.deleteSecurityGroup(r -> r.groupId(id)));
    }
    return StepResult.done();
  }

  private String findSecurityGroup(String name, String vpcId) {
    var groups = AwsErrors.call("ec2:DescribeSecurityGroups", () -> ec2.describeSecurityGroups(r -> r.filters(
        f -> f.name("group-name").values(name), f -> f.name("vpc-id").values(vpcId)))).securityGroups();
    return groups.isEmpty() ? null : groups.get(0).groupId();
  }

  private StepResult createMasterSecret(StepContext ctx) {
    String existing = ctx.outputs().get("adminSecretRef");
    SecretRef ref = existing != null ? SecretRef.of(existing)
        : ctx.secrets().put("zop/" + ctx.jobId() + "/master", generatePassword());
    return StepResult.done(Map.of("adminSecretRef", ref.value(), "adminUser", MASTER_USER));
  }

  private StepResult createDatabase(StepContext ctx, DatastoreSpec spec) {
    String id = identifier(ctx, spec);
    DBInstance existing = findDatabase(id);
    if (existing != null && !existing.tagList().contains(jobTag(ctx))) {
      return StepResult.fail(dev.zop.provisioner.Failure.userAction("name_in_use", "RDS instance " + id
          + " exists and was not created by this job", "Choose another name for the datastore.",
          "https://console.aws.amazon.com/rds/home#databases:"));
    }
    if (existing == null) {
      ctx.recordIntent(Map.of("dbInstanceIdentifier", id));
      String password = ctx.secrets().get(SecretRef.of(ctx.outputs().require("adminSecretRef")));
      String subnetGroup = ctx.outputs().get("dbSubnetGroupName");
      String securityGroup = ctx.outputs().get("dbSecurityGroupId");
      AwsErrors.call("rds:CreateDBInstance", () -> rds.createDBInstance(r -> {
        r.dbInstanceIdentifier(id).engine(spec.engine().wireName()).engineVersion(spec.version())
            .dbInstanceClass(spec.instanceClass()).allocatedStorage(spec.allocatedStorageGb())
            .multiAZ(spec.multiAz()).backupRetentionPeriod(spec.backupRetentionDays() == null ? 7
                : spec.backupRetentionDays())
            .masterUsername(MASTER_USER).masterUserPassword(password).storageEncrypted(true).tags(jobTag(ctx));
        if (subnetGroup != null) {
          r.dbSubnetGroupName(subnetGroup);
        }
        if (securityGroup != null) {
          r.vpcSecurityGroupIds(securityGroup);
        }
      }));
    }
    return StepResult.done(Map.of("dbInstanceIdentifier", id, "engine", spec.engine().wireName()));
  }

  private StepResult awaitDatabase(StepContext ctx, DatastoreSpec spec) {
    DBInstance db = findDatabase(ctx.outputs().require("dbInstanceIdentifier"));
    if (db == null) {
      return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing",
          "RDS instance " + ctx.outputs().get("dbInstanceIdentifier") + " disappeared while it was being created"));
    }
    if (!"available".equals(db.dbInstanceStatus()) || db.endpoint() == null) {
      return StepResult.waitFor(poll, "RDS instance " + db.dbInstanceIdentifier() + " is " + db.dbInstanceStatus());
    }
    return StepResult.done(Map.of("host", db.endpoint().address(), "port", String.valueOf(db.endpoint().port()),
        "dbInstanceArn", db.dbInstanceArn()));
  }

  private StepResult deleteDatabase(StepContext ctx, String id) {
    DBInstance db = findDatabase(id);
    if (db == null) {
      return StepResult.done();
    }
    if (!db.tagList().contains(jobTag(ctx))) {
      ctx.log("RDS instance " + id + " is not this job's; left in place");
      return StepResult.done();
    }
    if (!"deleting".equals(db.dbInstanceStatus())) {
      String snapshot = (id + "-final-" + ctx.clientToken("final-snapshot").substring(0, 8)).toLowerCase();
      AwsErrors.call("rds:DeleteDBInstance", () -> rds.deleteDBInstance(r -> r.dbInstanceIdentifier(id)
          .skipFinalSnapshot(false).finalDBSnapshotIdentifier(snapshot)));
      ctx.log("deleting RDS instance " + id + "; final snapshot " + snapshot);
    }
    return findDatabase(id) == null ? StepResult.done()
        : StepResult.waitFor(poll, "RDS instance " + id + " is being deleted");
  }

  private StepResult deleteSubnetGroup(String name) {
    try {
      AwsErrors.call("rds:DeleteDBSubnetGroup", () -> rds.deleteDBSubnetGroup(r -> r.dbSubnetGroupName(name)));
    } catch (AwsActionException e) {
      if (!(e.getCause() instanceof DbSubnetGroupNotFoundException)) {
        throw e;
      }
    }
    return StepResult.done();
  }

  private DBInstance findDatabase(String id) {
    try {
      return AwsErrors.call("rds:DescribeDBInstances", () -> rds.describeDBInstances(r -> r.dbInstanceIdentifier(id)))
          .dbInstances().get(0);
    } catch (AwsActionException e) {
      if (e.getCause() instanceof DbInstanceNotFoundException) {
        return null;
      }
      throw e;
    }
  }

  // ---- ElastiCache ---------------------------------------------------------------------------------------

  private StepResult createRedis(StepContext ctx, DatastoreSpec spec) {
    String id = spec.name() != null ? spec.name() : ctx.resourceName("cache");
    if (findRedis(id) == null) {
      ctx.recordIntent(Map.of("replicationGroupId", id));
      AwsErrors.call("elasticache:CreateReplicationGroup", () -> cache.createReplicationGroup(r -> r
          .replicationGroupId(id).replicationGroupDescription("zop job " + ctx.jobId()).engine("redis")
          .engineVersion(spec.version()).cacheNodeType(spec.instanceClass())
          .numCacheClusters(spec.multiAz() ? 2 : 1).automaticFailoverEnabled(spec.multiAz())
          .multiAZEnabled(spec.multiAz())
          .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value()))));
    }
    return StepResult.done(Map.of("replicationGroupId", id, "engine", "redis"));
  }

  private StepResult awaitRedis(StepContext ctx) {
    ReplicationGroup group = findRedis(ctx.outputs().require("replicationGroupId"));
    if (group == null || !"available".equals(group.status()) || group.nodeGroups().isEmpty()
        || group.nodeGroups().get(0).primaryEndpoint() == null) {
      return StepResult.waitFor(poll, "replication group " + ctx.outputs().get("replicationGroupId") + " is "
          + (group == null ? "not visible yet" : group.status()));
    }
    var endpoint = group.nodeGroups().get(0).primaryEndpoint();
    return StepResult.done(Map.of("host", endpoint.address(), "port", String.valueOf(endpoint.port())));
  }

  /**
   * Nothing the job made depends on the replication group, so teardown is done once ElastiCache has accepted
   * its deletion ({@code deleting}); waiting for it to vanish would only hold the job.
   */
  private StepResult deleteRedis(String id) {
    ReplicationGroup group = findRedis(id);
    if (group != null && !"deleting".equals(group.status())) {
      AwsErrors.call("elasticache:DeleteReplicationGroup",
          () -> cache.deleteReplicationGroup(r -> r.replicationGroupId(id)));
    }
    return StepResult.done();
  }

  private ReplicationGroup findRedis(String id) {
    try {
      return AwsErrors.call("elasticache:DescribeReplicationGroups",
          () -> cache.describeReplicationGroups(r -> r.replicationGroupId(id))).replicationGroups().get(0);
    } catch (AwsActionException e) {
      if (e.getCause() instanceof ReplicationGroupNotFoundException) {
        return null;
      }
      throw e;
    }
  }

  private static Tag jobTag(StepContext ctx) {
    return Tag.builder().key(AwsTags.JOB).value(ctx.jobId().value()).build();
  }

  private String generatePassword() {
    char[] out = new char[32];
    for (int i = 0; i < out.length; i++) {
      out[i] = PASSWORD[random.nextInt(PASSWORD.length)];
    }
    return new String(out);
  }
}
