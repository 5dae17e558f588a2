package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.api.services.sqladmin.model.BackupConfiguration;
import com.google.api.services.sqladmin.model.BackupRetentionSettings;
import com.google.api.services.sqladmin.model.DatabaseInstance;
import com.google.api.services.sqladmin.model.IpConfiguration;
import com.google.api.services.sqladmin.model.IpMapping;
import com.google.api.services.sqladmin.model.Operation;
import com.google.api.services.sqladmin.model.Settings;
import com.google.cloud.redis.v1.CreateInstanceRequest;
import com.google.cloud.redis.v1.Instance;
import com.google.cloud.redis.v1.PersistenceConfig;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.GeneratedSecrets;
import dev.zop.provisioner.kit.MachineSize;
import dev.zop.provisioner.kit.MachineSize.Family;
import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spi.Defaulted;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Cloud SQL for PostgreSQL and MySQL, and Memorystore for Redis.
 *
 * <p>Cloud SQL: the admin password is generated into the space's secret store first (Secret Manager) and given
 * to the instance as its root password; the instance is REGIONAL (a standby in another zone) for
 * {@code multiAZ}, keeps {@code backupRetentionDays} automated backups (default 7) with point-in-time recovery,
 * and with {@code vpcID} has only a private address in that network (which needs private services access set
 * up on it), else a public one that accepts TLS connections only. Its outputs are what the databases feature
 * needs: {@code host}, {@code port}, {@code adminUser}, {@code adminSecretRef}, {@code engine}.
 *
 * <p>Memorystore: STANDARD_HA (a replica in another zone) for {@code multiAZ}, else BASIC; AUTH on and TLS in
 * transit; RDB snapshots every 24 hours when {@code backupRetentionDays} is above 0. Memorystore generates the
 * AUTH string itself: the job copies it into the secret store and records only the reference
 * ({@code authSecretRef}).
 *
 * <p>{@code instanceClass} may name a GCP tier ({@code db-custom-2-8192}, {@code redis-5} for 5 GB) or an AWS
 * class, which becomes the smallest tier that gives at least what it gives ({@link #SQL_TIERS},
 * {@link #REDIS_CAPACITIES}, by the kit's {@link MachineSizes#atLeast(String)}); the plan shows it.
 */
final class DatastoreDriver implements ResourceDriver<DatastoreSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> SQL_INSTANCE = OutputKey.text("sqlInstance");
  static final OutputKey<String> CONNECTION_NAME = OutputKey.text("connectionName");
  static final OutputKey<String> REDIS_INSTANCE = OutputKey.text("redisInstance");
  static final OutputKey<SecretRef> AUTH_SECRET_REF = OutputKey.secretRef("authSecretRef");

  /**
   * Cloud SQL's tiers: the two shared-core ones and the custom ones with 1 to 32 vCPUs (1 or an even number) and
   * whole GiB of memory, 0.9 to 6.5 GB a vCPU and at least 3.75 GB, as Cloud SQL takes them.
   */
  static final MachineSizes SQL_TIERS = MachineSizes.of(sqlTiers());
  private static final java.util.regex.Pattern CUSTOM_TIER = java.util.regex.Pattern.compile("db-custom-(\\d+)-(\\d+)");
  /** Memorystore's capacities: 1 to 300 GB, a tier a GB, sized by memory alone. */
  static final MachineSizes REDIS_CAPACITIES = MachineSizes.of(java.util.stream.IntStream.rangeClosed(1, 300)
      .mapToObj(gb -> new MachineSize("redis-" + gb, Family.GENERAL, 0, gb)).toList());

  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;
  private final StatusPoll poll;

  DatastoreDriver(DriverContext<GcpClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.project = context.scope(GcpSession.PROJECT);
    this.region = context.region().get();
    this.poll = context.poll();
  }

  @Override
  public Class<DatastoreSpec> specType() {
    return DatastoreSpec.class;
  }

  private static List<MachineSize> sqlTiers() {
    List<MachineSize> tiers = new ArrayList<>(List.of(new MachineSize("db-f1-micro", Family.BURSTABLE, 1, 0.6),
        new MachineSize("db-g1-small", Family.BURSTABLE, 1, 1.7), new MachineSize("db-custom-1-3840",
            Family.GENERAL, 1, 3.75)));
    for (int vcpus : new int[] {1, 2, 4, 6, 8, 12, 16, 24, 32}) {
      for (int gib = (int) Math.ceil(Math.max(3.75, 0.9 * vcpus)); gib <= 6.5 * vcpus; gib++) {
        tiers.add(new MachineSize("db-custom-" + vcpus + "-" + gib * 1024, Family.GENERAL, vcpus, gib));
      }
    }
    return tiers;
  }

  @Override
  public Defaulted<DatastoreSpec> withDefaults(DatastoreSpec spec) {
    boolean redis = spec.engine() == DatastoreEngine.REDIS;
    MachineSize mapped = (redis ? REDIS_CAPACITIES : SQL_TIERS).atLeast(spec.instanceClass());
    if (mapped == null) {
      return Defaulted.as(spec);
    }
    return new Defaulted<>(spec.toBuilder().instanceClass(mapped.name()).build(), List.of(new PlanDefault(
        "instanceClass", mapped.name(), (redis ? "the smallest Memorystore capacity with at least the memory of "
            : "the smallest Cloud SQL tier with at least the vCPUs and memory of ") + spec.instanceClass())));
  }

  @Override
  public List<FieldError> validate(DatastoreSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (spec.engine() == DatastoreEngine.REDIS) {
      if (!spec.instanceClass().matches("redis-\\d{1,3}")) {
        errors.add(FieldError.of("instanceClass", "invalid_value", "Memorystore capacity is redis-<GB> (e.g."
            + " redis-5), or an ElastiCache node type of " + MachineSizes.cacheAliases()));
      }
      if (redisVersion(spec.version()) == null) {
        errors.add(FieldError.of("version", "unsupported_version", "Memorystore serves Redis 6.x and 7.x"));
      }
    } else {
      if (!spec.instanceClass().startsWith("db-")) {
        errors.add(FieldError.of("instanceClass", "invalid_value", "a Cloud SQL tier such as db-custom-2-8192,"
            + " or an RDS class such as db.t3.medium (db. and an EC2 instance type)"));
      }
      if (databaseVersion(spec) == null) {
        errors.add(FieldError.of("version", "unsupported_version", spec.engine() == DatastoreEngine.POSTGRES
            ? "Cloud SQL serves PostgreSQL 9.6 to 17 (a major version, e.g. 16 or 16.3)"
            : "Cloud SQL serves MySQL 5.6, 5.7, 8.0 and 8.4"));
      }
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(DatastoreDriver.class).and(SharedOutputs.datastore());
  }

  @Override
  public List<Step> create(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return List.of(
          ProviderStep.of("create-redis-instance", List.of(REDIS_INSTANCES_GET, REDIS_INSTANCES_CREATE),
              ctx -> createRedis(ctx, spec)),
          ProviderStep.of("await-redis-instance", List.of(REDIS_INSTANCES_GET), ctx -> awaitRedis(ctx, spec)),
          ProviderStep.of("store-auth-string", List.of(REDIS_INSTANCES_GET_AUTH_STRING, SECRETMANAGER_SECRETS_CREATE,
              SECRETMANAGER_VERSIONS_ADD), ctx -> storeAuthString(ctx, spec)));
    }
    return List.of(
        ProviderStep.of("create-admin-secret", List.of(SECRETMANAGER_SECRETS_CREATE, SECRETMANAGER_VERSIONS_ADD),
            ctx -> createAdminSecret(ctx, spec)),
        ProviderStep.of("create-sql-instance", List.of(CLOUDSQL_INSTANCES_GET, CLOUDSQL_INSTANCES_CREATE,
            SECRETMANAGER_VERSIONS_ACCESS), ctx -> createSql(ctx, spec)),
        ProviderStep.of("await-sql-instance", List.of(CLOUDSQL_INSTANCES_GET), ctx -> awaitSql(ctx, spec)));
  }

  @Override
  public List<Step> teardown(DatastoreSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (recorded.has(SQL_INSTANCE)) {
      steps.add(ProviderStep.of("delete-sql-instance", List.of(CLOUDSQL_INSTANCES_GET, CLOUDSQL_INSTANCES_DELETE),
          ctx -> deleteSql(ctx, recorded.get(SQL_INSTANCE))));
    }
    if (recorded.has(REDIS_INSTANCE)) {
      steps.add(ProviderStep.of("delete-redis-instance", List.of(REDIS_INSTANCES_GET, REDIS_INSTANCES_DELETE),
          ctx -> deleteRedis(ctx, recorded.get(REDIS_INSTANCE))));
    }
    for (OutputKey<SecretRef> secret : List.of(SharedOutputs.ADMIN_SECRET_REF, AUTH_SECRET_REF)) {
      if (recorded.has(secret)) {
        SecretRef ref = recorded.get(secret);
        steps.add(ProviderStep.of("delete-" + (secret == AUTH_SECRET_REF ? "auth-string" : "admin-secret"),
            List.of(SECRETMANAGER_SECRETS_DELETE), ctx -> {
              ctx.secrets().delete(ref);
              return StepResult.done();
            }));
      }
    }
    return steps;
  }

  @Override
  public String pricesAsOf() {
    return GcpPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(DatastoreSpec spec, String priceRegion) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      int gb = spec.instanceClass().startsWith("redis-") ? Integer.parseInt(spec.instanceClass().substring(6)) : 0;
      String tier = spec.multiAz() ? "standard" : "basic";
      return List.of(GcpPrices.TABLE.hourly(priceRegion, "Memorystore " + tier + " " + gb + " GB",
          redisKey(gb, spec.multiAz()), gb));
    }
    int copies = spec.multiAz() ? 2 : 1;
    String name = "Cloud SQL " + spec.engine().wireName() + " " + spec.instanceClass()
        + (spec.multiAz() ? " (regional: primary and standby)" : "");
    return List.of(sqlInstances(priceRegion, name, spec.instanceClass(), copies),
        GcpPrices.TABLE.monthly(priceRegion, "SSD storage", "GB-month", "cloudsql:ssd-gb",
            BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies)));
  }

  private static CostComponent sqlInstances(String region, String name, String tier, int copies) {
    BigDecimal hourly = sqlHourly(region, tier);
    return hourly == null ? GcpPrices.TABLE.hourly(region, name, "cloudsql:" + tier, copies)
        : CostComponent.hourly(name, copies, hourly).from(GcpPrices.TABLE.sourceOf(region, "cloudsql:vcpu"));
  }

  /**
   * The list price an hour of a Cloud SQL tier, or null when the table lacks it. A custom tier
   * ({@code db-custom-2-8192}) is priced as Cloud SQL lists it, by its vCPUs and its memory; the shared-core tiers
   * have prices of their own.
   */
  static BigDecimal sqlHourly(String region, String tier) {
    java.util.regex.Matcher custom = CUSTOM_TIER.matcher(tier);
    if (!custom.matches()) {
      return GcpPrices.TABLE.hourlyPrice(region, "cloudsql:" + tier);
    }
    BigDecimal vcpu = GcpPrices.TABLE.hourlyPrice(region, "cloudsql:vcpu");
    BigDecimal ramGb = GcpPrices.TABLE.hourlyPrice(region, "cloudsql:ram-gb");
    if (vcpu == null || ramGb == null) {
      return null;
    }
    BigDecimal gb = new BigDecimal(custom.group(2)).divide(BigDecimal.valueOf(1024), 6, java.math.RoundingMode.HALF_UP);
    return vcpu.multiply(new BigDecimal(custom.group(1))).add(ramGb.multiply(gb)).stripTrailingZeros();
  }

  /** The list price an hour of a Memorystore instance of {@code gb}, or null when the table lacks it. */
  static BigDecimal redisHourly(String region, int gb, boolean standard) {
    BigDecimal perGb = GcpPrices.TABLE.hourlyPrice(region, redisKey(gb, standard));
    return perGb == null ? null : perGb.multiply(BigDecimal.valueOf(gb));
  }

  /**
   * Memorystore's price a GB falls with the instance's capacity tier: M1 up to 4 GB, M2 to 10, M3 to 35, M4 to
   * 100, M5 beyond.
   */
  private static String redisKey(int gb, boolean standard) {
    String capacityTier = gb <= 4 ? "m1" : gb <= 10 ? "m2" : gb <= 35 ? "m3" : gb <= 100 ? "m4" : "m5";
    return "memorystore:" + (standard ? "standard" : "basic") + "-gb-" + capacityTier;
  }

  private static String instanceName(StepContext ctx, DatastoreSpec spec) {
    return spec.name() != null ? spec.name() : ctx.resourceName("db");
  }

  // ---- Cloud SQL ---------------------------------------------------------------------------------------

  /** {@code 16.3} → {@code POSTGRES_16}; {@code 8.0.35} → {@code MYSQL_8_0}; null when Cloud SQL has none. */
  static String databaseVersion(DatastoreSpec spec) {
    String[] parts = spec.version().split("\\.");
    if (spec.engine() == DatastoreEngine.POSTGRES) {
      int major = Integer.parseInt(parts[0]);
      return major == 9 && parts.length > 1 && parts[1].equals("6") ? "POSTGRES_9_6"
          : major >= 10 && major <= 17 ? "POSTGRES_" + major : null;
    }
    String minor = parts[0] + "." + (parts.length > 1 ? parts[1] : "0");
    return switch (minor) {
      case "5.6", "5.7", "8.0", "8.4" -> "MYSQL_" + minor.replace('.', '_');
      default -> null;
    };
  }

  static String adminUser(DatastoreSpec spec) {
    return spec.engine() == DatastoreEngine.POSTGRES ? "postgres" : "root";
  }

  private StepResult createAdminSecret(StepContext ctx, DatastoreSpec spec) {
    SecretRef ref = GeneratedSecrets.passwordFor(ctx, SharedOutputs.ADMIN_SECRET_REF, "zop/" + ctx.jobId() + "/admin");
    return StepResult.done(SharedOutputs.ADMIN_SECRET_REF.is(ref), SharedOutputs.ADMIN_USER.is(adminUser(spec)));
  }

  private StepResult createSql(StepContext ctx, DatastoreSpec spec) {
    String name = instanceName(ctx, spec);
    DatabaseInstance existing = findSql(name);
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(SQL_INSTANCE.is(name)));
      String password = ctx.secrets().get(ctx.outputs().require(SharedOutputs.ADMIN_SECRET_REF));
      try {
        sql(CLOUDSQL_INSTANCES_CREATE, () -> clients.sqlAdmin().api().instances().insert(project,
            desiredSql(ctx, spec, name, password)).execute());
      } catch (CloudCallException e) {
        if (!GcpErrors.isAlreadyExists(e)) {
          throw e;
        }
      }
      existing = findSql(name);
      if (existing == null) {
        return poll.waitFor(ctx, "Cloud SQL instance " + name + " is being created");
      }
    }
    Map<String, String> labels = existing.getSettings() == null || existing.getSettings().getUserLabels() == null
        ? Map.of() : existing.getSettings().getUserLabels();
    Failure foreign = GcpOwner.TAGS.refuseForeign(labels, ctx, "Cloud SQL instance", name);
    return foreign != null ? StepResult.fail(foreign)
        : StepResult.done(SQL_INSTANCE.is(name), SharedOutputs.ENGINE.is(spec.engine().wireName()));
  }

  private DatabaseInstance desiredSql(StepContext ctx, DatastoreSpec spec, String name, String password) {
    int retained = spec.backupRetentionDays() == null ? 7 : spec.backupRetentionDays();
    IpConfiguration ip = new IpConfiguration();
    if (spec.vpcId() != null) {
      ip.setIpv4Enabled(false).setPrivateNetwork("projects/" + project + "/global/networks/" + spec.vpcId());
    } else {
      ip.setIpv4Enabled(true).setSslMode("ENCRYPTED_ONLY");
    }
    BackupConfiguration backups = new BackupConfiguration().setEnabled(retained > 0);
    if (retained > 0) {
      backups.setBackupRetentionSettings(new BackupRetentionSettings().setRetentionUnit("COUNT")
          .setRetainedBackups(retained));
      if (spec.engine() == DatastoreEngine.POSTGRES) {
        backups.setPointInTimeRecoveryEnabled(true);
      } else {
        backups.setBinaryLogEnabled(true);
      }
    }
    Settings settings = new Settings().setTier(spec.instanceClass())
        .setAvailabilityType(spec.multiAz() ? "REGIONAL" : "ZONAL").setDataDiskSizeGb((long) spec.allocatedStorageGb())
        .setDataDiskType("PD_SSD").setBackupConfiguration(backups).setIpConfiguration(ip)
        .setUserLabels(new LinkedHashMap<>(GcpOwner.labels(ctx, "sql")));
    return new DatabaseInstance().setName(name).setRegion(region).setDatabaseVersion(databaseVersion(spec))
        .setRootPassword(password).setSettings(settings);
  }

  private StepResult awaitSql(StepContext ctx, DatastoreSpec spec) {
    String name = ctx.outputs().require(SQL_INSTANCE);
    DatabaseInstance instance = findSql(name);
    if (instance == null) {
      return StepResult.fail(Failure.userAction(dev.zop.provisioner.kit.FailureCodes.RESOURCE_MISSING,
          "Cloud SQL instance " + name + " was deleted outside this job while it was being created",
          "Retry the job to create it again.", console("sql/instances")));
    }
    return switch (String.valueOf(instance.getState())) {
      case "RUNNABLE" -> {
        String host = address(instance, spec.vpcId() != null ? "PRIVATE" : "PRIMARY");
        yield StepResult.done(SharedOutputs.HOST.is(host), SharedOutputs.PORT.is(spec.engine().defaultPort()),
            CONNECTION_NAME.is(String.valueOf(instance.getConnectionName())));
      }
      case "FAILED", "MAINTENANCE", "SUSPENDED" -> StepResult.fail(Failure.userAction("sql_instance_"
          + instance.getState().toLowerCase(Locale.ROOT), "Cloud SQL instance " + name + " is "
          + instance.getState(), "See the instance's page in the console, then retry.",
          console("sql/instances/" + name + "/overview")));
      default -> poll.waitFor(ctx, "Cloud SQL instance " + name + " is " + instance.getState());
    };
  }

  private static String address(DatabaseInstance instance, String type) {
    List<IpMapping> addresses = instance.getIpAddresses() == null ? List.of() : instance.getIpAddresses();
    return addresses.stream().filter(a -> type.equals(a.getType())).map(IpMapping::getIpAddress).findFirst()
        .orElseGet(() -> addresses.isEmpty() ? null : addresses.get(0).getIpAddress());
  }

  private StepResult deleteSql(StepContext ctx, String name) {
    DatabaseInstance instance = findSql(name);
    if (instance == null || instance.getSettings() == null
        || !GcpOwner.TAGS.owns(instance.getSettings().getUserLabels(), ctx)) {
      return StepResult.done();
    }
    // a delete accepted earlier is still running (Cloud SQL refuses a second change meanwhile)
    if (!"PENDING_DELETE".equals(instance.getState())) {
      try {
        calls.deleteIfExists(CLOUDSQL_INSTANCES_DELETE, () -> GcpClients.io(() -> clients.sqlAdmin().api()
            .instances().delete(project, name).execute()));
      } catch (CloudCallException e) {
        if (!GcpErrors.isChangeInProgress(e)) {
          throw e;
        }
        // a change (a revision's) still runs on it: Cloud SQL takes the delete once that is done
        return poll.waitFor(ctx, "Cloud SQL instance " + name + " is finishing a change before its delete");
      }
    }
    return findSql(name) == null ? StepResult.done()
        : poll.waitFor(ctx, "Cloud SQL instance " + name + " is being deleted");
  }

  /**
   * A Cloud SQL instance's tier, disk size, backups kept and availability change where it stands (one
   * {@code instances.patch} carrying those settings), and the job waits until the instance has them; the disk never
   * shrinks and the engine never changes. A Memorystore instance is resized where it stands (see
   * {@link #reviseRedis}).
   */
  @Override
  public Revision revise(DatastoreSpec current, DatastoreSpec revised, Outputs recorded) {
    if (revised.engine() == DatastoreEngine.REDIS && current.engine() == DatastoreEngine.REDIS) {
      return reviseRedis(current, revised, recorded);
    }
    if (revised.engine() == DatastoreEngine.REDIS || !recorded.has(SQL_INSTANCE)) {
      return Revision.none();
    }
    String name = recorded.get(SQL_INSTANCE);
    Revision revision = Revision.of(List.of(
        ProviderStep.of("patch-sql-instance", List.of(CLOUDSQL_INSTANCES_GET, CLOUDSQL_INSTANCES_UPDATE),
            ctx -> patchSql(ctx, name, revised)),
        ProviderStep.of("await-sql-instance-patched", List.of(CLOUDSQL_INSTANCES_GET, CLOUDSQL_INSTANCES_LIST),
            ctx -> awaitPatched(ctx, name, revised))))
        .inPlace("instanceClass", "allocatedStorageGB", "backupRetentionDays", "multiAZ");
    return RevisionRules.keepsData(revision, "a Cloud SQL instance", current, revised);
  }

  /**
   * A Memorystore instance's capacity ({@code instanceClass}), one {@code instances.patch} of its
   * {@code memory_size_gb}, waited out until the instance is ready again. Only a Standard Tier instance
   * ({@code multiAZ}) is resized: a Basic Tier one is emptied when resized, so that is refused
   * ({@code cache_flush}), as is a change of tier, which Memorystore does not make in place.
   */
  private Revision reviseRedis(DatastoreSpec current, DatastoreSpec revised, Outputs recorded) {
    if (!recorded.has(REDIS_INSTANCE)) {
      return Revision.none();
    }
    String name = recorded.get(REDIS_INSTANCE);
    int gb = Integer.parseInt(revised.instanceClass().substring("redis-".length()));
    Revision revision = Revision.of(List.of(
        ProviderStep.of("resize-redis-instance", List.of(REDIS_INSTANCES_GET, REDIS_INSTANCES_UPDATE),
            ctx -> resizeRedis(ctx, name, gb)),
        ProviderStep.of("await-redis-instance-resized", List.of(REDIS_INSTANCES_GET),
            ctx -> awaitResized(ctx, name, gb))))
        .inPlace("instanceClass");
    if (current.multiAz() != revised.multiAz()) {
      revision.refuse("multiAZ", "tier_change", "Memorystore does not change an instance's tier in place: create"
          + " a new datastore and move the data");
    } else if (!current.multiAz() && !current.instanceClass().equals(revised.instanceClass())) {
      revision.refuse("instanceClass", "cache_flush", "a Basic Tier Memorystore instance is emptied when it is"
          + " resized; a Standard Tier one (multiAZ) keeps its data");
    }
    return RevisionRules.keepsData(revision, "a Memorystore instance", current, revised);
  }

  private StepResult resizeRedis(StepContext ctx, String name, int gb) {
    Instance instance = findRedis(name);
    if (instance == null) {
      return StepResult.fail(Failure.system("resource_missing", "Memorystore instance " + name + " is gone"));
    }
    Failure foreign = GcpOwner.TAGS.refuseForeign(instance.getLabelsMap(), ctx, "Memorystore instance", name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    if (instance.getMemorySizeGb() == gb) {
      return StepResult.done();
    }
    if (instance.getState() != Instance.State.READY) {
      return poll.waitFor(ctx, "Memorystore instance " + name + " is " + instance.getState());
    }
    calls.call(REDIS_INSTANCES_UPDATE, () -> clients.redis().updateInstanceCallable().call(
        com.google.cloud.redis.v1.UpdateInstanceRequest.newBuilder()
            .setUpdateMask(com.google.protobuf.FieldMask.newBuilder().addPaths("memory_size_gb"))
            .setInstance(Instance.newBuilder().setName(name).setMemorySizeGb(gb)).build()));
    ctx.log("asked Memorystore to resize instance " + name + " to " + gb + " GB");
    return StepResult.done();
  }

  private StepResult awaitResized(StepContext ctx, String name, int gb) {
    Instance instance = findRedis(name);
    if (instance == null) {
      return StepResult.fail(Failure.system("resource_missing", "Memorystore instance " + name + " is gone"));
    }
    return instance.getState() == Instance.State.READY && instance.getMemorySizeGb() == gb ? StepResult.done()
        : poll.waitFor(ctx, "Memorystore instance " + name + " is " + instance.getState());
  }

  /** The settings a revision sets: those it changes, and nothing Cloud SQL would take as a request to change more. */
  private static Settings revisedSettings(DatastoreSpec revised) {
    int retained = revised.backupRetentionDays() == null ? 7 : revised.backupRetentionDays();
    BackupConfiguration backups = new BackupConfiguration().setEnabled(retained > 0);
    if (retained > 0) {
      backups.setBackupRetentionSettings(new BackupRetentionSettings().setRetentionUnit("COUNT")
          .setRetainedBackups(retained));
    }
    return new Settings().setTier(revised.instanceClass()).setDataDiskSizeGb((long) revised.allocatedStorageGb())
        .setAvailabilityType(revised.multiAz() ? "REGIONAL" : "ZONAL").setBackupConfiguration(backups);
  }

  private static boolean asRevised(DatabaseInstance instance, DatastoreSpec revised) {
    Settings want = revisedSettings(revised);
    Settings have = instance.getSettings();
    Integer kept = have == null || have.getBackupConfiguration() == null
        || have.getBackupConfiguration().getBackupRetentionSettings() == null ? null
        : have.getBackupConfiguration().getBackupRetentionSettings().getRetainedBackups();
    return have != null && want.getTier().equals(have.getTier())
        && want.getDataDiskSizeGb().equals(have.getDataDiskSizeGb())
        && want.getAvailabilityType().equals(have.getAvailabilityType())
        && java.util.Objects.equals(kept, want.getBackupConfiguration().getBackupRetentionSettings() == null ? null
            : want.getBackupConfiguration().getBackupRetentionSettings().getRetainedBackups());
  }

  /** Patches what differs, unless the instance has it already; a change still under way is waited out. */
  private StepResult patchSql(StepContext ctx, String name, DatastoreSpec revised) {
    DatabaseInstance instance = findSql(name);
    if (instance == null) {
      return StepResult.fail(Failure.system("resource_missing", "Cloud SQL instance " + name + " is gone; it"
          + " cannot be changed"));
    }
    Map<String, String> labels = instance.getSettings() == null || instance.getSettings().getUserLabels() == null
        ? Map.of() : instance.getSettings().getUserLabels();
    Failure foreign = GcpOwner.TAGS.refuseForeign(labels, ctx, "Cloud SQL instance", name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    if (asRevised(instance, revised)) {
      return StepResult.done();
    }
    try {
      sql(CLOUDSQL_INSTANCES_UPDATE, () -> clients.sqlAdmin().api().instances().patch(project, name,
          new DatabaseInstance().setSettings(revisedSettings(revised))).execute());
    } catch (CloudCallException e) {
      if (!GcpErrors.isChangeInProgress(e)) {
        throw e;
      }
      // Cloud SQL takes one change at a time: an earlier one (this step's, before a crash) is under way
      return poll.waitFor(ctx, "Cloud SQL instance " + name + " is being changed");
    }
    ctx.log("asked Cloud SQL to change instance " + name + " to " + revised.instanceClass() + ", "
        + revised.allocatedStorageGb() + " GB");
    return StepResult.done();
  }

  private StepResult awaitPatched(StepContext ctx, String name, DatastoreSpec revised) {
    DatabaseInstance instance = findSql(name);
    if (instance == null) {
      return StepResult.fail(Failure.system("resource_missing", "Cloud SQL instance " + name + " is gone"));
    }
    if (!"RUNNABLE".equals(instance.getState()) || !asRevised(instance, revised)) {
      return poll.waitFor(ctx, "Cloud SQL instance " + name + " is " + instance.getState());
    }
    // the instance shows the new settings before Cloud SQL has finished applying them: its change is done when
    // no operation on it is still running (whether this run or one before a crash started it)
    var running = calls.call(CLOUDSQL_INSTANCES_LIST, () -> GcpClients.io(() -> clients.sqlAdmin().api()
        .operations().list(project).setInstance(name).execute()));
    boolean busy = running.getItems() != null && running.getItems().stream()
        .anyMatch(op -> name.equals(op.getTargetId()) && !"DONE".equals(op.getStatus()));
    return busy ? poll.waitFor(ctx, "Cloud SQL instance " + name + " is being changed") : StepResult.done();
  }

  private DatabaseInstance findSql(String name) {
    return calls.findOrNull(CLOUDSQL_INSTANCES_GET, () -> GcpClients.io(() -> clients.sqlAdmin().api().instances()
        .get(project, name).execute()));
  }



  private Operation sql(String permission, GcpClients.IoCall<Operation> call) {
    return calls.call(permission, () -> GcpClients.io(call));
  }

  // ---- Memorystore -------------------------------------------------------------------------------------

  /** {@code 7.1} → {@code REDIS_7_0}, {@code 7.2} → {@code REDIS_7_2}, {@code 6.x} → {@code REDIS_6_X}. */
  static String redisVersion(String version) {
    String[] parts = version.split("\\.");
    int minor = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
    return switch (parts[0]) {
      case "7" -> minor >= 2 ? "REDIS_7_2" : "REDIS_7_0";
      case "6" -> "REDIS_6_X";
      default -> null;
    };
  }

  private String redisName(StepContext ctx, DatastoreSpec spec) {
    return "projects/" + project + "/locations/" + region + "/instances/" + instanceName(ctx, spec);
  }

  private StepResult createRedis(StepContext ctx, DatastoreSpec spec) {
    String id = instanceName(ctx, spec);
    Instance existing = findRedis(redisName(ctx, spec));
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(REDIS_INSTANCE.is(redisName(ctx, spec))));
      Instance.Builder wanted = Instance.newBuilder()
          .setTier(spec.multiAz() ? Instance.Tier.STANDARD_HA : Instance.Tier.BASIC)
          .setMemorySizeGb(Integer.parseInt(spec.instanceClass().substring("redis-".length())))
          .setRedisVersion(redisVersion(spec.version())).setAuthEnabled(true)
          .setTransitEncryptionMode(Instance.TransitEncryptionMode.SERVER_AUTHENTICATION)
          .putAllLabels(GcpOwner.labels(ctx, "redis"));
      if (spec.vpcId() != null) {
        wanted.setAuthorizedNetwork("projects/" + project + "/global/networks/" + spec.vpcId());
      }
      int retained = spec.backupRetentionDays() == null ? 7 : spec.backupRetentionDays();
      if (retained > 0) {
        wanted.setPersistenceConfig(PersistenceConfig.newBuilder()
            .setPersistenceMode(PersistenceConfig.PersistenceMode.RDB)
            .setRdbSnapshotPeriod(PersistenceConfig.SnapshotPeriod.TWENTY_FOUR_HOURS));
      }
      try {
        calls.call(REDIS_INSTANCES_CREATE, () -> clients.redis().createInstanceCallable().call(
            CreateInstanceRequest.newBuilder().setParent("projects/" + project + "/locations/" + region)
                .setInstanceId(id).setInstance(wanted).build()));
      } catch (CloudCallException e) {
        if (!GcpErrors.isAlreadyExists(e)) {
          throw e;
        }
      }
      existing = findRedis(redisName(ctx, spec));
      if (existing == null) {
        return poll.waitFor(ctx, "Memorystore instance " + id + " is being created");
      }
    }
    Failure foreign = GcpOwner.TAGS.refuseForeign(existing.getLabelsMap(), ctx, "Memorystore instance", id);
    return foreign != null ? StepResult.fail(foreign)
        : StepResult.done(REDIS_INSTANCE.is(existing.getName()), SharedOutputs.ENGINE.is("redis"),
            SharedOutputs.TLS.is(true));
  }

  private StepResult awaitRedis(StepContext ctx, DatastoreSpec spec) {
    Instance instance = findRedis(ctx.outputs().require(REDIS_INSTANCE));
    if (instance == null) {
      return StepResult.fail(Failure.userAction(dev.zop.provisioner.kit.FailureCodes.RESOURCE_MISSING,
          "Memorystore instance " + instanceName(ctx, spec) + " was deleted outside this job",
          "Retry the job to create it again.", console("memorystore/redis/instances")));
    }
    return instance.getState() == Instance.State.READY
        ? StepResult.done(SharedOutputs.HOST.is(instance.getHost()), SharedOutputs.PORT.is(instance.getPort()))
        : poll.waitFor(ctx, "Memorystore instance " + instanceName(ctx, spec) + " is " + instance.getState());
  }

  /** Memorystore made the AUTH string: it goes into the secret store, and only its reference into the job. */
  private StepResult storeAuthString(StepContext ctx, DatastoreSpec spec) {
    SecretRef existing = ctx.outputs().get(AUTH_SECRET_REF);
    if (existing != null) {
      return StepResult.done(AUTH_SECRET_REF.is(existing));
    }
    String auth = calls.call(REDIS_INSTANCES_GET_AUTH_STRING, () -> clients.redis()
        .getInstanceAuthString(ctx.outputs().require(REDIS_INSTANCE))).getAuthString();
    SecretRef ref = ctx.secrets().put("zop/" + ctx.jobId() + "/redis-auth", auth);
    return StepResult.done(AUTH_SECRET_REF.is(ref));
  }

  private StepResult deleteRedis(StepContext ctx, String name) {
    Instance instance = findRedis(name);
    if (instance == null || !GcpOwner.TAGS.owns(instance.getLabelsMap(), ctx)) {
      return StepResult.done();
    }
    if (instance.getState() != Instance.State.DELETING) {
      calls.deleteIfExists(REDIS_INSTANCES_DELETE, () -> clients.redis().deleteInstanceCallable().call(
          com.google.cloud.redis.v1.DeleteInstanceRequest.newBuilder().setName(name).build()));
    }
    return findRedis(name) == null ? StepResult.done()
        : poll.waitFor(ctx, "Memorystore instance " + name + " is being deleted");
  }

  private Instance findRedis(String name) {
    return calls.findOrNull(REDIS_INSTANCES_GET, () -> clients.redis().getInstance(name));
  }

  private String console(String page) {
    return "https://console.cloud.google.com/" + page + "?project=" + project;
  }
}
