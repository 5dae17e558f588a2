package dev.zop.provisioner.sim;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.LoadBalancerSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.spi.Adoption;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;

/** One generic driver per kind: the kind decides which simulated resources exist and how they are priced. */
final class SimDrivers {
  static final Set<String> KUBERNETES_VERSIONS = Set.of("1.28", "1.29", "1.30", "1.31");
  /** What the wizard offers for each engine; the simulated cloud takes any version a spec names. */
  static final Map<String, List<String>> ENGINE_VERSIONS = Map.of("postgres", List.of("14.13", "15.8", "16.3"),
      "mysql", List.of("8.0.39", "8.4.2"), "redis", List.of("6.2", "7.1"));

  private SimDrivers() {}

  static ResourceDriver<? extends ResourceSpec> forKind(JobKind kind, SimCloud cloud, String region) {
    return switch (kind) {
      case KUBERNETES -> new Driver<>(KubernetesSpec.class, cloud, region, SimDrivers::kubernetes,
          SimDrivers::validateKubernetes, SimPrices::kubernetes, SimDrivers::reviseKubernetes);
      case VM_POOL -> new Driver<>(VmPoolSpec.class, cloud, region, SimDrivers::vmPool, s -> List.of(),
          SimPrices::vmPool, (now, next, revision) -> revision.inPlace("min", "max", "instanceType",
              "listenerPorts"));
      case DATASTORE -> new Driver<>(DatastoreSpec.class, cloud, region, SimDrivers::datastore, s -> List.of(),
          SimPrices::datastore, SimDrivers::reviseDatastore);
      case NETWORK -> new Driver<>(NetworkSpec.class, cloud, region, SimDrivers::network, s -> List.of(),
          SimPrices::network, SimDrivers::reviseNetwork);
      case REGISTRY -> new Driver<>(RegistrySpec.class, cloud, region, SimDrivers::registry, s -> List.of(),
          SimPrices::registry, (now, next, revision) -> revision.inPlace("immutableTags", "scanOnPush"));
      case LOAD_BALANCER -> new Driver<>(LoadBalancerSpec.class, cloud, region, SimDrivers::loadBalancer,
          s -> List.of(), SimPrices::loadBalancer, (now, next, revision) -> revision.inPlace("listenerPorts"));
      case COMPONENT -> new Driver<>(ComponentSpec.class, cloud, region, SimDrivers::component, s -> List.of(),
          (s, r) -> List.of(), (now, next, revision) -> revision.inPlace("version", "values"));
      case REMEDIATION -> throw new IllegalArgumentException("sim provisions no " + kind.wireName());
    };
  }

