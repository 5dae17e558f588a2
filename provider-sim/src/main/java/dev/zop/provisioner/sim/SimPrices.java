package dev.zop.provisioner.sim;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.LoadBalancerSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The simulated cloud's price list (USD, on-demand). Modelled on public list prices so plans look plausible;
 * it prices nothing real. Every size the simulated cloud offers is listed; a type not listed is reported as
 * unknown, never guessed.
 */
final class SimPrices {
  /** What every line names as its table: the simulation's own list, so nobody reads it as a cloud's. */
  static final String SOURCE = "the simulated cloud's price list (a simulation, not a cloud's prices)";

  private static final Map<String, BigDecimal> HOURLY = Map.ofEntries(
      Map.entry("t3.micro", new BigDecimal("0.0104")),
      Map.entry("t3.small", new BigDecimal("0.0208")),
      Map.entry("t3.medium", new BigDecimal("0.0416")),
      Map.entry("t3.large", new BigDecimal("0.0832")),
      Map.entry("t3.xlarge", new BigDecimal("0.1664")),
      Map.entry("t3.2xlarge", new BigDecimal("0.3328")),
      Map.entry("m5.large", new BigDecimal("0.096")),
      Map.entry("m5.xlarge", new BigDecimal("0.192")),
      Map.entry("m5.2xlarge", new BigDecimal("0.384")),
      Map.entry("m5.4xlarge", new BigDecimal("0.768")),
      Map.entry("r5.large", new BigDecimal("0.126")),
      Map.entry("r5.xlarge", new BigDecimal("0.252")),
      Map.entry("r5.2xlarge", new BigDecimal("0.504")),
      Map.entry("c5.large", new BigDecimal("0.085")),
      Map.entry("c5.xlarge", new BigDecimal("0.17")),
      Map.entry("c5.2xlarge", new BigDecimal("0.34")),
      Map.entry("db.t3.micro", new BigDecimal("0.018")),
      Map.entry("db.t3.small", new BigDecimal("0.036")),
      Map.entry("db.t3.medium", new BigDecimal("0.072")),
      Map.entry("db.t3.large", new BigDecimal("0.145")),
      Map.entry("db.t3.xlarge", new BigDecimal("0.29")),
      Map.entry("db.t3.2xlarge", new BigDecimal("0.579")),
      Map.entry("db.m5.large", new BigDecimal("0.178")),
      Map.entry("db.m5.xlarge", new BigDecimal("0.356")),
      Map.entry("db.m5.2xlarge", new BigDecimal("0.712")),
      Map.entry("db.m5.4xlarge", new BigDecimal("1.424")),
      Map.entry("db.r5.large", new BigDecimal("0.25")),
      Map.entry("db.r5.xlarge", new BigDecimal("0.5")),
      Map.entry("db.r5.2xlarge", new BigDecimal("1.0")),
      Map.entry("cache.t3.micro", new BigDecimal("0.017")),
      Map.entry("cache.t3.small", new BigDecimal("0.034")),
      Map.entry("cache.t3.medium", new BigDecimal("0.068")),
      Map.entry("cache.m5.large", new BigDecimal("0.156")),
      Map.entry("cache.m5.xlarge", new BigDecimal("0.311")),
      Map.entry("cache.m5.2xlarge", new BigDecimal("0.623")),
      Map.entry("cache.r5.large", new BigDecimal("0.216")),
      Map.entry("cache.r5.xlarge", new BigDecimal("0.431")),
      Map.entry("db.c5.large", new BigDecimal("0.152")),
      Map.entry("db.c5.xlarge", new BigDecimal("0.304")),
      Map.entry("db.c5.2xlarge", new BigDecimal("0.608")));
  private static final BigDecimal CONTROL_PLANE = new BigDecimal("0.10");
  private static final BigDecimal LOAD_BALANCER = new BigDecimal("0.0225");
  private static final BigDecimal DB_STORAGE_GB_MONTH = new BigDecimal("0.115");
  private static final BigDecimal DNS_ZONE_MONTH = new BigDecimal("0.50");

  private SimPrices() {}

  static List<CostComponent> kubernetes(KubernetesSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(CostComponent.hourly("cluster control plane", 1, CONTROL_PLANE).from(SOURCE));
    for (NodeGroup group : spec.nodeGroups()) {
      costs.add(instances("node group " + group.name() + " (" + group.instanceType() + ")",
          group.instanceType(), group.desiredSize()));
    }
    return costs;
  }

  static List<CostComponent> vmPool(VmPoolSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(instances("instances at minimum size (" + spec.instanceType() + ")", spec.instanceType(), spec.min()));
    if (spec.createLoadBalancer()) {
      costs.add(CostComponent.hourly((spec.loadBalancerType() == null ? "application" : spec.loadBalancerType())
          + " load balancer", 1, LOAD_BALANCER).from(SOURCE));
    }
    return costs;
  }

  static List<CostComponent> datastore(DatastoreSpec spec, String region) {
    int copies = spec.multiAz() ? 2 : 1;
    List<CostComponent> costs = new ArrayList<>();
    costs.add(instances(spec.engine().wireName() + " " + spec.instanceClass()
        + (spec.multiAz() ? " (multi-AZ)" : ""), spec.instanceClass(), copies));
    if (spec.engine().isSql()) {
      costs.add(CostComponent.monthly("storage", "GB-month",
          BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies), DB_STORAGE_GB_MONTH).from(SOURCE));
    }
    return costs;
  }

  static List<CostComponent> network(NetworkSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    if (spec.dnsZone() != null) {
      costs.add(CostComponent.monthly("DNS zone " + spec.dnsZone(), "zone-month", BigDecimal.ONE, DNS_ZONE_MONTH)
          .from(SOURCE));
    }
    return costs;
  }

  static List<CostComponent> registry(RegistrySpec spec, String region) {
    return List.of(CostComponent.unknown("image storage", "GB-month", BigDecimal.ZERO,
        "depends on the images pushed").from(SOURCE));
  }

  static List<CostComponent> loadBalancer(LoadBalancerSpec spec, String region) {
    return List.of(CostComponent.hourly(spec.type() + " load balancer", 1, LOAD_BALANCER).from(SOURCE));
  }

  /** The hourly price of an instance type, class or node type; null when the list has none. */
  static BigDecimal hourly(String type) {
    return HOURLY.get(type);
  }

  private static CostComponent instances(String name, String type, int count) {
    BigDecimal price = HOURLY.get(type);
    if (price == null) {
      return CostComponent.unknown(name, "hour",
          CostComponent.HOURS_PER_MONTH.multiply(BigDecimal.valueOf(count)), "no price listed for " + type)
          .from(SOURCE);
    }
    return CostComponent.hourly(name, count, price).from(SOURCE);
  }
}
