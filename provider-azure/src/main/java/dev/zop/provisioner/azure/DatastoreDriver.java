package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.resourcemanager.postgresqlflexibleserver.fluent.models.ServerInner;
import com.azure.resourcemanager.postgresqlflexibleserver.models.Backup;
import com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailability;
import com.azure.resourcemanager.postgresqlflexibleserver.models.HighAvailabilityMode;
import com.azure.resourcemanager.postgresqlflexibleserver.models.ServerVersion;
import com.azure.resourcemanager.postgresqlflexibleserver.models.Sku;
import com.azure.resourcemanager.postgresqlflexibleserver.models.SkuTier;
import com.azure.resourcemanager.postgresqlflexibleserver.models.Storage;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.GeneratedSecrets;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Azure Database for PostgreSQL flexible server: the administrator's password generated into the space's secret
 * store first, zone-redundant high availability for {@code multiAZ}, {@code backupRetentionDays} of backups (Azure
 * keeps 7 to 35). Its outputs are what the databases feature needs ({@code host}, {@code port},
 * {@code adminUser}, {@code adminSecretRef}, {@code engine}). MySQL flexible servers and Azure Cache for Redis are
 * not made yet and are refused by field.
 *
 * <p>{@code instanceClass} may name a flexible-server SKU ({@code Standard_D2ds_v5}) or an RDS class, which becomes
 * the SKU of the same size ({@link #SKUS}); zone-redundant HA needs General Purpose or Memory Optimized, so a
 * burstable size asked for with {@code multiAZ} becomes the General Purpose one of its vCPUs. Storage comes in
 * fixed sizes: the spec's is rounded up to the next. The plan shows every such choice.
 */
final class DatastoreDriver implements ResourceDriver<DatastoreSpec> {
  static final String ADMIN_USER = "zopadmin";
  static final Map<String, String> SKUS = Map.of(
      "db.t3.micro", "Standard_B1ms", "db.t3.small", "Standard_B1ms", "db.t3.medium", "Standard_B2s",
      "db.t3.large", "Standard_B2ms", "db.m5.large", "Standard_D2ds_v5", "db.m5.xlarge", "Standard_D4ds_v5",
      "db.r5.large", "Standard_E2ds_v5");
  /** The storage sizes a flexible server offers, in GB. */
  static final List<Integer> STORAGE_GB = List.of(32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32767);

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final Supplier<String> location;
  private final StatusPoll poll;
  private final boolean vault;
  private final RedisCache redis;

  DatastoreDriver(AzureClients clients, CloudCalls calls, String resourceGroup, Supplier<String> location,
      StatusPoll poll, boolean vault) {
    this.vault = vault;
    this.redis = new RedisCache(clients, calls, resourceGroup, location, poll, vault);
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
    this.location = location;
    this.poll = poll;
  }

  @Override
  public Class<DatastoreSpec> specType() {
    return DatastoreSpec.class;
  }

  @Override
  public Defaulted<DatastoreSpec> withDefaults(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.withDefaults(spec);
    }
    if (spec.engine() != DatastoreEngine.POSTGRES) {
      return Defaulted.as(spec);
    }
    List<PlanDefault> filled = new ArrayList<>();
    DatastoreSpec.Builder builder = spec.toBuilder();
    String sku = SKUS.getOrDefault(spec.instanceClass(), spec.instanceClass());
    if (spec.multiAz() && sku.startsWith("Standard_B")) {
      String vcpus = sku.replaceAll("Standard_B(\\d+).*", "$1");
      sku = "Standard_D" + vcpus + "ds_v5";
      filled.add(new PlanDefault("instanceClass", sku, "zone-redundant high availability needs General Purpose:"
          + " the General Purpose size with the vCPUs of " + spec.instanceClass()));
    } else if (!sku.equals(spec.instanceClass())) {
      filled.add(new PlanDefault("instanceClass", sku, "the flexible-server size with the vCPUs and memory of "
          + spec.instanceClass()));
    }
    builder.instanceClass(sku);
    int storage = STORAGE_GB.stream().filter(size -> size >= spec.allocatedStorageGb()).findFirst()
        .orElse(STORAGE_GB.get(STORAGE_GB.size() - 1));
    if (storage != spec.allocatedStorageGb()) {
      builder.allocatedStorageGb(storage);
      filled.add(new PlanDefault("allocatedStorageGB", String.valueOf(storage), "flexible servers come in fixed"
          + " storage sizes: the next one up from " + spec.allocatedStorageGb()));
    }
    int retention = spec.backupRetentionDays() == null ? 7 : spec.backupRetentionDays();
    if (retention < 7) {
      builder.backupRetentionDays(7);
      filled.add(new PlanDefault("backupRetentionDays", "7", "Azure keeps backups for 7 days at the least"));
    }
    return new Defaulted<>(builder.build(), filled);
  }

  @Override
  public List<FieldError> validate(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.validate(spec);
    }
    List<FieldError> errors = new ArrayList<>();
    if (spec.engine() != DatastoreEngine.POSTGRES) {
      errors.add(FieldError.of("engine", "unsupported", "the Azure provider makes PostgreSQL flexible servers and"
          + " Redis caches; MySQL is not made yet"));
      return errors;
    }
    if (!spec.instanceClass().startsWith("Standard_")) {
      errors.add(FieldError.of("instanceClass", "invalid_value", "a flexible-server size such as Standard_D2ds_v5,"
          + " or an RDS class of " + SKUS.keySet()));
    }
    return errors;
  }

  @Override
  public List<Step> create(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.create(spec);
    }
    return List.of(
        ProviderStep.of("create-admin-secret", withVault(vault, List.of(FLEXIBLE_SERVERS_READ),
            KEY_VAULT_SECRETS_SET), ctx -> createAdminSecret(ctx, spec)),
        ProviderStep.of("create-server", withVault(vault, List.of(FLEXIBLE_SERVERS_READ, FLEXIBLE_SERVERS_WRITE,
            RESOURCE_GROUPS_READ), KEY_VAULT_SECRETS_GET),
            ctx -> createServer(ctx, spec)),
        ProviderStep.of("await-server", List.of(FLEXIBLE_SERVERS_READ), ctx -> awaitServer(ctx, spec)));
  }

  @Override
  public List<Step> teardown(DatastoreSpec spec, Outputs recorded) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.teardown(spec, recorded);
    }
    if (!recorded.has("serverName") && !recorded.has("adminSecretRef")) {
      return List.of();
    }
    return List.of(ProviderStep.of("delete-server", withVault(vault, List.of(FLEXIBLE_SERVERS_READ,
        FLEXIBLE_SERVERS_DELETE), KEY_VAULT_SECRETS_DELETE, KEY_VAULT_SECRETS_PURGE),
        ctx -> deleteServer(ctx, recorded.get("serverName"), recorded.get("adminSecretRef"))));
  }

  @Override
  public String pricesAsOf() {
    return AzurePrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(DatastoreSpec spec, String priceRegion) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.price(spec, priceRegion);
    }
    int copies = spec.multiAz() ? 2 : 1;
    return List.of(
        AzurePrices.TABLE.hourly(priceRegion, "PostgreSQL flexible server " + spec.instanceClass()
            + (spec.multiAz() ? " (zone-redundant: primary and standby)" : ""), "pgflex:" + spec.instanceClass(),
            copies),
        AzurePrices.TABLE.monthly(priceRegion, "storage", "GB-month", "pgflex:storage-gb",
            BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies)));
  }

  private static String serverName(StepContext ctx, DatastoreSpec spec) {
    return spec.name() != null ? spec.name() : ctx.resourceName("db");
  }

  /**
   * The administrator's password, generated into the space's secret store before the server is asked for — but
   * not for a name another holds: that is refused first, and no secret is left behind for it.
   */
  private StepResult createAdminSecret(StepContext ctx, DatastoreSpec spec) {
    String name = serverName(ctx, spec);
    ServerInner existing = find(name);
    Failure foreign = existing == null ? null
        : AzureTags.OWNER.refuseForeign(existing.tags(), ctx, "PostgreSQL server", name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    String recorded = ctx.outputs().get("adminSecretRef");
    SecretRef ref = recorded != null ? SecretRef.of(recorded)
        : ctx.secrets().put("zop/" + ctx.jobId() + "/admin", GeneratedSecrets.password());
    return StepResult.done(Map.of("adminSecretRef", ref.value(), "adminUser", ADMIN_USER));
  }

  private ServerInner find(String name) {
    return calls.findOrNull(FLEXIBLE_SERVERS_READ, () -> clients.postgres().serviceClient().getServers()
        .getByResourceGroup(resourceGroup, name));
  }

  private StepResult createServer(StepContext ctx, DatastoreSpec spec) {
    String name = serverName(ctx, spec);
    ServerInner existing = find(name);
    if (existing == null) {
      String password = ctx.secrets().get(SecretRef.of(ctx.outputs().require("adminSecretRef")));
      ctx.recordIntent(Map.of("serverName", name));
      ServerInner wanted = new ServerInner().withAdministratorLogin(ADMIN_USER)
          .withAdministratorLoginPassword(password)
          .withVersion(ServerVersion.fromString(spec.version().split("\\.")[0]))
          .withStorage(new Storage().withStorageSizeGB(spec.allocatedStorageGb()))
          .withBackup(new Backup().withBackupRetentionDays(spec.backupRetentionDays() == null ? 7
              : spec.backupRetentionDays()))
          .withHighAvailability(new HighAvailability().withMode(spec.multiAz() ? HighAvailabilityMode.ZONE_REDUNDANT
              : HighAvailabilityMode.DISABLED));
      wanted.withSku(new Sku().withName(spec.instanceClass()).withTier(tier(spec.instanceClass())))
          .withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "server"));
      calls.call(FLEXIBLE_SERVERS_WRITE, () -> clients.postgres().serviceClient().getServers()
          .beginCreate(resourceGroup, name, wanted));
      return StepResult.done(outputs(ctx, name));
    }
    Failure foreign = AzureTags.OWNER.refuseForeign(existing.tags(), ctx, "PostgreSQL server", name);
    return foreign != null ? StepResult.fail(foreign) : StepResult.done(outputs(ctx, name));
  }

  private static Map<String, String> outputs(StepContext ctx, String name) {
    return Map.of("serverName", name, "engine", "postgres");
  }

  static SkuTier tier(String sku) {
    return sku.startsWith("Standard_B") ? SkuTier.BURSTABLE : sku.startsWith("Standard_E")
        ? SkuTier.MEMORY_OPTIMIZED : SkuTier.GENERAL_PURPOSE;
  }

  private StepResult awaitServer(StepContext ctx, DatastoreSpec spec) {
    String name = ctx.outputs().require("serverName");
    ServerInner server = find(name);
    if (server == null) {
      return poll.waitFor(ctx, "PostgreSQL server " + name + " is not visible yet");
    }
    String state = String.valueOf(server.state());
    return switch (state) {
      case "Ready" -> StepResult.done(Map.of("host", server.fullyQualifiedDomainName(), "port", "5432"));
      case "Disabled", "Dropping" -> StepResult.fail(Failure.userAction("server_" + state.toLowerCase(Locale.ROOT),
          "PostgreSQL server " + name + " is " + state, "See the server in the portal, then retry.", null));
      default -> poll.waitFor(ctx, "PostgreSQL server " + name + " is " + state);
    };
  }

  /** The server, waited out; then its administrator's password, which nothing needs any more. */
  private StepResult deleteServer(StepContext ctx, String name, String adminSecretRef) {
    ServerInner server = name == null ? null : find(name);
    if (server != null && AzureTags.OWNER.owns(server.tags(), ctx)) {
      calls.deleteIfExists(FLEXIBLE_SERVERS_DELETE, () -> clients.postgres().serviceClient().getServers()
          .beginDelete(resourceGroup, name));
      if (find(name) != null) {
        return poll.waitFor(ctx, "PostgreSQL server " + name + " is being deleted");
      }
    }
    if (adminSecretRef != null) {
      ctx.secrets().delete(SecretRef.of(adminSecretRef));
    }
    return StepResult.done();
  }
}