  private static List<Part> kubernetes(KubernetesSpec spec, String region) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.derived("role", "iam-role", "cluster-role", "iam", "Role"));
    parts.add(Part.named("cluster", "kubernetes-cluster", spec.name(), "kubernetes", "Cluster")
        .attributes(Map.of("version", spec.version()))
        .outputs(Map.ofEntries(SharedOutputs.CLUSTER_NAME.is("{name}"),
            SimState.ENDPOINT.is("https://{name}." + region + ".k8s.sim.invalid")))
        .waiting());
    for (NodeGroup group : spec.nodeGroups()) {
      parts.add(Part.named("nodegroup." + group.name(), "node-group", spec.name() + "-" + group.name(),
              "kubernetes", "Nodegroup")
          .attributes(Map.of("instanceType", group.instanceType(), "desired", String.valueOf(group.desiredSize()),
              "min", String.valueOf(group.min()), "max", String.valueOf(group.max())))
          .waiting());
    }
    return parts;
  }

  private static List<FieldError> validateKubernetes(KubernetesSpec spec) {
    if (spec.version() != null && !KUBERNETES_VERSIONS.contains(spec.version())) {
      return List.of(FieldError.of("version", "unsupported_version",
          "supported versions are " + KUBERNETES_VERSIONS.stream().sorted().toList()));
    }
    return List.of();
  }

  /** A Kubernetes minor moves one at a time and never back, as the managed services allow. */
  private static Revision reviseKubernetes(KubernetesSpec now, KubernetesSpec next, Revision revision) {
    return RevisionRules.oneMinorUp(revision.inPlace("nodeGroups", "version"), "the simulated cloud",
        now.version(), next.version());
  }

  /** A datastore grows and changes class where it stands; storage never shrinks and the engine never changes. */
  private static Revision reviseDatastore(DatastoreSpec now, DatastoreSpec next, Revision revision) {
    return RevisionRules.keepsData(revision.inPlace("instanceClass", "allocatedStorageGB", "backupRetentionDays",
        "multiAZ"), "a simulated datastore", now, next);
  }

  /** Subnets are added and the DNS zone set; a subnet in use is neither removed nor given another range. */
  private static Revision reviseNetwork(NetworkSpec now, NetworkSpec next, Revision revision) {
    revision.inPlace("subnets", "dnsZone");
    for (Subnet subnet : now.subnets()) {
      Subnet kept = next.subnets().stream().filter(s -> s.name().equals(subnet.name())).findFirst().orElse(null);
      if (kept == null || !kept.cidr().equals(subnet.cidr())) {
        revision.refuse("subnets", "subnet_in_use", "subnet " + subnet.name() + " (" + subnet.cidr()
            + ") stays as it is: subnets are added, not removed or changed");
      }
    }
    return revision;
  }

  private static List<Part> vmPool(VmPoolSpec spec, String region) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.named("launch-template", "launch-template", spec.name(), "compute", "LaunchTemplate")
        .attributes(Map.of("instanceType", spec.instanceType())));
    parts.add(Part.named("group", "scaling-group", spec.name(), "autoscaling", "AutoScalingGroup")
        .attributes(Map.of("min", String.valueOf(spec.min()), "max", String.valueOf(spec.max()))));
    if (spec.createLoadBalancer()) {
      parts.addAll(balancer(spec.name(), spec.loadBalancerType() == null ? "application" : spec.loadBalancerType(),
          spec.listenerPorts(), region));
    }
    return parts;
  }

  private static List<Part> balancer(String name, String type, List<Integer> ports, String region) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.named("lb", "load-balancer", name, "loadbalancing", "LoadBalancer")
        .attributes(Map.of("type", type))
        .outputs(Map.ofEntries(SimState.DNS_NAME.is("{name}." + region + ".lb.sim.invalid")))
        .waiting());
    parts.add(Part.named("target-group", "target-group", name, "loadbalancing", "TargetGroup"));
    for (Integer port : ports) {
      parts.add(Part.named("listener." + port, "listener", name + "-" + port, "loadbalancing", "Listener"));
    }
    return parts;
  }

  private static List<Part> datastore(DatastoreSpec spec, String region) {
    List<Part> parts = new ArrayList<>();
    if (spec.engine().isSql()) {
      parts.add(Part.derived("subnet-group", "db-subnet-group", "db-subnets", "database", "DBSubnetGroup"));
      parts.add(new Part("db", "db-instance", spec.name(), "db", "database", "DBInstance",
          Map.of("engine", spec.engine().wireName(), "version", spec.version(),
              "instanceClass", spec.instanceClass(), "multiAZ", String.valueOf(spec.multiAz()),
              "allocatedStorageGB", String.valueOf(spec.allocatedStorageGb()),
              "backupRetentionDays", String.valueOf(spec.backupRetentionDays())),
          true, Map.ofEntries(SharedOutputs.HOST.is("{name}." + region + ".db.sim.invalid"),
              SharedOutputs.PORT.is(spec.engine().defaultPort()),
              SharedOutputs.ENGINE.is(spec.engine().wireName())), null)
          .backedBy(spec.engine()));
    } else {
      parts.add(new Part("cache", "cache-cluster", spec.name(), "cache", "cache", "ReplicationGroup",
          Map.of("engine", "redis", "version", spec.version(), "nodeType", spec.instanceClass()),
          true, Map.ofEntries(SharedOutputs.HOST.is("{name}." + region + ".cache.sim.invalid"),
              SharedOutputs.PORT.is(6379),
              SharedOutputs.ENGINE.is("redis")), null));
    }
    return parts;
  }

  private static List<Part> network(NetworkSpec spec, String region) {
    List<Part> parts = new ArrayList<>();
    parts.add(Part.named("vpc", "vpc", spec.name(), "network", "Vpc")
        .attributes(Map.of("cidr", spec.cidr())));
    for (Subnet subnet : spec.subnets()) {
      parts.add(Part.named("subnet." + subnet.name(), "subnet", spec.name() + "-" + subnet.name(), "network",
          "Subnet").attributes(Map.of("cidr", subnet.cidr(), "vpc", spec.name())));
    }
    if (spec.peerVpcId() != null) {
      parts.add(Part.named("peering", "vpc-peering", spec.name() + "-to-" + spec.peerVpcId(), "network",
          "VpcPeeringConnection").waiting());
    }
    if (spec.dnsZone() != null) {
      parts.add(Part.named("dns-zone", "dns-zone", spec.dnsZone(), "dns", "HostedZone"));
    }
    return parts;
  }

  private static List<Part> registry(RegistrySpec spec, String region) {
    return List.of(Part.named("repository", "registry", spec.name(), "registry", "Repository")
        .attributes(Map.of("immutableTags", String.valueOf(spec.immutableTags())))
        .outputs(Map.ofEntries(SimState.REPOSITORY_URI.is("123456789012.registry." + region + ".sim.invalid/{name}"))));
  }

  private static List<Part> loadBalancer(LoadBalancerSpec spec, String region) {
    return balancer(spec.name(), spec.type(), spec.listenerPorts(), region);
  }

  private static List<Part> component(ComponentSpec spec, String region) {
    String namespace = spec.namespace() != null ? spec.namespace() : spec.componentId();
    return List.of(Part.named("release", "helm-release", namespace + "/" + spec.componentId(), "helm", "Release")
        .attributes(Map.of("namespace", namespace)));
  }

  /** Which fields of a kind a revision changes, and which changes it refuses. */
  @FunctionalInterface
  private interface Rules<S> {
    Revision classify(S current, S revised, Revision revision);
  }

  /** A driver over a kind's parts: create each (and wait when it is asynchronous); delete in reverse. */
  private static final class Driver<S extends ResourceSpec> implements ResourceDriver<S> {
    private final Class<S> type;
    private final SimCloud cloud;
    private final String region;
    private final BiFunction<S, String, List<Part>> parts;
    private final Function<S, List<FieldError>> validator;
    private final BiFunction<S, String, List<CostComponent>> pricing;
    private final Rules<S> rules;

    Driver(Class<S> type, SimCloud cloud, String region, BiFunction<S, String, List<Part>> parts,
        Function<S, List<FieldError>> validator, BiFunction<S, String, List<CostComponent>> pricing,
        Rules<S> rules) {
      this.rules = rules;
      this.type = type;
      this.cloud = cloud;
      this.region = region;
      this.parts = parts;
      this.validator = validator;
      this.pricing = pricing;
    }

    @Override
    public Class<S> specType() {
      return type;
    }

    @Override
    public List<FieldError> validate(S spec) {
      return validator.apply(spec);
    }

    @Override
    public OutputKeys outputKeys() {
      return SimState.ALL;
    }

    @Override
    public List<Step> create(S spec) {
      List<Step> steps = new ArrayList<>();
      for (Part part : parts.apply(spec, region)) {
        steps.add(SimSteps.create(cloud, part, region));
        if (part.waits()) {
          steps.add(SimSteps.await(cloud, part));
        }
      }
      return steps;
    }

    @Override
    public List<Step> teardown(S spec, Outputs recorded) {
      List<Part> all = parts.apply(spec, region);
      List<Step> steps = new ArrayList<>();
      for (int i = all.size() - 1; i >= 0; i--) {
        Part part = all.get(i);
        String name = recorded.get(part.nameKey());
        if (name != null) {
          steps.add(SimSteps.delete(cloud, part, name));
        }
      }
      return steps;
    }

    /**
     * Parts the revised spec adds are created, parts whose attributes it changes are changed where they stand, and
     * parts it drops are deleted, most dependent first; the kind's rules say which fields may change.
     */
    @Override
    public Revision revise(S current, S revised, Outputs recorded) {
      List<Part> before = parts.apply(current, region);
      List<Part> after = parts.apply(revised, region);
      Map<String, Part> old = new java.util.HashMap<>();
      before.forEach(part -> old.put(part.key(), part));
      List<Step> steps = new ArrayList<>();
      Set<String> kept = new java.util.HashSet<>();
      for (Part part : after) {
        kept.add(part.key());
        Part was = old.get(part.key());
        if (was == null) {
          steps.add(SimSteps.create(cloud, part, region));
          if (part.waits()) {
            steps.add(SimSteps.await(cloud, part));
          }
        } else if (!was.attributes().equals(part.attributes())) {
          String name = recorded.get(part.nameKey());
          steps.add(SimSteps.update(cloud, part, name != null ? name : part.name()));
        }
      }
      for (int i = before.size() - 1; i >= 0; i--) {
        Part part = before.get(i);
        String name = recorded.get(part.nameKey());
        if (!kept.contains(part.key()) && name != null) {
          steps.add(SimSteps.delete(cloud, part, name));
        }
      }
      return rules.classify(current, revised, Revision.of(steps));
    }

    /**
     * Each part the job recorded, described and compared attribute by attribute with what the spec gives it; a part
     * the cloud no longer has is missing.
     */
    @Override
    public CloudRead<List<Drift>> observe(S spec, Outputs recorded) {
      List<Part> all = parts.apply(spec, region);
      return ProviderRead.of(all.stream().map(Part::describe).distinct().toList(), () -> {
        DriftFindings findings = new DriftFindings();
        for (Part part : all) {
          String name = recorded.get(part.nameKey());
          if (name == null) {
            continue; // a part the job never recorded is not one it made
          }
          ProviderRead.called();
          SimCloud.Resource found = cloud.describe(part.describe(), part.type(), name);
          String resource = part.type() + " " + name;
          if (found == null) {
            findings.missing(resource);
            continue;
          }
          new java.util.TreeMap<>(part.attributes()).forEach((attribute, expected) ->
              findings.compare(resource, attribute, expected, found.attributes().get(attribute)));
        }
        return findings.list();
      });
    }

    /** Every part the job recorded changed back to the spec's attributes where it stands (right ones are left). */
    @Override
    public Revision reconcile(S spec, Outputs recorded) {
      List<Step> steps = new ArrayList<>();
      Set<String> attributes = new java.util.TreeSet<>();
      for (Part part : parts.apply(spec, region)) {
        String name = recorded.get(part.nameKey());
        if (name != null && !part.attributes().isEmpty()) {
          steps.add(SimSteps.update(cloud, part, name));
          attributes.addAll(part.attributes().keySet());
        }
      }
      return Revision.of(steps).inPlace(attributes.toArray(String[]::new));
    }

    @Override
    @SuppressWarnings("unchecked")
    public CloudRead<Adoption<S>> findExisting(String externalId) {
      if (type != NetworkSpec.class) {
        return null;
      }
      return ProviderRead.of(List.of("network:DescribeVpc", "network:DescribeSubnet"), () -> {
        ProviderRead.called();
        SimCloud.Resource vpc = cloud.describe("network:DescribeVpc", "vpc", externalId);
        if (vpc == null) {
          return null;
        }
        ProviderRead.called();
        List<SimCloud.Resource> subnets = cloud.list("network:DescribeSubnet", "subnet").stream()
            .filter(r -> externalId.equals(r.attributes().get("vpc"))).toList();
        List<Subnet> declared = subnets.stream().map(r -> Subnet.of(subnetName(externalId, r.name()),
            r.attributes().get("cidr"))).toList();
        NetworkSpec config = NetworkSpec.named(externalId).cidr(vpc.attributes().get("cidr")).subnets(declared)
            .build();
        Map<String, String> state = new java.util.LinkedHashMap<>();
        List<String> resources = new ArrayList<>();
        resources.add("vpc " + externalId);
        state.put(SimState.PART_NAME.of("vpc").name(), externalId);
        for (int i = 0; i < subnets.size(); i++) {
          state.put(SimState.PART_NAME.of("subnet." + declared.get(i).name()).name(), subnets.get(i).name());
          resources.add("subnet " + subnets.get(i).name());
        }
        String owner = SimProvider.OWNER.ownerOf(vpc.tags());
        return (Adoption<S>) new Adoption<>(config, state, resources, owner);
      });
    }

    /** One step per part of what was found: found again, refused if another job's, tagged, recorded. */
    @Override
    @SuppressWarnings("unchecked")
    public List<Step> adopt(S found, String externalId) {
      if (type != NetworkSpec.class) {
        return List.of();
      }
      List<Step> steps = new ArrayList<>();
      for (Part part : parts.apply(found, region)) {
        steps.add(SimSteps.adopt(cloud, part, part.key().startsWith("subnet.")
            ? existingSubnet(part, externalId) : List.of(externalId), region));
      }
      return steps;
    }

    /** The names a subnet may have: one made by a job carries its network's name in front, one made by hand not. */
    private static List<String> existingSubnet(Part part, String vpcId) {
      String subnet = part.key().substring("subnet.".length());
      return List.of(vpcId + "-" + subnet, subnet);
    }

    private static String subnetName(String vpcId, String cloudName) {
      return cloudName.startsWith(vpcId + "-") ? cloudName.substring(vpcId.length() + 1) : cloudName;
    }

    @Override
    public List<CostComponent> price(S spec, String priceRegion) {
      return pricing.apply(spec, priceRegion);
    }
  }

}
