package dev.zop.provisioner.kit;

import dev.zop.provisioner.kit.MachineSize.Family;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine sizes a provider offers, and the neutral names every provider accepts for them: AWS instance types,
 * as the product documents write specs ({@code m5.large}). An alias resolves to the provider's size of the same
 * family, vCPUs and memory, so a body written for one cloud runs on another as written, and the plan says what
 * each name became. A provider declares its sizes; the aliases are the kit's, the same for every provider.
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

  private static final Map<String, MachineSize> ALIAS_BY_NAME = byName(ALIASES);

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
