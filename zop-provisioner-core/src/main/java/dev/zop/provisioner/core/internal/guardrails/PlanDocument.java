package dev.zop.provisioner.core.internal.guardrails;

import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.LoadBalancerSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What guardrails read of a change, built once per plan: the only input of every rule, built-in or CEL (where it is
 * the variable {@code plan}, typed field by field as {@link CelPrograms} declares it). Every field has a value when
 * the plan is made: sizes are ranges ({@code countMin} .. {@code countMax}), a cost the provider cannot price leaves
 * {@code cost.complete} false, and the rules that read a cost then fail closed.
 *
 * @param action what the change is: {@code create}, {@code revise}, {@code reconcile}, {@code retry}
 * @param space the space's id
 * @param region the space's region, or where its provider puts its resources when it names none (an Azure
 *     resource group's location); {@code ""} only when neither says
 * @param name the job's name
 * @param config the spec, as the REST body spells it, with the provider's defaults filled in
 * @param tags the job's tags
 * @param resources every resource the change makes or keeps, with its size and count at minimum and at maximum
 * @param maxCount the most nodes or instances one node group, pool or datastore runs at its maximum
 */
public record PlanDocument(String action, String kind, String provider, String region, String space, String name,
    Map<String, Object> config, Map<String, String> tags, List<Resource> resources, Cost cost, Caller caller,
    long maxCount) {

  public PlanDocument {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(provider, "provider");
    region = region == null ? "" : region;
    Objects.requireNonNull(space, "space");
    name = name == null ? "" : name;
    config = config == null ? Map.of() : config;
    tags = tags == null ? Map.of() : Map.copyOf(tags);
    resources = List.copyOf(resources);
    Objects.requireNonNull(cost, "cost");
    Objects.requireNonNull(caller, "caller");
  }

  /**
   * One resource of the change.
   *
   * @param type {@code kubernetes_cluster}, {@code node_group}, {@code vm_pool}, {@code load_balancer},
   *     {@code datastore}, {@code network}, {@code subnet}, {@code nat_gateway}, {@code dns_zone}, {@code registry},
   *     {@code helm_release}
   * @param field where the request describes it ({@code config.nodeGroups[1]}, {@code config}), for naming the field
   *     at fault
   * @param size its instance type, class or node size ({@code ""} for what has none)
   * @param version its Kubernetes, engine or chart version ({@code ""} for what has none)
   */
  public record Resource(String type, String name, String field, String size, String version,
      long countMin, long countMax) {
    public Resource {
      name = name == null ? "" : name;
      size = size == null ? "" : size;
      version = version == null ? "" : version;
    }
  }

  /**
   * Monthly dollars. {@code before} is what the job costs now (0 for a new one), {@code after} what it costs after
   * the change at the size it starts at, {@code afterAtMax} at its maximum size, {@code spaceAtMax} the space's
   * other succeeded jobs at their maximum plus {@code afterAtMax}. {@code deltaPercent} is {@code delta} as a
   * percentage of {@code before}; for a new job, 100 when it costs anything, else 0. {@code complete} is false when a
   * line on either side has no price: the totals are then lower bounds.
   */
  public record Cost(BigDecimal before, BigDecimal after, BigDecimal delta, BigDecimal deltaPercent,
      BigDecimal afterAtMax, BigDecimal spaceAtMax, boolean complete) {

    public static Cost of(BigDecimal before, BigDecimal after, BigDecimal afterAtMax, BigDecimal spaceOthersAtMax,
        boolean complete) {
      BigDecimal delta = after.subtract(before);
      BigDecimal percent = before.signum() == 0
          ? (after.signum() > 0 ? BigDecimal.valueOf(100) : BigDecimal.ZERO)
          : delta.multiply(BigDecimal.valueOf(100)).divide(before, 2, RoundingMode.HALF_UP);
      return new Cost(before, after, delta, percent, afterAtMax, spaceOthersAtMax.add(afterAtMax), complete);
    }
  }

  /** Who asks for the change. */
  public record Caller(String actor, List<String> roles) {
    public Caller {
      roles = List.copyOf(roles);
    }
  }

  /** The resources {@code spec} makes, with the fields of the request that set them. */
  public static List<Resource> resourcesOf(ResourceSpec spec) {
    List<Resource> out = new ArrayList<>();
    if (spec instanceof KubernetesSpec cluster) {
        out.add(new Resource("kubernetes_cluster", cluster.name(), "config", "", cluster.version(), 1, 1));
        for (int i = 0; i < cluster.nodeGroups().size(); i++) {
          NodeGroup g = cluster.nodeGroups().get(i);
          long min = g.min() != null ? g.min() : g.desired() != null ? g.desired() : 1;
          long max = g.max() != null ? g.max() : Math.max(min, g.desired() != null ? g.desired() : min);
          out.add(new Resource("node_group", g.name(), "config.nodeGroups[" + i + "]",
              g.instanceType(), "", min, max));
        }
    } else if (spec instanceof VmPoolSpec pool) {
        long min = pool.min() != null ? pool.min() : 1;
        long max = pool.max() != null ? pool.max() : min;
        out.add(new Resource("vm_pool", pool.name(), "config", pool.instanceType(), "", min, max));
        if (Boolean.TRUE.equals(pool.createLoadBalancer())) {
          out.add(new Resource("load_balancer", pool.name(), "config", pool.loadBalancerType(), "",
              1, 1));
        }
    } else if (spec instanceof DatastoreSpec store) {
      out.add(new Resource("datastore", store.name(), "config",
          store.instanceClass(), store.version(), 1, store.multiAz() ? 2 : 1));
    } else if (spec instanceof NetworkSpec network) {
        out.add(new Resource("network", network.name(), "config", "", "", 1, 1));
        for (int i = 0; i < network.subnets().size(); i++) {
          out.add(new Resource("subnet", network.subnets().get(i).name(), "config.subnets[" + i + "]", "", "", 1, 1));
        }
        if (network.natGateways() != null && !NetworkSpec.NAT_NONE.equals(network.natGateways())) {
          out.add(new Resource("nat_gateway", network.name(), "config", "", "", 1,
              NetworkSpec.NAT_SINGLE.equals(network.natGateways()) ? 1 : Math.max(1, network.subnets().size())));
        }
        if (network.dnsZone() != null) {
          out.add(new Resource("dns_zone", network.dnsZone(), "config", "", "", 1, 1));
        }
    } else if (spec instanceof RegistrySpec registry) {
      out.add(new Resource("registry", registry.name(), "config", "", "", 1, 1));
    } else if (spec instanceof LoadBalancerSpec balancer) {
      out.add(new Resource("load_balancer", balancer.name(), "config", "", "", 1, 1));
    } else if (spec instanceof ComponentSpec component) {
      out.add(new Resource("helm_release", component.componentId(), "config", "", component.chartVersion(), 1, 1));
    }
    return out;
  }

  /** The most nodes or instances one node group, pool or datastore runs at its maximum (0 when there is none). */
  public static long maxCount(List<Resource> resources) {
    return resources.stream().filter(r -> SCALED.contains(r.type())).mapToLong(Resource::countMax).max().orElse(0);
  }

  private static final java.util.Set<String> SCALED = java.util.Set.of("node_group", "vm_pool", "datastore");

  /** The document as CEL reads it: maps, lists, strings, longs, doubles and booleans. */
  public Map<String, Object> asCelValue() {
    Map<String, Object> plan = new LinkedHashMap<>();
    plan.put("action", action);
    plan.put("kind", kind);
    plan.put("provider", provider);
    plan.put("region", region);
    plan.put("space", space);
    plan.put("name", name);
    plan.put("config", config);
    plan.put("tags", tags);
    plan.put("resources", resources.stream().map(r -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", r.type());
      m.put("name", r.name());
      m.put("field", r.field());
      m.put("size", r.size());
      m.put("version", r.version());
      m.put("countMin", r.countMin());
      m.put("countMax", r.countMax());
      return m;
    }).toList());
    Map<String, Object> money = new LinkedHashMap<>();
    money.put("before", cost.before().doubleValue());
    money.put("after", cost.after().doubleValue());
    money.put("delta", cost.delta().doubleValue());
    money.put("deltaPercent", cost.deltaPercent().doubleValue());
    money.put("afterAtMax", cost.afterAtMax().doubleValue());
    money.put("spaceAtMax", cost.spaceAtMax().doubleValue());
    money.put("complete", cost.complete());
    plan.put("cost", money);
    plan.put("caller", Map.of("actor", caller.actor(), "roles", caller.roles()));
    plan.put("maxCount", maxCount);
    return plan;
  }

  /** A JSON document in the plain values CEL reads: maps, lists, strings, longs, doubles and booleans. */
  public static Object plain(com.fasterxml.jackson.databind.JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> out = new LinkedHashMap<>();
      node.fields().forEachRemaining(e -> {
        if (!e.getValue().isNull()) {
          out.put(e.getKey(), plain(e.getValue()));
        }
      });
      return out;
    }
    if (node.isArray()) {
      List<Object> out = new ArrayList<>();
      node.forEach(item -> out.add(plain(item)));
      return out;
    }
    if (node.isIntegralNumber()) {
      return node.longValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    return node.asText();
  }

  /** A document as {@link dev.zop.provisioner.core.internal.store.Json} wrote it with its decision. */
  @SuppressWarnings("unchecked")
  public static PlanDocument read(String json) {
    try {
      com.fasterxml.jackson.databind.JsonNode tree = dev.zop.provisioner.core.internal.store.Json.MAPPER.readTree(json);
      PlanDocument read = dev.zop.provisioner.core.internal.store.Json.MAPPER.treeToValue(tree, PlanDocument.class);
      Object config = plain(tree.path("config"));
      return new PlanDocument(read.action(), read.kind(), read.provider(), read.region(), read.space(), read.name(),
          config instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of(), read.tags(), read.resources(),
          read.cost(), read.caller(), read.maxCount());
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a recorded plan document is unreadable", e);
    }
  }
}
