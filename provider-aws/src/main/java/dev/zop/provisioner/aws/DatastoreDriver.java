package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.GeneratedSecrets;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.elasticache.model.ReplicationGroup;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DBInstance;
import software.amazon.awssdk.services.rds.model.Tag;

/**
 * RDS PostgreSQL/MySQL (optionally in a subnet group of the given subnets, and behind a security group open to
 * its VPC when a VPC is given) with a generated master password
 * kept in Secrets Manager, or an ElastiCache Redis replication group. The endpoint and the secret's ARN are
 * the job's outputs, so databases can be created on the server. Teardown of an RDS instance keeps a final
 * snapshot: deleting a datastore never loses its data.
 */
final class DatastoreDriver implements ResourceDriver<DatastoreSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> DB_SUBNET_GROUP_NAME = OutputKey.text("dbSubnetGroupName");
  static final OutputKey<String> DB_SECURITY_GROUP_NAME = OutputKey.text("dbSecurityGroupName");
  static final OutputKey<String> DB_SECURITY_GROUP_ID = OutputKey.text("dbSecurityGroupId");
  static final OutputKey<String> DB_INSTANCE_IDENTIFIER = OutputKey.text("dbInstanceIdentifier");
  static final OutputKey<String> DB_INSTANCE_ARN = OutputKey.text("dbInstanceArn");
  static final OutputKey<String> REPLICATION_GROUP_ID = OutputKey.text("replicationGroupId");
  static final OutputKey<SecretRef> AUTH_SECRET_REF = OutputKey.secretRef("authSecretRef");

  private static final String MASTER_USER = "zopadmin";

  private final RdsClient rds;
  private final ElastiCacheClient cache;
  private final Ec2Client ec2;

  /** How long to wait before looking again at a resource still being created or deleted. */
  private final StatusPoll poll;

  private final SecurityGroups groups;

  DatastoreDriver(RdsClient rds, ElastiCacheClient cache, Ec2Client ec2, Duration poll) {
    this.rds = rds;
    this.cache = cache;
    this.ec2 = ec2;
    this.groups = new SecurityGroups(ec2);
    this.poll = StatusPoll.every(poll);
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
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(DatastoreDriver.class).and(SharedOutputs.datastore());
  }

  @Override
  public List<Step> create(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return List.of(
          ProviderStep.of("create-auth-token", List.of(SECRETS_CREATE_SECRET, SECRETS_PUT_SECRET_VALUE,
              SECRETS_TAG_RESOURCE), this::createAuthToken),
          ProviderStep.of("create-replication-group", List.of(ELASTICACHE_DESCRIBE_REPLICATION_GROUPS,
              ELASTICACHE_LIST_TAGS_FOR_RESOURCE, ELASTICACHE_CREATE_REPLICATION_GROUP,
              ELASTICACHE_ADD_TAGS_TO_RESOURCE, SECRETS_GET_SECRET_VALUE),
              ctx -> createRedis(ctx, spec)),
          ProviderStep.of("await-replication-group", List.of(ELASTICACHE_DESCRIBE_REPLICATION_GROUPS), this::awaitRedis));
    }
    List<Step> steps = new ArrayList<>();
    if (!spec.subnetIds().isEmpty()) {
      steps.add(ProviderStep.of("create-subnet-group", List.of(RDS_DESCRIBE_DB_SUBNET_GROUPS, RDS_CREATE_DB_SUBNET_GROUP,
          RDS_ADD_TAGS_TO_RESOURCE), ctx -> createSubnetGroup(ctx, spec)));
    }
    if (spec.vpcId() != null) {
      steps.add(ProviderStep.of("create-security-group", List.of(EC2_DESCRIBE_SECURITY_GROUPS, EC2_DESCRIBE_VPCS,
          EC2_CREATE_SECURITY_GROUP, EC2_CREATE_TAGS, EC2_AUTHORIZE_SECURITY_GROUP_INGRESS),
          ctx -> createSecurityGroup(ctx, spec)));
    }
    steps.add(ProviderStep.of("create-master-secret", List.of(SECRETS_CREATE_SECRET,
        SECRETS_PUT_SECRET_VALUE, SECRETS_TAG_RESOURCE), this::createMasterSecret));
    steps.add(ProviderStep.of("create-db-instance", List.of(RDS_DESCRIBE_DB_INSTANCES, RDS_CREATE_DB_INSTANCE,
        RDS_ADD_TAGS_TO_RESOURCE, SECRETS_GET_SECRET_VALUE), ctx -> createDatabase(ctx, spec)));
    steps.add(ProviderStep.of("await-db-instance", List.of(RDS_DESCRIBE_DB_INSTANCES), ctx -> awaitDatabase(ctx, spec)));
    return steps;
  }

  /**
   * An RDS instance's class, storage, backup retention and Multi-AZ change where it stands (ModifyDBInstance,
   * applied at once), and the job waits until RDS has made each; storage never shrinks, and the engine never
   * changes. A cache changes its node type ({@link #reviseRedis}).
   */
  @Override
  public Revision revise(DatastoreSpec current, DatastoreSpec revised, Outputs recorded) {
    if (revised.engine() == DatastoreEngine.REDIS && current.engine() == DatastoreEngine.REDIS) {
      return reviseRedis(current, revised, recorded);
    }
    if (revised.engine() == DatastoreEngine.REDIS || !recorded.has(DB_INSTANCE_IDENTIFIER)) {
      return Revision.none();
    }
    String id = recorded.get(DB_INSTANCE_IDENTIFIER);
    Revision revision = Revision.of(List.of(
        ProviderStep.of("modify-db-instance", List.of(RDS_DESCRIBE_DB_INSTANCES, RDS_MODIFY_DB_INSTANCE),
            ctx -> modifyDatabase(ctx, id, revised)),
        ProviderStep.of("await-db-instance-modified", List.of(RDS_DESCRIBE_DB_INSTANCES),
            ctx -> awaitModified(ctx, id, revised))))
        .inPlace("instanceClass", "allocatedStorageGB", "backupRetentionDays", "multiAZ");
    return RevisionRules.keepsData(revision, "an RDS instance", current, revised);
  }

  /**
   * An RDS instance's class, storage, Multi-AZ and backup retention read back, and its security group's opening of
   * the database port to the VPC. A cache is not checked.
   */
  @Override
  public CloudRead<List<Drift>> observe(DatastoreSpec spec, Outputs recorded) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return null;
    }
    return ProviderRead.of(List.of(RDS_DESCRIBE_DB_INSTANCES, EC2_DESCRIBE_SECURITY_GROUPS, EC2_DESCRIBE_VPCS), () -> {
      DriftFindings found = new DriftFindings();
      String id = recorded.get(DB_INSTANCE_IDENTIFIER);
      if (id != null) {
        DBInstance db = findDatabase(id);
        String resource = "rds instance " + id;
        if (db == null) {
          found.missing(resource);
        } else {
          found.compare(resource, "instanceClass", spec.instanceClass(), db.dbInstanceClass())
              .compare(resource, "allocatedStorageGB", spec.allocatedStorageGb(), db.allocatedStorage())
              .compare(resource, "multiAZ", spec.multiAz(), db.multiAZ())
              .compare(resource, "backupRetentionDays", retention(spec), db.backupRetentionPeriod());
        }
      }
      String groupId = recorded.get(DB_SECURITY_GROUP_ID);
      if (groupId != null && spec.vpcId() != null) {
        var answer = CALLS.findOrNull(EC2_DESCRIBE_SECURITY_GROUPS,
            () -> ec2.describeSecurityGroups(r -> r.groupIds(groupId)));
        SecurityGroup group = answer == null ? null : answer.securityGroups().stream().findFirst().orElse(null);
        if (group == null) {
          found.missing("security group " + groupId);
        } else {
          String cidr = CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(spec.vpcId()))).vpcs()
              .get(0).cidrBlock();
          int port = spec.engine().defaultPort();
          if (!groups.opens(group, port, cidr)) {
            found.absent("security group " + groupId, DB_PORT_RULE, "tcp/" + port + " from " + cidr);
          }
        }
      }
      return found.list();
    });
  }

  /** The drift field of the security group's rule that lets the VPC reach the database port. */
  static final String DB_PORT_RULE = "securityGroup.ingress";

  /**
   * The instance's attributes set back where they stand (as a revision to the same spec would) and the database
   * port opened to the VPC again; what is right is left.
   */
  @Override
  public Revision reconcile(DatastoreSpec spec, Outputs recorded) {
    if (spec.engine() == DatastoreEngine.REDIS || !recorded.has(DB_INSTANCE_IDENTIFIER)) {
      return Revision.none();
    }
    String id = recorded.get(DB_INSTANCE_IDENTIFIER);
    List<Step> steps = new ArrayList<>();
    String groupId = recorded.get(DB_SECURITY_GROUP_ID);
    if (groupId != null && spec.vpcId() != null) {
      steps.add(ProviderStep.of("open-db-port-to-vpc", List.of(EC2_DESCRIBE_VPCS, EC2_DESCRIBE_SECURITY_GROUPS,
          EC2_AUTHORIZE_SECURITY_GROUP_INGRESS), ctx -> {
            String cidr = CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(spec.vpcId()))).vpcs()
                .get(0).cidrBlock();
            groups.allowCidr(groupId, spec.vpcId(), spec.engine().defaultPort(), cidr, "the datastore's VPC");
            return StepResult.done();
          }));
    }
    steps.add(ProviderStep.of("modify-db-instance", List.of(RDS_DESCRIBE_DB_INSTANCES, RDS_MODIFY_DB_INSTANCE),
        ctx -> modifyDatabase(ctx, id, spec)));
    steps.add(ProviderStep.of("await-db-instance-modified", List.of(RDS_DESCRIBE_DB_INSTANCES),
        ctx -> awaitModified(ctx, id, spec)));
    Revision revision = Revision.of(steps).inPlace("instanceClass", "backupRetentionDays", "multiAZ", DB_PORT_RULE);
    // storage grows where it stands; storage made larger by hand cannot shrink back
    return revision.refuse("allocatedStorageGB", "storage_shrink", "RDS storage cannot shrink; revise the job to"
        + " the storage the instance has");
  }

  /** Whether the instance has (or RDS is making) what the revised spec asks. */
  private static boolean asRevised(DBInstance db, DatastoreSpec revised) {
    var pending = db.pendingModifiedValues();
    String instanceClass = pending != null && pending.dbInstanceClass() != null ? pending.dbInstanceClass()
        : db.dbInstanceClass();
    Integer storage = pending != null && pending.allocatedStorage() != null ? pending.allocatedStorage()
        : db.allocatedStorage();
    Boolean multiAz = pending != null && pending.multiAZ() != null ? pending.multiAZ() : db.multiAZ();
    Integer retention = pending != null && pending.backupRetentionPeriod() != null
        ? pending.backupRetentionPeriod() : db.backupRetentionPeriod();
    // RDS storage never shrinks: more than the config asks (grown by hand, which a reconcile keeps) is as revised
    return revised.instanceClass().equals(instanceClass) && storage != null && storage >= revised.allocatedStorageGb()
        && Boolean.valueOf(revised.multiAz()).equals(multiAz) && retention(revised).equals(retention);
  }

  private static Integer retention(DatastoreSpec spec) {
    return spec.backupRetentionDays() == null ? 7 : spec.backupRetentionDays();
  }

  /** Asks RDS for what differs, unless it already has (or is making) it: a resumed step asks nothing twice. */
  private StepResult modifyDatabase(StepContext ctx, String id, DatastoreSpec revised) throws Exception {
    return AwsTags.OWNER.changeInPlace(ctx, "RDS instance", id, () -> findDatabase(id), DatastoreDriver::tagsOf,
        db -> asRevised(db, revised), db -> {
          int storage = db.allocatedStorage() == null ? revised.allocatedStorageGb()
              : Math.max(revised.allocatedStorageGb(), db.allocatedStorage());
          CALLS.call(RDS_MODIFY_DB_INSTANCE, () -> rds.modifyDBInstance(r -> r.dbInstanceIdentifier(id)
              .applyImmediately(true).dbInstanceClass(revised.instanceClass())
              .allocatedStorage(storage).multiAZ(revised.multiAz())
              .backupRetentionPeriod(retention(revised))));
          ctx.log("asked RDS to change instance " + id + " to " + revised.instanceClass() + ", "
              + storage + " GB, " + retention(revised) + " days of backups"
              + (revised.multiAz() ? ", Multi-AZ" : ""));
        });
  }

  private static Map<String, String> tagsOf(DBInstance db) {
    return AwsTags.asMap(db.tagList(), Tag::key, Tag::value);
  }

  /** Waits until the instance is available with every change made, none pending. */
  private StepResult awaitModified(StepContext ctx, String id, DatastoreSpec revised) throws Exception {
    return poll.awaitReady(ctx, "RDS instance " + id, () -> findDatabase(id), DBInstance::dbInstanceStatus,
        db -> "available".equals(db.dbInstanceStatus()) && asRevised(db, revised) && noneOutstanding(db),
        db -> null, db -> StepResult.done());
  }

  private static boolean noneOutstanding(DBInstance db) {
    var pending = db.pendingModifiedValues();
    return pending == null || (pending.dbInstanceClass() == null && pending.allocatedStorage() == null
        && pending.multiAZ() == null && pending.backupRetentionPeriod() == null);
  }

  @Override
  public List<Step> teardown(DatastoreSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (recorded.has(REPLICATION_GROUP_ID)) {
      steps.add(ProviderStep.of("delete-replication-group", List.of(ELASTICACHE_DESCRIBE_REPLICATION_GROUPS,
          ELASTICACHE_LIST_TAGS_FOR_RESOURCE, ELASTICACHE_DELETE_REPLICATION_GROUP),
          ctx -> deleteRedis(ctx, recorded.get(REPLICATION_GROUP_ID))));
    }
    if (recorded.has(DB_INSTANCE_IDENTIFIER)) {
      String id = recorded.get(DB_INSTANCE_IDENTIFIER);
      steps.add(ProviderStep.of("delete-db-instance", List.of(RDS_DESCRIBE_DB_INSTANCES, RDS_DELETE_DB_INSTANCE,
          RDS_CREATE_DB_SNAPSHOT), ctx -> deleteDatabase(ctx, id)));
    }
    if (recorded.has(DB_SECURITY_GROUP_NAME)) {
      String name = recorded.get(DB_SECURITY_GROUP_NAME);
      steps.add(ProviderStep.of("delete-security-group", List.of(EC2_DESCRIBE_SECURITY_GROUPS,
          EC2_DELETE_SECURITY_GROUP), ctx -> deleteSecurityGroup(name, spec.vpcId())));
    }
    if (recorded.has(DB_SUBNET_GROUP_NAME)) {
      String name = recorded.get(DB_SUBNET_GROUP_NAME);
      steps.add(ProviderStep.of("delete-subnet-group", List.of(RDS_DELETE_DB_SUBNET_GROUP), ctx -> deleteSubnetGroup(name)));
    }
    if (recorded.has(AUTH_SECRET_REF)) {
      SecretRef token = recorded.get(AUTH_SECRET_REF);
      steps.add(ProviderStep.of("delete-auth-token", List.of(SECRETS_DELETE_SECRET), ctx -> {
        ctx.secrets().delete(token);
        return StepResult.done();
      }));
    }
    if (recorded.has(SharedOutputs.ADMIN_SECRET_REF)) {
      SecretRef ref = recorded.get(SharedOutputs.ADMIN_SECRET_REF);
      steps.add(ProviderStep.of("delete-master-secret", List.of(SECRETS_DELETE_SECRET), ctx -> {
        ctx.secrets().delete(ref);
        return StepResult.done();
      }));
    }
    return steps;
  }

  @Override
  public String pricesAsOf() {
    return AwsPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(DatastoreSpec spec, String region) {
    int copies = spec.multiAz() ? 2 : 1;
    if (spec.engine() == DatastoreEngine.REDIS) {
      return List.of(AwsPrices.TABLE.hourly(region, "ElastiCache " + spec.instanceClass() + " x" + copies,
          "elasticache:" + spec.instanceClass(), copies));
    }
    return List.of(
        AwsPrices.TABLE.hourly(region, "RDS " + spec.engine().wireName() + " " + spec.instanceClass()
            + (spec.multiAz() ? " (multi-AZ)" : ""), "rds-" + spec.engine().wireName() + ":" + spec.instanceClass(),
            copies),
        AwsPrices.TABLE.monthly(region, "gp2 storage", "GB-month", "rds:gp2-storage-gb",
            BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies)));
  }

  // ---- RDS ---------------------------------------------------------------------------------------------

  private static String identifier(StepContext ctx, DatastoreSpec spec) {
    return spec.name() != null ? spec.name() : ctx.resourceName("db");
  }

  private StepResult createSubnetGroup(StepContext ctx, DatastoreSpec spec) {
    String name = ctx.resourceName("db-subnets");
    if (CALLS.findOrNull(RDS_DESCRIBE_DB_SUBNET_GROUPS,
        () -> rds.describeDBSubnetGroups(r -> r.dbSubnetGroupName(name))) == null) {
      ctx.recordIntent(Map.ofEntries(DB_SUBNET_GROUP_NAME.is(name)));
      CALLS.call(RDS_CREATE_DB_SUBNET_GROUP, () -> rds.createDBSubnetGroup(r -> r.dbSubnetGroupName(name)
          .dbSubnetGroupDescription("zop job " + ctx.jobId()).subnetIds(spec.subnetIds()).tags(jobTag(ctx))));
    }
    return StepResult.done(DB_SUBNET_GROUP_NAME.is(name));
  }

  /** A security group that lets the VPC, and only the VPC, reach the database port. */
  private StepResult createSecurityGroup(StepContext ctx, DatastoreSpec spec) {
    String name = ctx.resourceName("db-sg");
    String id = groups.ensure(ctx, DB_SECURITY_GROUP_NAME, name, spec.vpcId(), "zop datastore " + ctx.jobId());
    String cidr = CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(spec.vpcId()))).vpcs()
        .get(0).cidrBlock();
    groups.allowCidr(id, spec.vpcId(), spec.engine().defaultPort(), cidr, "the datastore's VPC");
    return StepResult.done(DB_SECURITY_GROUP_NAME.is(name), DB_SECURITY_GROUP_ID.is(id));
  }

  private StepResult deleteSecurityGroup(String name, String vpcId) {
    groups.delete(name, vpcId);
    return StepResult.done();
  }

  private StepResult createMasterSecret(StepContext ctx) {
    SecretRef ref = GeneratedSecrets.passwordFor(ctx, SharedOutputs.ADMIN_SECRET_REF, "zop/" + ctx.jobId() + "/master");
    return StepResult.done(SharedOutputs.ADMIN_SECRET_REF.is(ref), SharedOutputs.ADMIN_USER.is(MASTER_USER));
  }

  private StepResult createDatabase(StepContext ctx, DatastoreSpec spec) throws Exception {
    String id = identifier(ctx, spec);
    return AwsTags.OWNER.createOrAdopt(ctx, "RDS instance", id, () -> findDatabase(id), DatastoreDriver::tagsOf,
        Map.ofEntries(DB_INSTANCE_IDENTIFIER.is(id)), () -> {
          String password = ctx.secrets().get(ctx.outputs().require(SharedOutputs.ADMIN_SECRET_REF));
          String subnetGroup = ctx.outputs().get(DB_SUBNET_GROUP_NAME);
          String securityGroup = ctx.outputs().get(DB_SECURITY_GROUP_ID);
          CALLS.call(RDS_CREATE_DB_INSTANCE, () -> rds.createDBInstance(r -> {
            r.dbInstanceIdentifier(id).engine(spec.engine().wireName()).engineVersion(spec.version())
                .dbInstanceClass(spec.instanceClass()).allocatedStorage(spec.allocatedStorageGb())
                .multiAZ(spec.multiAz()).backupRetentionPeriod(retention(spec))
                .masterUsername(MASTER_USER).masterUserPassword(password).storageEncrypted(true).tags(jobTag(ctx));
            if (subnetGroup != null) {
              r.dbSubnetGroupName(subnetGroup);
            }
            if (securityGroup != null) {
              r.vpcSecurityGroupIds(securityGroup);
            }
          }));
        }, Map.ofEntries(DB_INSTANCE_IDENTIFIER.is(id), SharedOutputs.ENGINE.is(spec.engine().wireName())));
  }

  private StepResult awaitDatabase(StepContext ctx, DatastoreSpec spec) throws Exception {
    String id = ctx.outputs().require(DB_INSTANCE_IDENTIFIER);
    // an instance RDS gave up on stays in a state of its own ("failed", "incompatible-parameters"): it is waited
    // out to the kind's time limit, whose failure names that state
    return poll.awaitReady(ctx, "RDS instance " + id, () -> findDatabase(id), DBInstance::dbInstanceStatus,
        db -> "available".equals(db.dbInstanceStatus()) && db.endpoint() != null, db -> null,
        db -> StepResult.done(SharedOutputs.HOST.is(db.endpoint().address()),
            SharedOutputs.PORT.is(db.endpoint().port()),
            DB_INSTANCE_ARN.is(db.dbInstanceArn())));
  }

  private StepResult deleteDatabase(StepContext ctx, String id) {
    DBInstance db = findDatabase(id);
    if (db == null) {
      return StepResult.done();
    }
    if (!AwsTags.ownedBy(db.tagList(), Tag::key, Tag::value, ctx)) {
      ctx.log("RDS instance " + id + " is not this job's; left in place");
      return StepResult.done();
    }
    if (!"deleting".equals(db.dbInstanceStatus())) {
      String snapshot = (id + "-final-" + ctx.clientToken("final-snapshot").substring(0, 8)).toLowerCase();
      CALLS.call(RDS_DELETE_DB_INSTANCE, () -> rds.deleteDBInstance(r -> r.dbInstanceIdentifier(id)
          .skipFinalSnapshot(false).finalDBSnapshotIdentifier(snapshot)));
      ctx.log("deleting RDS instance " + id + "; final snapshot " + snapshot);
    }
    return findDatabase(id) == null ? StepResult.done()
        : poll.waitFor(ctx, "RDS instance " + id + " is being deleted");
  }

  private StepResult deleteSubnetGroup(String name) {
    CALLS.deleteIfExists(RDS_DELETE_DB_SUBNET_GROUP, () -> rds.deleteDBSubnetGroup(r -> r.dbSubnetGroupName(name)));
    return StepResult.done();
  }

  private DBInstance findDatabase(String id) {
    var found = CALLS.findOrNull(RDS_DESCRIBE_DB_INSTANCES,
        () -> rds.describeDBInstances(r -> r.dbInstanceIdentifier(id)));
    return found == null || found.dbInstances().isEmpty() ? null : found.dbInstances().get(0);
  }

  // ---- ElastiCache ---------------------------------------------------------------------------------------

  /** Redis AUTH: the token is generated into the secret store; the job keeps only its reference. */
  private StepResult createAuthToken(StepContext ctx) {
    SecretRef ref = GeneratedSecrets.passwordFor(ctx, AUTH_SECRET_REF, "zop/" + ctx.jobId() + "/redis-auth");
    return StepResult.done(AUTH_SECRET_REF.is(ref));
  }

  /**
   * AUTH on (the token from the secret store), TLS in transit and encryption at rest, snapshots kept as long as
   * {@code backupRetentionDays} asks (default 7): all set in the create call itself, so a resumed step that finds
   * the group has nothing left to make right.
   */
  /**
   * Makes the replication group unless one of its id is there: the job's own (an earlier run's) is adopted, one
   * another made under a name the spec gives is refused ({@code name_in_use}), never taken over.
   */
  private StepResult createRedis(StepContext ctx, DatastoreSpec spec) throws Exception {
    String id = spec.name() != null ? spec.name() : ctx.resourceName("cache");
    return AwsTags.OWNER.createOrAdopt(ctx, "ElastiCache replication group", id, () -> findRedis(id),
        this::redisTags, Map.ofEntries(REPLICATION_GROUP_ID.is(id)), () -> {
          String token = ctx.secrets().get(ctx.outputs().require(AUTH_SECRET_REF));
          int retention = spec.backupRetentionDays() == null ? 7 : spec.backupRetentionDays();
          CALLS.call(ELASTICACHE_CREATE_REPLICATION_GROUP, () -> cache.createReplicationGroup(r -> r
              .replicationGroupId(id).replicationGroupDescription("zop job " + ctx.jobId()).engine("redis")
              .engineVersion(spec.version()).cacheNodeType(spec.instanceClass())
              .numCacheClusters(spec.multiAz() ? 2 : 1).automaticFailoverEnabled(spec.multiAz())
              .multiAZEnabled(spec.multiAz())
              .authToken(token).transitEncryptionEnabled(true).atRestEncryptionEnabled(true)
              .snapshotRetentionLimit(retention)
              .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value()))));
        }, Map.ofEntries(REPLICATION_GROUP_ID.is(id), SharedOutputs.ENGINE.is("redis"), SharedOutputs.TLS.is(true),
            AUTH_SECRET_REF.is(ctx.outputs().require(AUTH_SECRET_REF))));
  }

  /** The replication group's tags: its description holds none, ListTagsForResource does. */
  private Map<String, String> redisTags(ReplicationGroup group) {
    return AwsTags.asMap(CALLS.call(ELASTICACHE_LIST_TAGS_FOR_RESOURCE, () -> cache.listTagsForResource(r -> r
        .resourceName(group.arn()))).tagList(), software.amazon.awssdk.services.elasticache.model.Tag::key,
        software.amazon.awssdk.services.elasticache.model.Tag::value);
  }

  private StepResult awaitRedis(StepContext ctx) {
    ReplicationGroup group = findRedis(ctx.outputs().require(REPLICATION_GROUP_ID));
    if (group == null || !"available".equals(group.status()) || group.nodeGroups().isEmpty()
        || group.nodeGroups().get(0).primaryEndpoint() == null) {
      return poll.waitFor(ctx, "replication group " + ctx.outputs().get(REPLICATION_GROUP_ID) + " is "
          + (group == null ? "not visible yet" : group.status()));
    }
    var endpoint = group.nodeGroups().get(0).primaryEndpoint();
    return StepResult.done(SharedOutputs.HOST.is(endpoint.address()), SharedOutputs.PORT.is(endpoint.port()));
  }

  /**
   * A Redis replication group's node type ({@code instanceClass}) and snapshot retention change where it stands
   * (one ModifyReplicationGroup, applied at once; ElastiCache moves the data onto nodes of the new type), and the
   * job waits until the group is available with them. {@code multiAZ}, which decides the group's replicas and
   * failover, is not changed in place ({@code replica_change}).
   */
  private Revision reviseRedis(DatastoreSpec current, DatastoreSpec revised, Outputs recorded) {
    if (!recorded.has(REPLICATION_GROUP_ID)) {
      return Revision.none();
    }
    String id = recorded.get(REPLICATION_GROUP_ID);
    int retention = revised.backupRetentionDays() == null ? 7 : revised.backupRetentionDays();
    Revision revision = Revision.of(List.of(
        ProviderStep.of("modify-replication-group", List.of(ELASTICACHE_DESCRIBE_REPLICATION_GROUPS,
            ELASTICACHE_MODIFY_REPLICATION_GROUP), ctx -> modifyRedis(ctx, id, revised.instanceClass(), retention)),
        ProviderStep.of("await-replication-group-modified", List.of(ELASTICACHE_DESCRIBE_REPLICATION_GROUPS),
            ctx -> awaitRedisModified(ctx, id, revised.instanceClass(), retention))))
        .inPlace("instanceClass", "backupRetentionDays");
    if (current.multiAz() != revised.multiAz()) {
      revision.refuse("multiAZ", "replica_change", "the replication group keeps its replicas and failover: create"
          + " a new datastore and move the data");
    }
    return RevisionRules.keepsData(revision, "an ElastiCache replication group", current, revised);
  }

  private static boolean redisAsRevised(ReplicationGroup group, String nodeType, int retention) {
    return nodeType.equals(group.cacheNodeType()) && Integer.valueOf(retention).equals(group.snapshotRetentionLimit());
  }

  private StepResult modifyRedis(StepContext ctx, String id, String nodeType, int retention) {
    ReplicationGroup group = findRedis(id);
    if (group == null) {
      return StepResult.fail(Failure.system("resource_missing", "replication group " + id + " is gone"));
    }
    if (redisAsRevised(group, nodeType, retention)) {
      return StepResult.done();
    }
    if (!"available".equals(group.status())) {
      return poll.waitFor(ctx, "replication group " + id + " is " + group.status());
    }
    CALLS.call(ELASTICACHE_MODIFY_REPLICATION_GROUP, () -> cache.modifyReplicationGroup(r -> r
        .replicationGroupId(id).cacheNodeType(nodeType).snapshotRetentionLimit(retention).applyImmediately(true)));
    ctx.log("asked ElastiCache to move replication group " + id + " to " + nodeType);
    return StepResult.done();
  }

  private StepResult awaitRedisModified(StepContext ctx, String id, String nodeType, int retention) {
    ReplicationGroup group = findRedis(id);
    if (group == null) {
      return StepResult.fail(Failure.system("resource_missing", "replication group " + id + " is gone"));
    }
    return "available".equals(group.status()) && redisAsRevised(group, nodeType, retention) ? StepResult.done()
        : poll.waitFor(ctx, "replication group " + id + " is " + group.status());
  }

  /**
   * Nothing the job made depends on the replication group, so teardown is done once ElastiCache has accepted
   * its deletion ({@code deleting}); waiting for it to vanish would only hold the job. Only the job's own is
   * deleted.
   */
  private StepResult deleteRedis(StepContext ctx, String id) {
    ReplicationGroup group = findRedis(id);
    // a group under that id that is not the job's (another's, made after this job's was deleted) is left alone
    if (group != null && !"deleting".equals(group.status()) && AwsTags.OWNER.owns(redisTags(group), ctx)) {
      CALLS.call(ELASTICACHE_DELETE_REPLICATION_GROUP,
          () -> cache.deleteReplicationGroup(r -> r.replicationGroupId(id)));
    }
    return StepResult.done();
  }

  private ReplicationGroup findRedis(String id) {
    var found = CALLS.findOrNull(ELASTICACHE_DESCRIBE_REPLICATION_GROUPS,
        () -> cache.describeReplicationGroups(r -> r.replicationGroupId(id)));
    return found == null || found.replicationGroups().isEmpty() ? null : found.replicationGroups().get(0);
  }

  private static Tag jobTag(StepContext ctx) {
    return Tag.builder().key(AwsTags.JOB).value(ctx.jobId().value()).build();
  }
}
