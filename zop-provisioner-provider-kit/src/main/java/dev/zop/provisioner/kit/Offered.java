package dev.zop.provisioner.kit;

import dev.zop.provisioner.discovery.OfferedSize;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A provider's {@link dev.zop.provisioner.discovery.Offerings} built from what it already declares: the kit's
 * neutral names, what each becomes on the provider and its price-table entry, so the lists a form offers are the
 * names its plans accept and price.
 */
public final class Offered {
  private Offered() {}

  /**
   * Each neutral name of {@code aliases} the provider has a size for, with what the name gives and the hourly price
   * of the provider's size.
   *
   * @param providerName what a neutral name becomes on the provider, or null when it has no such size
   * @param hourly       the hourly price of a provider's size by its name, or null when unlisted
   */
  public static List<OfferedSize> sizes(List<MachineSize> aliases, UnaryOperator<String> providerName,
      Function<String, BigDecimal> hourly) {
    List<OfferedSize> out = new ArrayList<>();
    for (MachineSize alias : aliases) {
      String own = providerName.apply(alias.name());
      if (own != null) {
        out.add(new OfferedSize(alias.name(), own, alias.family().name().toLowerCase(Locale.ROOT), alias.vcpus(),
            alias.memoryGib(), hourly.apply(own)));
      }
    }
    return out;
  }

  /** The instance types, named as AWS names them, on a provider whose own sizes are {@code own}. */
  public static List<OfferedSize> machines(MachineSizes own, Function<String, BigDecimal> hourly) {
    return sizes(MachineSizes.ALIASES, own::nameForAlias, hourly);
  }

  /** The RDS classes ({@code db.} and each instance type), each as what its instance type gives. */
  public static List<MachineSize> databaseAliases() {
    return MachineSizes.ALIASES.stream().map(size -> new MachineSize("db." + size.name(), size.family(),
        size.vcpus(), size.memoryGib())).toList();
  }
}
