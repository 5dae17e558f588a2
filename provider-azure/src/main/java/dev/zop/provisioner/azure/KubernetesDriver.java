package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.resourcemanager.containerservice.fluent.models.AgentPoolInner;
import com.azure.resourcemanager.containerservice.fluent.models.ManagedClusterInner;
import com.azure.resourcemanager.containerservice.models.AgentPoolMode;
import com.azure.resourcemanager.containerservice.models.ManagedClusterAgentPoolProfile;
import com.azure.resourcemanager.containerservice.models.ManagedClusterIdentity;
import com.azure.resourcemanager.containerservice.models.ResourceIdentityType;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NodeGroup;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * An AKS managed cluster with a system-assigned identity, one agent pool per node group (the first the system
 * pool) autoscaling between the group's min and max, in the spec's virtual network subnet when it names one. The
 * cluster carries its job in its tags; a resumed step adopts only a cluster whose tags say its job made it. The
 * PUT is sent once and the next step reads the provisioning state, holding no thread.
 */
final class KubernetesDriver implements ResourceDriver<KubernetesSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> CLUSTER_ID = OutputKey.text("clusterId");
  static final OutputKey<String> ENDPOINT = OutputKey.text("endpoint");
  /** A group's agent pool, where it is not the group's own name: a pool that replaced it for a new VM size. */
  static final OutputKey.PerPart<String> AGENT_POOL = OutputKey.textPerPart("agentpool.%s.name");

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final Supplier<String> location;
  private final StatusPoll poll;

  KubernetesDriver(DriverContext<AzureClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.resourceGroup = context.scope(AzureSession.RESOURCE_GROUP);
    this.location = context.region();
    this.poll = context.poll();
  }

  @Override
  public Class<KubernetesSpec> specType() {
    return KubernetesSpec.class;
  }

  @Override
  public Defaulted<KubernetesSpec> withDefaults(KubernetesSpec spec) {
    List<PlanDefault> filled = new ArrayList<>();
    List<NodeGroup> groups = VmSizes.SIZES.resolveNodeGroups(spec.nodeGroups(), VmSizes.KIND, filled);
    if (spec.subnetIds().size() > 1) {
      filled.add(new PlanDefault("subnetIDs", spec.subnetIds().get(0), "AKS nodes take one subnet: the first"
          + " named; the others are not used"));
    }
    return new Defaulted<>(spec.toBuilder().nodeGroups(groups).build(), filled);
  }

  @Override
  public List<FieldError> validate(KubernetesSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < spec.nodeGroups().size(); i++) {
      if (MachineSizes.readsAsAwsType(spec.nodeGroups().get(i).instanceType())) {
        errors.add(FieldError.of("nodeGroups[" + i + "].instanceType", "unknown_vm_size", "no Azure VM size is"
            + " known for " + spec.nodeGroups().get(i).instanceType() + "; name one such as Standard_D4s_v5"));
      }
    }
    if (!spec.subnetIds().isEmpty() && spec.vpcId() == null) {
      errors.add(FieldError.of("vpcID", "required", "an AKS subnet is named within its virtual network"));
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(KubernetesDriver.class).and(OutputKeys.of(SharedOutputs.CLUSTER_NAME));
  }

  @Override
  public List<Step> create(KubernetesSpec spec) {
    return List.of(
        ProviderStep.of("create-cluster", List.of(MANAGED_CLUSTERS_READ, MANAGED_CLUSTERS_WRITE, RESOURCE_GROUPS_READ,
            SUBNETS_JOIN),
                ctx -> createCluster(ctx,
                    spec)).intending(ctx -> Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name()))),
        ProviderStep.of("await-cluster", List.of(MANAGED_CLUSTERS_READ), ctx -> awaitCluster(ctx, spec)));
  }

  /**
   * An AKS cluster's revision. Its Kubernetes minor (one up, never down) and the staying groups' min, max and
   * desired counts change where it stands: the managed cluster as it is, with those changed, PUT again, as
   * {@code az aks update} does. Groups added get an agent pool each, groups dropped lose theirs (AKS drains its
   * nodes first). AKS cannot change a pool's VM size: a pool of the new size, in the old one's mode, is made beside
   * it and the old one then deleted, drained; the group's pool is recorded. Teardown deletes the cluster with every
   * pool it has.
   */
  @Override
  public Revision revise(KubernetesSpec current, KubernetesSpec revised, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return Revision.none();
    }
    Map<String, NodeGroup> before = new java.util.LinkedHashMap<>();
    current.nodeGroups().forEach(group -> before.put(group.name(), group));
    Map<String, String> staying = new java.util.LinkedHashMap<>();
    boolean resized = false;
    List<Step> pools = new ArrayList<>();
    for (NodeGroup group : revised.nodeGroups()) {
      NodeGroup was = before.get(group.name());
      if (was == null) {
        String made = poolName(group);
        pools.add(ProviderStep.each("create-agent-pool", made, List.of(AGENT_POOLS_READ, AGENT_POOLS_WRITE,
            SUBNETS_JOIN), ctx -> createPool(ctx, revised, group, made, null)));
        pools.add(ProviderStep.each("await-agent-pool", made, List.of(AGENT_POOLS_READ),
            ctx -> awaitPool(ctx, revised, made)));
        continue;
      }
      String pool = poolOf(recorded, group);
      if (!was.instanceType().equals(group.instanceType())) {
        String made = replacementPool(group, pool);
        pools.add(ProviderStep.each("create-agent-pool", made, List.of(AGENT_POOLS_READ, AGENT_POOLS_WRITE,
            SUBNETS_JOIN), ctx -> createPool(ctx, revised, group, made, pool)));
        pools.add(ProviderStep.each("await-agent-pool", made, List.of(AGENT_POOLS_READ),
            ctx -> awaitPool(ctx, revised, made)));
        pools.add(ProviderStep.each("drain-and-delete-agent-pool", pool, List.of(AGENT_POOLS_READ,
            AGENT_POOLS_DELETE), ctx -> deletePool(ctx, revised, pool)));
        continue;
      }
      staying.put(pool, group.name());
      resized |= !was.min().equals(group.min()) || !was.max().equals(group.max())
          || was.desiredSize() != group.desiredSize();
    }
    List<Step> steps = new ArrayList<>();
    if (resized || !current.version().equals(revised.version())) {
      steps.add(ProviderStep.of("update-cluster", List.of(MANAGED_CLUSTERS_READ, MANAGED_CLUSTERS_WRITE),
          ctx -> updateCluster(ctx, revised, staying, false)));
      steps.add(ProviderStep.of("await-cluster-updated", List.of(MANAGED_CLUSTERS_READ),
          ctx -> awaitUpdated(ctx, revised, staying, false)));
    }
    steps.addAll(pools);
    java.util.Set<String> kept = new java.util.HashSet<>(revised.nodeGroups().stream().map(NodeGroup::name).toList());
    for (NodeGroup group : current.nodeGroups()) {
      if (!kept.contains(group.name())) {
        String pool = poolOf(recorded, group);
        steps.add(ProviderStep.each("delete-agent-pool", pool, List.of(AGENT_POOLS_READ, AGENT_POOLS_DELETE),
            ctx -> deletePool(ctx, revised, pool)));
      }
    }
    Revision revision = Revision.of(steps).inPlace("version", "nodeGroups")
        .replaces("nodeGroups[*].instanceType", "the group's nodes are replaced: an agent pool of the new size is"
            + " made, then the old one drained and deleted (pods are evicted and rescheduled)");
    return RevisionRules.oneMinorUp(revision, "AKS", current.version(), revised.version());
  }

  /**
   * The cluster's Kubernetes version and each group's agent pool's VM size and autoscaling bounds, read back from
   * the managed cluster; the cluster or a pool gone is missing.
   */
  @Override
  public CloudRead<List<Drift>> observe(KubernetesSpec spec, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return null;
    }
    return ProviderRead.of(List.of(MANAGED_CLUSTERS_READ), () -> {
      DriftFindings found = new DriftFindings();
      ManagedClusterInner cluster = find(spec);
      String resource = "aks cluster " + spec.name();
      if (cluster == null) {
        return found.missing(resource).list();
      }
      found.compare(resource, "version", spec.version(), cluster.kubernetesVersion());
      for (int i = 0; i < spec.nodeGroups().size(); i++) {
        NodeGroup group = spec.nodeGroups().get(i);
        String pool = poolOf(recorded, group);
        ManagedClusterAgentPoolProfile profile = cluster.agentPoolProfiles() == null ? null
            : cluster.agentPoolProfiles().stream().filter(p -> pool.equals(p.name())).findFirst().orElse(null);
        String poolResource = "aks agent pool " + spec.name() + "/" + pool;
        if (profile == null) {
          found.missing(poolResource);
          continue;
        }
        String field = "nodeGroups[" + i + "].";
        found.compare(poolResource, field + "instanceType", group.instanceType(), profile.vmSize());
        found.compare(poolResource, field + "min", group.min(), profile.minCount());
        found.compare(poolResource, field + "max", group.max(), profile.maxCount());
      }
      return found.list();
    });
  }

  /**
   * The pools' bounds and counts set back in one PUT of the managed cluster, as a revision's update does. A newer
   * Kubernetes version made by hand cannot be undone (AKS never downgrades): refused by field.
   */
  @Override
  public Revision reconcile(KubernetesSpec spec, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return Revision.none();
    }
    Map<String, String> pools = new java.util.LinkedHashMap<>();
    spec.nodeGroups().forEach(group -> pools.put(poolOf(recorded, group), group.name()));
    return Revision.of(List.of(
        ProviderStep.of("update-cluster", List.of(MANAGED_CLUSTERS_READ, MANAGED_CLUSTERS_WRITE),
            ctx -> updateCluster(ctx, spec, pools, true)),
        ProviderStep.of("await-cluster-updated", List.of(MANAGED_CLUSTERS_READ),
            ctx -> awaitUpdated(ctx, spec, pools, true))))
        .inPlace("nodeGroups[*].min", "nodeGroups[*].max")
        .refuse("version", "kubernetes_downgrade", "AKS cannot take a cluster back to an older Kubernetes version;"
            + " revise the job to the version the cluster has");
  }

  private static String poolOf(Outputs recorded, NodeGroup group) {
    return recorded.has(AGENT_POOL.of(group.name())) ? recorded.get(AGENT_POOL.of(group.name())) : poolName(group);
  }

  /** The pool that replaces {@code previous} for a new VM size: the group's pool name and a 2, or back again. */
  static String replacementPool(NodeGroup group, String previous) {
    String own = poolName(group);
    return !previous.equals(own) ? own : (own.length() >= 12 ? own.substring(0, 11) : own) + "2";
  }

  /** Whether the cluster has what the revised spec asks of its version and its staying pools' counts. */
  /**
   * Whether the cluster has the revised pools' bounds and counts and, unless {@code keepVersion} (a reconcile, which
   * never takes a version made by hand back), the revised version.
   */
  private static boolean asRevised(ManagedClusterInner cluster, KubernetesSpec revised, Map<String, String> staying,
      boolean keepVersion) {
    boolean versionRight = keepVersion || revised.version().equals(cluster.kubernetesVersion());
    if (!versionRight || cluster.agentPoolProfiles() == null) {
      return false;
    }
    for (NodeGroup group : revised.nodeGroups()) {
      for (Map.Entry<String, String> pool : staying.entrySet()) {
        if (!pool.getValue().equals(group.name())) {
          continue;
        }
        ManagedClusterAgentPoolProfile profile = cluster.agentPoolProfiles().stream()
            .filter(p -> pool.getKey().equals(p.name())).findFirst().orElse(null);
        if (profile == null || !group.min().equals(profile.minCount()) || !group.max().equals(profile.maxCount())
            || !Integer.valueOf(group.desiredSize()).equals(profile.count())) {
          return false;
        }
      }
    }
    return true;
  }

  private StepResult updateCluster(StepContext ctx, KubernetesSpec revised, Map<String, String> staying,
      boolean keepVersion) throws Exception {
    return AzureTags.OWNER.changeInPlace(ctx, "AKS cluster", revised.name(), () -> find(revised),
        ManagedClusterInner::tags, existing -> asRevised(existing, revised, staying, keepVersion), existing -> {
          for (NodeGroup group : revised.nodeGroups()) {
            existing.agentPoolProfiles().stream().filter(p -> group.name().equals(staying.get(p.name())))
                .forEach(p -> p.withCount(group.desiredSize()).withMinCount(group.min()).withMaxCount(group.max()));
          }
          if (!keepVersion) {
            existing.withKubernetesVersion(revised.version());
          }
          calls.call(MANAGED_CLUSTERS_WRITE, () -> clients.containerService().serviceClient().getManagedClusters()
              .beginCreateOrUpdate(resourceGroup, revised.name(), existing));
          ctx.log("asked AKS to update cluster " + revised.name()
              + (keepVersion ? "'s pools" : " to " + revised.version()));
        });
  }

  private StepResult awaitUpdated(StepContext ctx, KubernetesSpec revised, Map<String, String> staying,
      boolean keepVersion) {
    ManagedClusterInner cluster = find(revised);
    if (cluster == null) {
      return StepResult.fail(Failure.system("resource_missing", "AKS cluster " + revised.name() + " is gone"));
    }
    String state = String.valueOf(cluster.provisioningState());
    return "Succeeded".equals(state) && asRevised(cluster, revised, staying, keepVersion) ? StepResult.done()
        : poll.waitFor(ctx, "cluster " + revised.name() + " is " + state);
  }

  private AgentPoolInner findPool(KubernetesSpec spec, String pool) {
    return calls.findOrNull(AGENT_POOLS_READ, () -> clients.containerService().serviceClient().getAgentPools()
        .get(resourceGroup, spec.name(), pool));
  }

  /**
   * Makes the group's agent pool {@code made} unless it is there; one that replaces {@code replacing} takes its
   * mode (a system pool's replacement is a system pool, so the cluster keeps one).
   */
  private StepResult createPool(StepContext ctx, KubernetesSpec spec, NodeGroup group, String made,
      String replacing) {
    ctx.recordIntent(Map.ofEntries(AGENT_POOL.of(group.name()).is(made)));
    if (findPool(spec, made) == null) {
      AgentPoolInner old = replacing == null ? null : findPool(spec, replacing);
      AgentPoolMode mode = old != null && old.mode() != null ? old.mode() : AgentPoolMode.USER;
      AgentPoolInner pool = new AgentPoolInner().withVmSize(group.instanceType()).withCount(group.desiredSize())
          .withMinCount(group.min()).withMaxCount(group.max()).withEnableAutoScaling(true).withMode(mode)
          .withVnetSubnetId(old != null ? old.vnetSubnetId() : subnetId(spec));
      calls.call(AGENT_POOLS_WRITE, () -> clients.containerService().serviceClient().getAgentPools()
          .beginCreateOrUpdate(resourceGroup, spec.name(), made, pool));
      ctx.log("asked AKS for agent pool " + made + " of " + group.instanceType());
    }
    return StepResult.done(AGENT_POOL.of(group.name()).is(made));
  }

  private StepResult awaitPool(StepContext ctx, KubernetesSpec spec, String pool) {
    AgentPoolInner found = findPool(spec, pool);
    if (found == null) {
      return StepResult.fail(Failure.system("resource_missing", "agent pool " + pool + " of AKS cluster "
          + spec.name() + " is gone"));
    }
    String state = String.valueOf(found.provisioningState());
    return "Succeeded".equals(state) ? StepResult.done() : poll.waitFor(ctx, "agent pool " + pool + " is " + state);
  }

  private StepResult deletePool(StepContext ctx, KubernetesSpec spec, String pool) throws Exception {
    // the pool lives in the job's own cluster: whatever is there under its name is the job's
    return poll.deleteAndWait(ctx, "agent pool " + pool, () -> findPool(spec, pool), found -> true,
        found -> "Deleting".equals(String.valueOf(found.provisioningState())),
        found -> calls.call(AGENT_POOLS_DELETE, () -> clients.containerService().serviceClient().getAgentPools()
            .beginDelete(resourceGroup, spec.name(), pool)));
  }

  private String subnetId(KubernetesSpec spec) {
    return spec.subnetIds().isEmpty() ? null : "/subscriptions/" + clients.subscription() + "/resourceGroups/"
        + resourceGroup + "/providers/Microsoft.Network/virtualNetworks/" + spec.vpcId() + "/subnets/"
        + spec.subnetIds().get(0);
  }

  @Override
  public List<Step> teardown(KubernetesSpec spec, Outputs recorded) {
    return List.of(ProviderStep.of("delete-cluster", List.of(MANAGED_CLUSTERS_READ, MANAGED_CLUSTERS_DELETE),
        ctx -> deleteCluster(ctx, spec)));
  }

  @Override
  public String pricesAsOf() {
    return AzurePrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(KubernetesSpec spec, String spaceRegion) {
    String priceRegion = AzurePrices.region(spaceRegion, location);
    // the free tier's control plane costs nothing; the nodes are billed as VMs
    List<CostComponent> costs = new ArrayList<>();
    for (NodeGroup group : spec.nodeGroups()) {
      costs.add(AzurePrices.TABLE.hourly(priceRegion, "node group " + group.name() + " (" + group.instanceType()
          + ")", "vm:" + group.instanceType(), group.desiredSize()));
    }
    return costs;
  }

  private ManagedClusterInner find(KubernetesSpec spec) {
    return calls.findOrNull(MANAGED_CLUSTERS_READ, () -> clients.containerService().serviceClient()
        .getManagedClusters().getByResourceGroup(resourceGroup, spec.name()));
  }

  private StepResult createCluster(StepContext ctx, KubernetesSpec spec) throws Exception {
    return AzureTags.OWNER.createOrAdopt(ctx, "AKS cluster", spec.name(), () -> find(spec),
        ManagedClusterInner::tags, Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name())), () -> {
          String subnet = subnetId(spec);
          List<ManagedClusterAgentPoolProfile> pools = new ArrayList<>();
          for (NodeGroup group : spec.nodeGroups()) {
            pools.add(new ManagedClusterAgentPoolProfile().withName(poolName(group))
                .withVmSize(group.instanceType()).withCount(group.desiredSize()).withMinCount(group.min())
                .withMaxCount(group.max()).withEnableAutoScaling(true)
                .withMode(pools.isEmpty() ? AgentPoolMode.SYSTEM : AgentPoolMode.USER).withVnetSubnetId(subnet));
          }
          ManagedClusterInner wanted = new ManagedClusterInner().withDnsPrefix(spec.name())
              .withKubernetesVersion(spec.version()).withAgentPoolProfiles(pools)
              .withIdentity(new ManagedClusterIdentity().withType(ResourceIdentityType.SYSTEM_ASSIGNED));
          wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "cluster"));
          calls.call(MANAGED_CLUSTERS_WRITE, () -> clients.containerService().serviceClient().getManagedClusters()
              .beginCreateOrUpdate(resourceGroup, spec.name(), wanted));
        }, Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name())));
  }

  /** Agent pool names are 1 to 12 lower-case letters and digits. */
  static String poolName(NodeGroup group) {
    String name = group.name().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    return name.isEmpty() ? "pool" : name.length() > 12 ? name.substring(0, 12) : name;
  }

  private StepResult awaitCluster(StepContext ctx, KubernetesSpec spec) {
    ManagedClusterInner cluster = find(spec);
    if (cluster == null) {
      return poll.waitFor(ctx, "cluster " + spec.name() + " is not visible yet");
    }
    String state = String.valueOf(cluster.provisioningState());
    return switch (state) {
      case "Succeeded" -> StepResult.done(ENDPOINT.is("https://" + cluster.fqdn()), CLUSTER_ID.is(cluster.id()));
      case "Failed", "Canceled" -> StepResult.fail(Failure.userAction("cluster_" + state.toLowerCase(Locale.ROOT),
          "AKS cluster " + spec.name() + " is " + state, "See the cluster's activity log in the portal, then retry.",
          "https://portal.azure.com/#resource" + cluster.id() + "/overview"));
      default -> poll.waitFor(ctx, "cluster " + spec.name() + " is " + state);
    };
  }

  private StepResult deleteCluster(StepContext ctx, KubernetesSpec spec) throws Exception {
    return poll.deleteAndWait(ctx, "cluster " + spec.name(), () -> find(spec),
        cluster -> AzureTags.OWNER.owns(cluster.tags(), ctx),
        cluster -> "Deleting".equals(String.valueOf(cluster.provisioningState())),
        cluster -> calls.deleteIfExists(MANAGED_CLUSTERS_DELETE, () -> clients.containerService().serviceClient()
            .getManagedClusters().beginDelete(resourceGroup, spec.name())));
  }
}
