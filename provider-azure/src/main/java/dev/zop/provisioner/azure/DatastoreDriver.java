package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.SecretRef;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Azure Database for PostgreSQL or MySQL flexible server ({@link FlexibleServers}): the administrator's password
 * generated into the space's secret store first, zone-redundant high availability for {@code multiAZ},
 * {@code backupRetentionDays} of backups (Azure keeps 7 to 35). Its outputs are what the databases feature needs
 * ({@code host}, {@code port}, {@code adminUser}, {@code adminSecretRef}, {@code engine}). Redis is Azure Cache for
 * Redis ({@link RedisCache}). Private access in a network is not given yet and {@code vpcID} is refused by field.
 *
 * <p>{@code instanceClass} may name a flexible-server SKU ({@code Standard_D2ds_v5}) or an RDS class, which becomes
 * the smallest SKU with at least its vCPUs and memory ({@link #SKUS}); zone-redundant HA needs General Purpose or
 * Memory Optimized, so a burstable size asked for with {@code multiAZ} becomes the smallest General Purpose one
 * with at least its vCPUs and memory. Storage comes in
 * fixed sizes: the spec's is rounded up to the next. The plan shows every such choice.
 */
final class DatastoreDriver implements ResourceDriver<DatastoreSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> SERVER_NAME = OutputKey.text("serverName");
  static final OutputKey<String> PRIVATE_ZONE_ID = OutputKey.text("privateZoneId");
  static final OutputKey<String> PRIVATE_ZONE_LINK = OutputKey.text("private-zone-link");

  static final String ADMIN_USER = "zopadmin";
  /** PostgreSQL flexible servers' sizes: Burstable, General Purpose (D v5) and Memory Optimized (E v5). */
  static final MachineSizes SKUS = skus("v5");
  /** MySQL's flexible servers offer the v4 D and E sizes. */
  static final MachineSizes MYSQL_SKUS = skus("v4");
  /** The storage sizes a flexible server offers, in GB. */
  static final List<Integer> STORAGE_GB = List.of(32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32767);

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final PrivateZones zones;
  private final Supplier<String> location;
  private final StatusPoll poll;
  private final boolean vault;
  private final RedisCache redis;
  private final FlexibleServers postgres;
  private final FlexibleServers mysql;

  DatastoreDriver(DriverContext<AzureClients> context, boolean vault) {
    AzureClients clients = context.clients();
    CloudCalls calls = context.calls();
    String resourceGroup = context.scope(AzureSession.RESOURCE_GROUP);
    Supplier<String> location = context.region();
    StatusPoll poll = context.poll();
    this.vault = vault;
    this.redis = new RedisCache(clients, calls, resourceGroup, location, poll, vault);
    this.postgres = FlexibleServers.postgres(clients, calls, resourceGroup);
    this.mysql = FlexibleServers.mysql(clients, calls, resourceGroup);
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
    this.zones = new PrivateZones(clients, calls, resourceGroup, poll);
    this.location = location;
    this.poll = poll;
  }

  @Override
  public Class<DatastoreSpec> specType() {
    return DatastoreSpec.class;
  }

  private static MachineSizes skus(String generation) {
    return MachineSizes.of(
        new MachineSize("Standard_B1ms", Family.BURSTABLE, 1, 2),
        new MachineSize("Standard_B2s", Family.BURSTABLE, 2, 4),
        new MachineSize("Standard_B2ms", Family.BURSTABLE, 2, 8),
        new MachineSize("Standard_B4ms", Family.BURSTABLE, 4, 16),
        new MachineSize("Standard_B8ms", Family.BURSTABLE, 8, 32),
        new MachineSize("Standard_D2ds_" + generation, Family.GENERAL, 2, 8),
        new MachineSize("Standard_D4ds_" + generation, Family.GENERAL, 4, 16),
        new MachineSize("Standard_D8ds_" + generation, Family.GENERAL, 8, 32),
        new MachineSize("Standard_D16ds_" + generation, Family.GENERAL, 16, 64),
        new MachineSize("Standard_E2ds_" + generation, Family.MEMORY, 2, 16),
        new MachineSize("Standard_E4ds_" + generation, Family.MEMORY, 4, 32),
        new MachineSize("Standard_E8ds_" + generation, Family.MEMORY, 8, 64));
  }

  @Override
  public Defaulted<DatastoreSpec> withDefaults(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.withDefaults(spec);
    }
    List<PlanDefault> filled = new ArrayList<>();
    DatastoreSpec.Builder builder = spec.toBuilder();
    MachineSizes skus = spec.engine() == DatastoreEngine.MYSQL ? MYSQL_SKUS : SKUS;
    MachineSize aliased = skus.atLeast(spec.instanceClass());
    MachineSize sku = aliased != null ? aliased : skus.own(spec.instanceClass());
    if (spec.multiAz() && sku != null && sku.family() == Family.BURSTABLE) {
      sku = skus.atLeast(new MachineSize(sku.name(), Family.GENERAL, sku.vcpus(), sku.memoryGib()));
      filled.add(new PlanDefault("instanceClass", sku.name(), "zone-redundant high availability needs General"
          + " Purpose: the smallest General Purpose size with at least the vCPUs and memory of "
          + spec.instanceClass()));
    } else if (aliased != null) {
      filled.add(new PlanDefault("instanceClass", sku.name(), "the smallest flexible-server size with at least the"
          + " vCPUs and memory of " + spec.instanceClass()));
    }
    if (sku != null) {
      builder.instanceClass(sku.name());
    }
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
    if (!spec.instanceClass().startsWith("Standard_")) {
      errors.add(FieldError.of("instanceClass", "invalid_value", "a flexible-server size such as Standard_D2ds_v5,"
          + " or an RDS class such as db.t3.medium (db. and an EC2 instance type)"));
    }
    if (spec.engine() == DatastoreEngine.MYSQL && !spec.version().matches("(5\\.7|8)(\\..*)?")) {
      errors.add(FieldError.of("version", "unsupported", "Azure's MySQL flexible servers run 5.7 and 8.0"));
    }
    if (spec.vpcId() != null && spec.subnetIds().isEmpty()) {
      errors.add(FieldError.of("subnetIDs", "required", "private access takes the subnet of " + spec.vpcId()
          + " delegated to the server (the first named)"));
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(DatastoreDriver.class, RedisCache.class).and(SharedOutputs.datastore());
  }

  @Override
  public List<Step> create(DatastoreSpec spec) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.create(spec);
    }
    FlexibleServers servers = servers(spec);
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("create-admin-secret", withVault(vault, List.of(servers.readAction()),
        KEY_VAULT_SECRETS_SET), ctx -> createAdminSecret(ctx, spec)));
    List<String> serverActions = new ArrayList<>(List.of(servers.readAction(), servers.writeAction(),
        RESOURCE_GROUPS_READ));
    if (spec.vpcId() != null) {
      steps.add(ProviderStep.of("create-private-zone", List.of(SUBNETS_READ, PRIVATE_ZONES_READ,
          PRIVATE_ZONES_WRITE), ctx -> createPrivateZone(ctx, spec)));
      steps.add(ProviderStep.of("link-private-zone", List.of(ZONE_LINKS_READ, ZONE_LINKS_WRITE,
          VIRTUAL_NETWORKS_JOIN), ctx -> zones.ensureLink(ctx, privateZone(ctx, spec), serverName(ctx, spec)
              + "-link", networkId(spec), PRIVATE_ZONE_LINK)));
      serverActions.addAll(List.of(SUBNETS_JOIN, PRIVATE_ZONES_JOIN));
    }
    steps.add(ProviderStep.of("create-server", withVault(vault, serverActions, KEY_VAULT_SECRETS_GET),
        ctx -> createServer(ctx, spec)));
    steps.add(ProviderStep.of("await-server", List.of(servers.readAction()), ctx -> awaitServer(ctx, spec)));
    return steps;
  }

  @Override
  public List<Step> teardown(DatastoreSpec spec, Outputs recorded) {
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.teardown(spec, recorded);
    }
    if (!recorded.has(SERVER_NAME) && !recorded.has(SharedOutputs.ADMIN_SECRET_REF)) {
      return List.of();
    }
    FlexibleServers servers = servers(spec);
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("delete-server", withVault(vault, List.of(servers.readAction(),
        servers.deleteAction()), KEY_VAULT_SECRETS_DELETE, KEY_VAULT_SECRETS_PURGE),
        ctx -> deleteServer(ctx, spec, recorded.get(SERVER_NAME), recorded.get(SharedOutputs.ADMIN_SECRET_REF))));
    if (spec.vpcId() != null) {
      steps.add(ProviderStep.of("unlink-private-zone", List.of(ZONE_LINKS_READ, ZONE_LINKS_DELETE),
          ctx -> zones.removeLink(ctx, privateZone(ctx, spec), serverName(ctx, spec) + "-link")));
      steps.add(ProviderStep.of("delete-private-zone", List.of(PRIVATE_ZONES_READ, PRIVATE_ZONES_DELETE),
          ctx -> zones.removeZone(ctx, privateZone(ctx, spec))));
    }
    return steps;
  }

  @Override
  public String pricesAsOf() {
    return AzurePrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(DatastoreSpec spec, String spaceRegion) {
    String priceRegion = AzurePrices.region(spaceRegion, location);
    if (spec.engine() == DatastoreEngine.REDIS) {
      return redis.price(spec, priceRegion);
    }
    int copies = spec.multiAz() ? 2 : 1;
    String prefix = spec.engine() == DatastoreEngine.MYSQL ? "mysqlflex:" : "pgflex:";
    return List.of(
        AzurePrices.TABLE.hourly(priceRegion, servers(spec).label() + " " + spec.instanceClass()
            + (spec.multiAz() ? " (zone-redundant: primary and standby)" : ""), prefix + spec.instanceClass(),
            copies),
        AzurePrices.TABLE.monthly(priceRegion, "storage", "GB-month", prefix + "storage-gb",
            BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies)));
  }

  private static String serverName(StepContext ctx, DatastoreSpec spec) {
    return spec.name() != null ? spec.name() : ctx.resourceName("db");
  }

  /** The private zone a server with private access publishes its name in: Azure wants the engine's suffix. */
  private String privateZone(StepContext ctx, DatastoreSpec spec) {
    return serverName(ctx, spec) + ".private" + servers(spec).zoneSuffix();
  }

  private String networkId(DatastoreSpec spec) {
    return spec.vpcId().startsWith("/subscriptions/") ? spec.vpcId() : "/subscriptions/" + clients.subscription()
        + "/resourceGroups/" + resourceGroup + "/providers/Microsoft.Network/virtualNetworks/" + spec.vpcId();
  }

  private String subnetId(DatastoreSpec spec) {
    String subnet = spec.subnetIds().get(0);
    return subnet.startsWith("/subscriptions/") ? subnet : networkId(spec) + "/subnets/" + subnet;
  }

  /**
   * The server's private zone — once its subnet is known to be delegated to the engine's servers, which Azure
   * requires and which the job does not do to a subnet it did not make.
   */
  private StepResult createPrivateZone(StepContext ctx, DatastoreSpec spec) {
    String subnetId = subnetId(spec);
    String[] parts = subnetId.split("/");
    var subnet = calls.findOrNull(SUBNETS_READ, () -> clients.network().serviceClient().getSubnets()
        .get(parts[4], parts[8], parts[10]));
    String delegation = servers(spec).delegation();
    if (subnet == null || subnet.delegations() == null || subnet.delegations().stream()
        .noneMatch(d -> delegation.equalsIgnoreCase(d.serviceName()))) {
      return StepResult.fail(Failure.userAction("subnet_not_delegated", "subnet " + spec.subnetIds().get(0) + " of "
          + spec.vpcId() + (subnet == null ? " does not exist" : " is not delegated to " + delegation),
          "Delegate the subnet to " + delegation + " (az network vnet subnet update --delegations " + delegation
              + "), then retry the job.", "https://portal.azure.com/#resource" + subnetId));
    }
    return zones.ensureZone(ctx, privateZone(ctx, spec), "private-zone", PRIVATE_ZONE_ID);
  }

  private FlexibleServers servers(DatastoreSpec spec) {
    return spec.engine() == DatastoreEngine.MYSQL ? mysql : postgres;
  }

  /**
   * The administrator's password, generated into the space's secret store before the server is asked for — but
   * not for a name another holds: that is refused first, and no secret is left behind for it.
   */
  private StepResult createAdminSecret(StepContext ctx, DatastoreSpec spec) {
    FlexibleServers servers = servers(spec);
    String name = serverName(ctx, spec);
    FlexibleServers.Server existing = servers.find(name);
    Failure foreign = existing == null ? null
        : AzureTags.OWNER.refuseForeign(existing.tags(), ctx, servers.label(), name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    SecretRef ref = GeneratedSecrets.passwordFor(ctx, SharedOutputs.ADMIN_SECRET_REF, "zop/" + ctx.jobId() + "/admin");
    return StepResult.done(SharedOutputs.ADMIN_SECRET_REF.is(ref), SharedOutputs.ADMIN_USER.is(ADMIN_USER));
  }

  private StepResult createServer(StepContext ctx, DatastoreSpec spec) throws Exception {
    FlexibleServers servers = servers(spec);
    String name = serverName(ctx, spec);
    return AzureTags.OWNER.createOrAdopt(ctx, servers.label(), name, () -> servers.find(name),
        FlexibleServers.Server::tags, Map.ofEntries(SERVER_NAME.is(name)), () -> {
          String password = ctx.secrets().get(ctx.outputs().require(SharedOutputs.ADMIN_SECRET_REF));
          servers.create(name, new FlexibleServers.Wanted(ADMIN_USER, password, serverVersion(spec),
              spec.allocatedStorageGb(), spec.backupRetentionDays() == null ? 7 : spec.backupRetentionDays(),
              spec.multiAz(), spec.instanceClass(), location.get(), AzureTags.OWNER.of(ctx, "server"),
              spec.vpcId() == null ? null : subnetId(spec), ctx.outputs().get(PRIVATE_ZONE_ID)));
        }, outputs(spec, name));
  }

  /**
   * A flexible server's size, storage, backups kept and zone redundancy change where it stands (one PATCH), and
   * the job waits until the server is ready with them; storage never shrinks and the engine never changes. An
   * Azure Cache for Redis changes its size ({@link RedisCache#revise}).
   */
  @Override
  public Revision revise(DatastoreSpec current, DatastoreSpec revised, Outputs recorded) {
    if (revised.engine() == DatastoreEngine.REDIS && current.engine() == DatastoreEngine.REDIS) {
      return redis.revise(current, revised, recorded);
    }
    if (revised.engine() == DatastoreEngine.REDIS || !recorded.has(SERVER_NAME)) {
      return Revision.none();
    }
    String name = recorded.get(SERVER_NAME);
    FlexibleServers servers = servers(revised);
    FlexibleServers.Shape wanted = new FlexibleServers.Shape(revised.instanceClass(), revised.allocatedStorageGb(),
        revised.backupRetentionDays() == null ? 7 : revised.backupRetentionDays(), revised.multiAz());
    Revision revision = Revision.of(List.of(
        ProviderStep.of("update-server", List.of(servers.readAction(), servers.writeAction()),
            ctx -> updateServer(ctx, servers, name, wanted)),
        ProviderStep.of("await-server-updated", List.of(servers.readAction()),
            ctx -> awaitUpdated(ctx, servers, name, wanted))))
        .inPlace("instanceClass", "allocatedStorageGB", "backupRetentionDays", "multiAZ");
    return RevisionRules.keepsData(revision, "a flexible server", current, revised);
  }

  /** Asks for the new shape unless the server has it; a resumed step asks nothing twice. */
  private StepResult updateServer(StepContext ctx, FlexibleServers servers, String name,
      FlexibleServers.Shape wanted) throws Exception {
    return AzureTags.OWNER.changeInPlace(ctx, servers.label(), name, () -> servers.find(name),
        FlexibleServers.Server::tags, server -> wanted.equals(server.shape()), server -> {
          servers.update(name, wanted);
          ctx.log("asked Azure to change " + servers.label() + " " + name + " to " + wanted.sku() + ", "
              + wanted.storageGb() + " GB");
        });
  }

  private StepResult awaitUpdated(StepContext ctx, FlexibleServers servers, String name,
      FlexibleServers.Shape wanted) {
    FlexibleServers.Server server = servers.find(name);
    if (server == null) {
      return StepResult.fail(Failure.system("resource_missing", servers.label() + " " + name + " is gone"));
    }
    return "Ready".equals(server.state()) && wanted.equals(server.shape()) ? StepResult.done()
        : poll.waitFor(ctx, servers.label() + " " + name + " is " + server.state());
  }

  /** PostgreSQL by its major ({@code 16.3} is 16); MySQL by the versions Azure names ({@code 8.0.21}, {@code 5.7}). */
  static String serverVersion(DatastoreSpec spec) {
    String[] parts = spec.version().split("\\.");
    if (spec.engine() != DatastoreEngine.MYSQL) {
      return parts[0];
    }
    return parts[0].equals("5") ? "5.7" : "8.0.21";
  }

  private static Map<String, String> outputs(DatastoreSpec spec, String name) {
    return Map.ofEntries(SERVER_NAME.is(name), SharedOutputs.ENGINE.is(spec.engine().wireName()));
  }

  private StepResult awaitServer(StepContext ctx, DatastoreSpec spec) {
    FlexibleServers servers = servers(spec);
    String name = ctx.outputs().require(SERVER_NAME);
    FlexibleServers.Server server = servers.find(name);
    if (server == null) {
      return poll.waitFor(ctx, servers.label() + " " + name + " is not visible yet");
    }
    String state = server.state();
    return switch (state) {
      case "Ready" -> StepResult.done(SharedOutputs.HOST.is(server.host()), SharedOutputs.PORT.is(servers.port()));
      case "Disabled", "Dropping" -> StepResult.fail(Failure.userAction("server_" + state.toLowerCase(Locale.ROOT),
          servers.label() + " " + name + " is " + state, "See the server in the portal, then retry.", null));
      default -> poll.waitFor(ctx, servers.label() + " " + name + " is " + state);
    };
  }

  /** The server, waited out; then its administrator's password, which nothing needs any more. */
  private StepResult deleteServer(StepContext ctx, DatastoreSpec spec, String name, SecretRef adminSecretRef) {
    FlexibleServers servers = servers(spec);
    FlexibleServers.Server server = name == null ? null : servers.find(name);
    if (server != null && AzureTags.OWNER.owns(server.tags(), ctx)) {
      servers.delete(name);
      if (servers.find(name) != null) {
        return poll.waitFor(ctx, servers.label() + " " + name + " is being deleted");
      }
    }
    if (adminSecretRef != null) {
      ctx.secrets().delete(adminSecretRef);
    }
    return StepResult.done();
  }
}
