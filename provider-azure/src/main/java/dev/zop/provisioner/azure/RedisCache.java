package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.resourcemanager.redis.fluent.models.RedisResourceInner;
import com.azure.resourcemanager.redis.models.RedisCreateParameters;
import com.azure.resourcemanager.redis.models.RedisUpdateParameters;
import com.azure.resourcemanager.redis.models.Sku;
import com.azure.resourcemanager.redis.models.SkuFamily;
import com.azure.resourcemanager.redis.models.SkuName;
import com.azure.resourcemanager.redis.models.TlsVersion;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.MachineSize;
import dev.zop.provisioner.kit.MachineSize.Family;
import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Azure Cache for Redis, the {@code redis} engine of the Azure datastore: TLS only (the non-TLS port off, TLS 1.2
 * at the least), its primary access key copied into the space's secret store ({@code authSecretRef}) once the
 * cache is up. {@code multiAZ} is the Premium tier with a replica in another zone; otherwise Standard (a primary
 * and a replica in one zone). {@code instanceClass} is a cache size ({@code C1}, {@code P1}) or an ElastiCache
 * node type, which becomes the smallest size with at least its memory ({@link #STANDARD_SIZES},
 * {@link #PREMIUM_SIZES}); the plan shows the choice. Snapshots
 * ({@code backupRetentionDays}) are refused: Azure keeps them in a storage account the spec cannot name.
 */
final class RedisCache {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> CACHE_NAME = OutputKey.text("cacheName");
  static final OutputKey<SecretRef> AUTH_SECRET_REF = OutputKey.secretRef("authSecretRef");

  /** Basic and Standard sizes by their memory (GB). */
  static final MachineSizes STANDARD_SIZES = MachineSizes.of(
      new MachineSize("C0", Family.GENERAL, 0, 0.25), new MachineSize("C1", Family.GENERAL, 0, 1),
      new MachineSize("C2", Family.GENERAL, 0, 2.5), new MachineSize("C3", Family.GENERAL, 0, 6),
      new MachineSize("C4", Family.GENERAL, 0, 13), new MachineSize("C5", Family.GENERAL, 0, 26),
      new MachineSize("C6", Family.GENERAL, 0, 53));
  /** Premium sizes by their memory (GB): zone redundancy is Premium's. */
  static final MachineSizes PREMIUM_SIZES = MachineSizes.of(
      new MachineSize("P1", Family.GENERAL, 0, 6), new MachineSize("P2", Family.GENERAL, 0, 13),
      new MachineSize("P3", Family.GENERAL, 0, 26), new MachineSize("P4", Family.GENERAL, 0, 53),
      new MachineSize("P5", Family.GENERAL, 0, 120));
  static final int TLS_PORT = 6380;

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final Supplier<String> location;
  private final StatusPoll poll;
  private final boolean vault;

  RedisCache(AzureClients clients, CloudCalls calls, String resourceGroup, Supplier<String> location,
      StatusPoll poll, boolean vault) {
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
    this.location = location;
    this.poll = poll;
    this.vault = vault;
  }

  Defaulted<DatastoreSpec> withDefaults(DatastoreSpec spec) {
    String asked = spec.instanceClass();
    // a replica in another zone needs Premium: a Standard size asked for with multiAZ counts for its memory
    MachineSize standard = STANDARD_SIZES.own(asked);
    MachineSize size = !spec.multiAz() ? STANDARD_SIZES.atLeast(asked)
        : standard != null ? PREMIUM_SIZES.atLeast(standard) : PREMIUM_SIZES.atLeast(asked);
    if (size == null) {
      return Defaulted.as(spec);
    }
    String reason = spec.multiAz()
        ? "a replica in another zone needs the Premium tier: the smallest Premium size with at least the memory of "
        : "the smallest Azure Cache for Redis size with at least the memory of ";
    return new Defaulted<>(spec.toBuilder().instanceClass(size.name()).build(),
        List.of(new PlanDefault("instanceClass", size.name(), reason + asked)));
  }

  List<FieldError> validate(DatastoreSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (!spec.instanceClass().matches("[CP]\\d")) {
      errors.add(FieldError.of("instanceClass", "invalid_value", "an Azure Cache for Redis size (C0..C6, P1..P5)"
          + " or an ElastiCache node type of " + MachineSizes.cacheAliases()));
    } else if (spec.multiAz() && spec.instanceClass().startsWith("C")) {
      errors.add(FieldError.of("instanceClass", "invalid_value", "multiAZ needs a Premium size (P1..P5)"));
    }
    if (spec.backupRetentionDays() != null && spec.backupRetentionDays() > 0) {
      errors.add(FieldError.of("backupRetentionDays", "unsupported", "Azure Cache for Redis keeps snapshots in a"
          + " storage account, which the Azure provider does not make yet"));
    }
    if (spec.vpcId() != null) {
      errors.add(FieldError.of("vpcID", "unsupported", "the Azure provider does not place caches in a network"
          + " yet; they are reached over TLS with their access key"));
    }
    return errors;
  }

  static String cacheName(StepContext ctx, DatastoreSpec spec) {
    return spec.name() != null ? spec.name() : ctx.resourceName("cache");
  }

  private ArmResource<RedisResourceInner> cache(String name) {
    return new ArmResource<>("Redis cache", name, () -> calls.findOrNull(REDIS_READ, () -> clients.redis()
        .serviceClient().getRedis().getByResourceGroup(resourceGroup, name)), RedisResourceInner::tags,
        RedisResourceInner::provisioningState);
  }

  List<Step> create(DatastoreSpec spec) {
    return List.of(
        ProviderStep.of("create-cache", List.of(REDIS_READ, REDIS_WRITE, RESOURCE_GROUPS_READ),
            ctx -> cache(cacheName(ctx, spec)).ensure(ctx, poll, () -> put(ctx, spec), c -> true,
                c -> Map.ofEntries(CACHE_NAME.is(c.name()), SharedOutputs.HOST.is(c.hostname()),
                    SharedOutputs.PORT.is(c.sslPort() == null
                    ? TLS_PORT : c.sslPort()), SharedOutputs.ENGINE.is("redis"), SharedOutputs.TLS.is(true)))),
        ProviderStep.of("store-access-key", withVault(vault, List.of(REDIS_LIST_KEYS), KEY_VAULT_SECRETS_SET),
            this::storeKey));
  }

  List<Step> teardown(DatastoreSpec spec, Outputs recorded) {
    return List.of(ProviderStep.of("delete-cache", withVault(vault, List.of(REDIS_READ, REDIS_DELETE),
        KEY_VAULT_SECRETS_DELETE, KEY_VAULT_SECRETS_PURGE), ctx -> {
          StepResult result = cache(cacheName(ctx, spec)).remove(ctx, poll, () -> calls.deleteIfExists(REDIS_DELETE,
              () -> clients.redis().serviceClient().getRedis().beginDelete(resourceGroup, cacheName(ctx, spec))));
          SecretRef key = ctx.outputs().get(AUTH_SECRET_REF);
          if (result instanceof StepResult.Done && key != null) {
            ctx.secrets().delete(key);
          }
          return result;
        }));
  }

  List<CostComponent> price(DatastoreSpec spec, String spaceRegion) {
    String priceRegion = AzurePrices.region(spaceRegion, location);
    return List.of(AzurePrices.TABLE.hourly(priceRegion, "Azure Cache for Redis " + spec.instanceClass()
        + (spec.instanceClass().startsWith("P") ? " (Premium, a replica in another zone)" : " (Standard, primary"
            + " and replica)"), "redis:" + spec.instanceClass(), 1));
  }

  /**
   * A cache's size changes where it stands (one PATCH of its SKU; Standard and Premium caches keep their data, a
   * replica taking over while the primary is resized), and the job waits until the cache has it. A cache keeps the
   * zones it was made in, so {@code multiAZ} (Premium across zones, or Standard) is refused ({@code zone_change}).
   */
  Revision revise(DatastoreSpec current, DatastoreSpec revised, Outputs recorded) {
    if (!recorded.has(CACHE_NAME)) {
      return Revision.none();
    }
    String name = recorded.get(CACHE_NAME);
    Sku wanted = sku(revised.instanceClass());
    Revision revision = Revision.of(List.of(
        ProviderStep.of("scale-cache", List.of(REDIS_READ, REDIS_WRITE), ctx -> scale(ctx, name, wanted)),
        ProviderStep.of("await-cache-scaled", List.of(REDIS_READ), ctx -> awaitScaled(ctx, name, wanted))))
        .inPlace("instanceClass");
    if (current.multiAz() != revised.multiAz()) {
      revision.refuse("multiAZ", "zone_change", "an Azure Cache for Redis keeps the tier and zones it was made"
          + " with: create a new datastore and move the data");
    }
    return RevisionRules.keepsData(revision, "an Azure Cache for Redis", current, revised);
  }

  private static boolean sized(RedisResourceInner cache, Sku wanted) {
    return cache.sku() != null && wanted.name().equals(cache.sku().name())
        && wanted.family().equals(cache.sku().family()) && wanted.capacity() == cache.sku().capacity();
  }

  /** Asks for the new size unless the cache has it; a cache still changing is waited out first. */
  private StepResult scale(StepContext ctx, String name, Sku wanted) {
    RedisResourceInner cache = cache(name).find().get();
    if (cache == null) {
      return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "Redis cache " + name
          + " is gone"));
    }
    dev.zop.provisioner.Failure foreign = AzureTags.OWNER.refuseForeign(cache.tags(), ctx, "Redis cache", name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    if (sized(cache, wanted)) {
      return StepResult.done();
    }
    if (!"Succeeded".equals(String.valueOf(cache.provisioningState()))) {
      return poll.waitFor(ctx, "Redis cache " + name + " is " + cache.provisioningState());
    }
    calls.call(REDIS_WRITE, () -> clients.redis().serviceClient().getRedis().beginUpdate(resourceGroup, name,
        new RedisUpdateParameters().withSku(wanted)));
    ctx.log("asked Azure to scale Redis cache " + name + " to " + wanted.family() + wanted.capacity());
    return StepResult.done();
  }

  private StepResult awaitScaled(StepContext ctx, String name, Sku wanted) {
    RedisResourceInner cache = cache(name).find().get();
    if (cache == null) {
      return StepResult.fail(dev.zop.provisioner.Failure.system("resource_missing", "Redis cache " + name
          + " is gone"));
    }
    String state = String.valueOf(cache.provisioningState());
    return "Succeeded".equals(state) && sized(cache, wanted) ? StepResult.done()
        : poll.waitFor(ctx, "Redis cache " + name + " is " + state);
  }

  private static Sku sku(String size) {
    boolean premium = size.startsWith("P");
    return new Sku().withName(premium ? SkuName.PREMIUM : SkuName.STANDARD).withFamily(premium ? SkuFamily.P
        : SkuFamily.C).withCapacity(Integer.parseInt(size.substring(1)));
  }

  private void put(StepContext ctx, DatastoreSpec spec) {
    String size = spec.instanceClass();
    boolean premium = size.startsWith("P");
    RedisCreateParameters wanted = new RedisCreateParameters().withSku(sku(size))
        .withEnableNonSslPort(false).withMinimumTlsVersion(TlsVersion.ONE_TWO)
        .withRedisVersion(spec.version() == null ? "6" : spec.version().split("\\.")[0])
        .withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "cache"));
    if (premium && spec.multiAz()) {
      wanted.withZones(List.of("1", "2")).withReplicasPerPrimary(1);
    }
    String name = cacheName(ctx, spec);
    calls.call(REDIS_WRITE, () -> clients.redis().serviceClient().getRedis().beginCreate(resourceGroup, name,
        wanted));
  }

  /** The primary access key, copied into the space's secret store under the job's name (a re-run replaces it). */
  private StepResult storeKey(StepContext ctx) {
    String name = ctx.outputs().require(CACHE_NAME);
    var keys = calls.call(REDIS_LIST_KEYS, () -> clients.redis().serviceClient().getRedis()
        .listKeys(resourceGroup, name));
    SecretRef ref = ctx.secrets().put("zop/" + ctx.jobId() + "/auth", keys.primaryKey());
    return StepResult.done(AUTH_SECRET_REF.is(ref));
  }
}
