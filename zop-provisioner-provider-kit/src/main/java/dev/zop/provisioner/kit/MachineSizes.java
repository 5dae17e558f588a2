package dev.zop.provisioner.kit;

import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.kit.MachineSize.Family;
import dev.zop.provisioner.spec.NodeGroup;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sizes a provider offers for one service, and the neutral names every provider accepts for them: AWS's, as
 * the product documents write specs — instance types ({@code m5.large}), RDS classes ({@code db.t3.medium}, what
 * the instance type gives) and ElastiCache node types ({@code cache.m5.large}, by their memory). A provider
 * declares its sizes; the aliases are the kit's, the same for every provider, so a body written for one cloud runs
 * on another as written, and the plan says what each name became.
 *
 * <p>Two rules resolve an alias. {@link #forAlias}: the size of the same family, vCPUs and memory (machine types,
 * where every cloud has the same shapes). {@link #atLeast}: the smallest size that gives at least the alias's vCPUs
 * and memory, of its family when the provider has one, else of any (databases and caches, whose tiers differ from
 * cloud to cloud): a spec never gets less than it named. Prices stay in the provider's dated
 * {@link PriceTable}, which the plan prices the chosen size from.
 */
public final class MachineSizes {
  /** The neutral names: AWS instance types with what each gives. */
  public static final List<MachineSize> ALIASES = List.of(
      new MachineSize("t3.micro", Family.BURSTABLE, 2, 1),
      new MachineSize("t3.small", Family.BURSTABLE, 2, 2),
      new MachineSize("t3.medium", Family.BURSTABLE, 2, 4),
      new MachineSize("t3.large", Family.BURSTABLE, 2, 8),
      new MachineSize("t3.xlarge", Family.BURSTABLE, 4, 16),
      new MachineSize("t3.2xlarge", Family.BURSTABLE, 8, 32),
      new MachineSize("m5.large", Family.GENERAL, 2, 8),
      new MachineSize("m5.xlarge", Family.GENERAL, 4, 16),
      new MachineSize("m5.2xlarge", Family.GENERAL, 8, 32),
      new MachineSize("m5.4xlarge", Family.GENERAL, 16, 64),
      new MachineSize("r5.large", Family.MEMORY, 2, 16),
      new MachineSize("r5.xlarge", Family.MEMORY, 4, 32),
      new MachineSize("r5.2xlarge", Family.MEMORY, 8, 64),
      new MachineSize("c5.large", Family.COMPUTE, 2, 4),
      new MachineSize("c5.xlarge", Family.COMPUTE, 4, 8),
      new MachineSize("c5.2xlarge", Family.COMPUTE, 8, 16));

  /**
   * ElastiCache node types by their memory (GiB, as AWS publishes it); a cache is sized by memory alone, so their
   * vCPUs are not compared.
   */
  public static final List<MachineSize> CACHE_ALIASES = List.of(
      new MachineSize("cache.t3.micro", Family.BURSTABLE, 0, 0.5),
      new MachineSize("cache.t3.small", Family.BURSTABLE, 0, 1.37),
      new MachineSize("cache.t3.medium", Family.BURSTABLE, 0, 3.09),
      new MachineSize("cache.m5.large", Family.GENERAL, 0, 6.38),
      new MachineSize("cache.m5.xlarge", Family.GENERAL, 0, 12.93),
      new MachineSize("cache.m5.2xlarge", Family.GENERAL, 0, 26.04),
      new MachineSize("cache.r5.large", Family.MEMORY, 0, 13.07),
      new MachineSize("cache.r5.xlarge", Family.MEMORY, 0, 26.32));

  /** The prefix of an RDS class: {@code db.m5.large} gives what {@code m5.large} gives. */
  private static final String DATABASE_PREFIX = "db.";

  private static final Map<String, MachineSize> ALIAS_BY_NAME = byName(ALIASES);
  private static final Map<String, MachineSize> CACHE_ALIAS_BY_NAME = byName(CACHE_ALIASES);

  private final Map<String, MachineSize> own;

  private MachineSizes(List<MachineSize> own) {
    this.own = byName(own);
    for (int i = 0; i < own.size(); i++) {
      for (int j = i + 1; j < own.size(); j++) {
        if (own.get(i).sameAs(own.get(j))) {
          // an alias would have two answers
          throw new IllegalArgumentException(own.get(i).name() + " and " + own.get(j).name() + " give the same");
        }
      }
    }
  }

  /** A provider's own sizes. */
  public static MachineSizes of(MachineSize... own) {
    return new MachineSizes(List.of(own));
  }

  /** A provider's own sizes, built rather than listed (a grid of custom tiers). */
  public static MachineSizes of(List<MachineSize> own) {
    return new MachineSizes(List.copyOf(own));
  }

  /** The provider's sizes, in the order it declared them. */
  public List<MachineSize> all() {
    return List.copyOf(own.values());
  }

  /**
   * The provider's smallest size that gives at least what {@code wanted} gives ({@link MachineSize#holds}): of
   * {@code wanted}'s family when one does, else of any family; smallest by memory, then vCPUs, then the order the
   * provider declared them in. Null when none is that large.
   */
  public MachineSize atLeast(MachineSize wanted) {
    java.util.Comparator<MachineSize> smallest = java.util.Comparator.comparingDouble(MachineSize::memoryGib)
        .thenComparingInt(MachineSize::vcpus);
    MachineSize sameFamily = own.values().stream().filter(size -> size.family() == wanted.family())
        .filter(size -> size.holds(wanted)).min(smallest).orElse(null);
    return sameFamily != null ? sameFamily
        : own.values().stream().filter(size -> size.holds(wanted)).min(smallest).orElse(null);
  }

  /**
   * The provider's size an alias of any kind (instance type, RDS class, ElastiCache node type) asks for, by
   * {@link #atLeast(MachineSize)}; null when {@code name} is no alias, or the provider has no size that large.
   */
  public MachineSize atLeast(String name) {
    MachineSize wanted = anyAlias(name);
    return wanted == null ? null : atLeast(wanted);
  }

  /** What an alias of any kind gives: an instance type, an RDS class or an ElastiCache node type; else null. */
  public static MachineSize anyAlias(String name) {
    if (name == null) {
      return null;
    }
    MachineSize cache = CACHE_ALIAS_BY_NAME.get(name);
    if (cache != null) {
      return cache;
    }
    if (name.startsWith(DATABASE_PREFIX)) {
      MachineSize machine = ALIAS_BY_NAME.get(name.substring(DATABASE_PREFIX.length()));
      return machine == null ? null : machine.named(name);
    }
    return ALIAS_BY_NAME.get(name);
  }

  /** The RDS classes every provider's databases accept: {@code db.} and each instance type. */
  public static List<String> databaseAliases() {
    return ALIASES.stream().map(size -> DATABASE_PREFIX + size.name()).toList();
  }

  /** The ElastiCache node types every provider's caches accept. */
  public static List<String> cacheAliases() {
    return CACHE_ALIASES.stream().map(MachineSize::name).toList();
  }

  /** The provider's size named {@code name}, or null when it declares none of that name. */
  public MachineSize own(String name) {
    return own.get(name);
  }

  /**
   * The provider's size an alias stands for: the one of the alias's family, vCPUs and memory; null when
   * {@code name} is no alias, or the provider has no such size.
   */
  public MachineSize forAlias(String name) {
    MachineSize alias = ALIAS_BY_NAME.get(name);
    if (alias == null) {
      return null;
    }
    return own.values().stream().filter(alias::sameAs).findFirst().orElse(null);
  }

  /** The name of the provider's size an alias stands for ({@link #forAlias}), or null. */
  public String nameForAlias(String alias) {
    MachineSize size = forAlias(alias);
    return size == null ? null : size.name();
  }

  /**
   * The size a spec's field names, as this provider's own: an alias becomes the size it stands for
   * ({@link #forAlias}), and a default in {@code filled} says so, at {@code field}; any other name stays as written.
   *
   * @param sizeKind what the provider's sizes are called, e.g. {@code "the GCP machine type"}
   */
  public String resolve(String field, String named, String sizeKind, List<PlanDefault> filled) {
    String own = nameForAlias(named);
    if (own == null) {
      return named;
    }
    filled.add(new PlanDefault(field, own, sizeKind + " with the vCPUs and memory of " + named));
    return own;
  }

  /** A cluster's node groups with their instance types {@linkplain #resolve resolved}, each at its own field. */
  public List<NodeGroup> resolveNodeGroups(List<NodeGroup> groups, String sizeKind, List<PlanDefault> filled) {
    List<NodeGroup> resolved = new java.util.ArrayList<>();
    for (int i = 0; i < groups.size(); i++) {
      NodeGroup group = groups.get(i);
      String size = resolve("nodeGroups[" + i + "].instanceType", group.instanceType(), sizeKind, filled);
      resolved.add(size.equals(group.instanceType()) ? group
          : new NodeGroup(group.name(), size, group.min(), group.max(), group.desired()));
    }
    return resolved;
  }

  /**
   * Whether {@code name} reads as an AWS instance type ({@code family.size}): on another cloud, a name no alias
   * resolved is refused rather than sent to a cloud that knows no such size.
   */
  public static boolean readsAsAwsType(String name) {
    return name != null && name.contains(".");
  }

  /** What an alias gives, or null when {@code name} is no alias. */
  public static MachineSize alias(String name) {
    return ALIAS_BY_NAME.get(name);
  }

  private static Map<String, MachineSize> byName(List<MachineSize> sizes) {
    Map<String, MachineSize> named = new LinkedHashMap<>();
    for (MachineSize size : sizes) {
      if (named.put(size.name(), size) != null) {
        throw new IllegalArgumentException("two sizes named " + size.name());
      }
    }
    return named;
  }
}
