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
 * it prices nothing real. Types not listed are reported as unknown, never guessed.
 */
final class SimPrices {
  private static final Map<String, BigDecimal> HOURLY = Map.ofEntries(
      Map.entry("t3.micro", new BigDecimal("0.0104")),
      Map.entry("t3.small", new BigDecimal("0.0208")),
      Map.entry("t3.medium", new BigDecimal("0.0416")),
      Map.entry("t3.large", new BigDecimal("0.0832")),
      Map.entry("m5.large", new BigDecimal("0.096")),
      Map.entry("m5.xlarge", new BigDecimal("0.192")),
      Map.entry("m5.2xlarge", new BigDecimal("0.384")),
      Map.entry("c5.large", new BigDecimal("0.085")),
      Map.entry("r5.large", new BigDecimal("0.126")),
      Map.entry("db.t3.micro", new BigDecimal("0.018")),
      Map.entry("db.t3.small", new BigDecimal("0.036")),
      Map.entry("db.t3.medium", new BigDecimal("0.072")),
      Map.entry("db.m5.large", new BigDecimal("0.178")),
      Map.entry("db.r5.large", new BigDecimal("0.25")),
      Map.entry("cache.t3.micro", new BigDecimal("0.017")),
      Map.entry("cache.t3.small", new BigDecimal("0.034")),
      Map.entry("cache.m5.large", new BigDecimal("0.156")));
  private static final BigDecimal CONTROL_PLANE = new BigDecimal("0.10");
  private static final BigDecimal LOAD_BALANCER = new BigDecimal("0.0225");
  private static final BigDecimal DB_STORAGE_GB_MONTH = new BigDecimal("0.115");
  private static final BigDecimal DNS_ZONE_MONTH = new BigDecimal("0.50");

  private SimPrices() {}

  static List<CostComponent> kubernetes(KubernetesSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(CostComponent.hourly("cluster control plane", 1, CONTROL_PLANE));
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
          + " load balancer", 1, LOAD_BALANCER));
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
          BigDecimal.valueOf((long) spec.allocatedStorageGb() * copies), DB_STORAGE_GB_MONTH));
    }
    return costs;
  }

  static List<CostComponent> network(NetworkSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    if (spec.dnsZone() != null) {
      costs.add(CostComponent.monthly("DNS zone " + spec.dnsZone(), "zone-month", BigDecimal.ONE, DNS_ZONE_MONTH));
    }
    return costs;
  }

  static List<CostComponent> registry(RegistrySpec spec, String region) {
    return List.of(CostComponent.unknown("image storage", "GB-month", BigDecimal.ZERO,
        "depends on the images pushed"));
  }

  static List<CostComponent> loadBalancer(LoadBalancerSpec spec, String region) {
    return List.of(CostComponent.hourly(spec.type() + " load balancer", 1, LOAD_BALANCER));
  }

  /** The hourly price of an instance type, class or node type; null when the list has none. */
  static BigDecimal hourly(String type) {
    return HOURLY.get(type);
  }

  private static CostComponent instances(String name, String type, int count) {
    BigDecimal price = HOURLY.get(type);
    if (price == null) {
      return CostComponent.unknown(name, "hour",
          CostComponent.HOURS_PER_MONTH.multiply(BigDecimal.valueOf(count)), "no price listed for " + type);
    }
    return CostComponent.hourly(name, count, price);
  }
}
