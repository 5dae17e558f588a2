package dev.zop.provisioner.testkit.tck;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.discovery.OfferedSize;
import dev.zop.provisioner.discovery.Offerings;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import java.util.ArrayList;
import java.util.List;

/**
 * What the TCK asks of a provider's prices: every size it offers in every region it names has a list price, and
 * every spec sized to an offered size prices each of its lines (a line without a price makes a plan's total a lower
 * bound and a revision's difference unknown). Lines counted by usage (data transfer, image storage: a quantity of 0)
 * are the only ones allowed to stay unknown. Each priced line names the table it came from, with its date, when the
 * provider has one.
 */
final class OfferedPrices {
  private final CloudProvider provider;
  private final ProviderSession session;
  private final List<String> missing = new ArrayList<>();

  OfferedPrices(CloudProvider provider, ProviderSession session) {
    this.provider = provider;
    this.session = session;
  }

  /**
   * Each offering without a price, and each priced line that has none or names no table, as a line of text, in
   * {@code home} and every other region of {@code regions} the provider's table prices at all. A region the table
   * has no list for is unknown as a whole (every plan there says so) until an operator imports the vendor's prices
   * for it; a region listed in part is the gap this finds.
   */
  List<String> missing(String home, List<String> regions, List<ResourceSpec> templates) {
    List<String> checked = new ArrayList<>(List.of(home));
    regions.stream().filter(r -> !r.equals(home)).filter(this::pricedAtAll).forEach(checked::add);
    for (String region : checked) {
      Offerings offered = provider.offerings(region);
      for (List<OfferedSize> list : List.of(offered.machineSizes(), offered.databaseClasses(),
          offered.cacheNodeTypes())) {
        list.stream().filter(size -> size.hourlyPrice() == null).forEach(size -> missing.add(region
            + ": offering " + size.name() + " (" + size.providerName() + ") has no hourly price"));
      }
      for (ResourceSpec template : templates) {
        for (ResourceSpec sized : sizedAsOffered(template, offered)) {
          priceEachLine(region, sized);
        }
      }
    }
    return missing;
  }

  private boolean pricedAtAll(String region) {
    Offerings offered = provider.offerings(region);
    return java.util.stream.Stream.of(offered.machineSizes(), offered.databaseClasses(), offered.cacheNodeTypes())
        .flatMap(List::stream).anyMatch(size -> size.hourlyPrice() != null);
  }

  private List<ResourceSpec> sizedAsOffered(ResourceSpec template, Offerings offered) {
    List<ResourceSpec> out = new ArrayList<>();
    if (template instanceof KubernetesSpec cluster && !cluster.nodeGroups().isEmpty()) {
      NodeGroup first = cluster.nodeGroups().get(0);
      offered.machineSizes().forEach(size -> out.add(cluster.toBuilder().nodeGroups(List.of(
          new NodeGroup(first.name(), size.name(), first.min(), first.max(), first.desired()))).build()));
    } else if (template instanceof VmPoolSpec pool) {
      offered.machineSizes().forEach(size -> out.add(pool.toBuilder().instanceType(size.name()).build()));
    } else if (template instanceof DatastoreSpec store && store.engine() == DatastoreEngine.REDIS) {
      offered.cacheNodeTypes().forEach(size -> out.add(store.toBuilder().instanceClass(size.name()).build()));
    } else if (template instanceof DatastoreSpec store) {
      for (DatastoreEngine engine : List.of(DatastoreEngine.POSTGRES, DatastoreEngine.MYSQL)) {
        offered.databaseClasses().forEach(size -> out.add(store.toBuilder().engine(engine)
            .version(offered.engineVersions().containsKey(engine.wireName())
                ? last(offered.engineVersions().get(engine.wireName())) : store.version())
            .instanceClass(size.name()).build()));
      }
    } else {
      out.add(template);
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private void priceEachLine(String region, ResourceSpec sized) {
    ResourceDriver<ResourceSpec> driver = (ResourceDriver<ResourceSpec>) session.driver(sized.kind());
    if (!driver.validate(sized).isEmpty()) {
      return; // a size the provider refuses for this engine is not offered for it; validation says so at plan time
    }
    ResourceSpec priced = driver.withDefaults(sized).spec();
    for (CostComponent line : driver.price(priced, region)) {
      String what = region + ": " + sized.kind().wireName() + " " + describe(sized) + ": " + line.name();
      if (!line.priceKnown() && line.quantity().signum() > 0) {
        missing.add(what + " has no price (" + line.note() + ")");
      }
      if (line.priceKnown() && driver.pricesAsOf() != null
          && (line.source() == null || !line.source().contains(driver.pricesAsOf()))) {
        missing.add(what + " does not name its price table and date (" + line.source() + ")");
      }
    }
  }

  private static String describe(ResourceSpec spec) {
    if (spec instanceof DatastoreSpec store) {
      return store.engine().wireName() + " " + store.instanceClass();
    }
    if (spec instanceof VmPoolSpec pool) {
      return pool.instanceType();
    }
    if (spec instanceof KubernetesSpec cluster && !cluster.nodeGroups().isEmpty()) {
      return cluster.nodeGroups().get(0).instanceType();
    }
    return "";
  }

  private static String last(List<String> values) {
    return values.isEmpty() ? null : values.get(values.size() - 1);
  }
}
