package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.container.v1.Cluster;
import com.google.container.v1.CreateClusterRequest;
import com.google.container.v1.CreateNodePoolRequest;
import com.google.container.v1.DeleteNodePoolRequest;
import com.google.container.v1.IPAllocationPolicy;
import com.google.container.v1.NodeConfig;
import com.google.container.v1.NodePool;
import com.google.container.v1.NodePoolAutoscaling;
import com.google.container.v1.Operation;
import com.google.container.v1.SetNodePoolAutoscalingRequest;
import com.google.container.v1.UpdateMasterRequest;
import com.google.container.v1.UpdateNodePoolRequest;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.FailureCodes;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * A regional GKE cluster (control plane and nodes spread over the region's zones) in the spec's network and its
 * first subnetwork, VPC-native, with one node pool per node group autoscaling between the group's min and max
 * nodes in all (the totals, not per zone). The cluster carries its job in its resource labels; a resumed step
 * adopts only a cluster whose labels say its job made it. Creation takes minutes: the step that waits returns
 * and looks again, holding no thread.
 */
final class KubernetesDriver implements ResourceDriver<KubernetesSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> CLUSTER_OPERATION = GcpState.OPERATION.of("cluster");
  static final OutputKey<String> CLUSTER_SELF_LINK = OutputKey.text("clusterSelfLink");
  static final OutputKey<String> CLUSTER_VERSION = OutputKey.text("clusterVersion");
  static final OutputKey<String> ENDPOINT = OutputKey.text("endpoint");

  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;
  private final StatusPoll poll;

  KubernetesDriver(DriverContext<GcpClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.project = context.scope(GcpSession.PROJECT);
    this.region = context.region().get();
    this.poll = context.poll();
  }

  @Override
  public Class<KubernetesSpec> specType() {
    return KubernetesSpec.class;
  }

  @Override
  public Defaulted<KubernetesSpec> withDefaults(KubernetesSpec spec) {
    List<PlanDefault> filled = new ArrayList<>();
    KubernetesSpec.Builder builder = spec.toBuilder().nodeGroups(MachineTypes.SIZES.resolveNodeGroups(
        spec.nodeGroups(), MachineTypes.KIND, filled));
    if (spec.vpcId() == null) {
      builder.vpcId("default");
      filled.add(new PlanDefault("vpcID", "default", "the project's default network"));
    }
    if (spec.subnetIds().size() > 1) {
      filled.add(new PlanDefault("subnetIDs", spec.subnetIds().get(0), "a GKE cluster's nodes take one"
          + " subnetwork, regional across the zones: the first named; the others are not used"));
    }
    return new Defaulted<>(builder.build(), filled);
  }

  @Override
  public List<FieldError> validate(KubernetesSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    for (int i = 0; i < spec.nodeGroups().size(); i++) {
      String type = spec.nodeGroups().get(i).instanceType();
      if (MachineSizes.readsAsAwsType(type)) {
        errors.add(FieldError.of("nodeGroups[" + i + "].instanceType", "unknown_machine_type", "no GCP machine"
            + " type is known for " + type + "; name a Compute Engine machine type such as e2-standard-4"));
      }
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(KubernetesDriver.class).and(OutputKeys.of(SharedOutputs.CLUSTER_NAME, GcpState.PART,
        GcpState.OPERATION, GcpState.ID, GcpState.SELF_LINK));
  }

  @Override
  public List<Step> create(KubernetesSpec spec) {
    return List.of(
        ProviderStep.of("create-cluster", List.of(CONTAINER_CLUSTERS_GET, CONTAINER_CLUSTERS_CREATE,
            CONTAINER_OPERATIONS_GET, IAM_SERVICE_ACCOUNTS_ACT_AS), ctx -> createCluster(ctx, spec)),
        ProviderStep.of("await-cluster", List.of(CONTAINER_CLUSTERS_GET), ctx -> awaitCluster(ctx, spec)));
  }

  /**
   * A cluster's revision, each change one GKE operation made and waited out before the next (GKE runs one
   * operation on a cluster at a time): the control plane one minor up, then each staying node pool's autoscaling
   * bounds, machine type (a surge upgrade: nodes of the new type made, the old drained) and version; pools added
   * are created and pools dropped deleted. A group's {@code desired} is not a GKE setting (the autoscaler sizes
   * the pool between its bounds), so a change of it alone changes nothing in the cloud.
   */
  @Override
  public Revision revise(KubernetesSpec current, KubernetesSpec revised, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return Revision.none();
    }
    List<Step> steps = new ArrayList<>();
    List<String> change = List.of(CONTAINER_CLUSTERS_GET, CONTAINER_CLUSTERS_UPDATE);
    Map<String, NodeGroup> before = new LinkedHashMap<>();
    current.nodeGroups().forEach(group -> before.put(group.name(), group));
    boolean upgrade = !current.version().equals(revised.version());
    if (upgrade) {
      steps.add(ProviderStep.of("upgrade-control-plane", change, ctx -> converge(ctx, revised,
          "control plane to " + revised.version(), cluster -> runs(cluster.getCurrentMasterVersion(),
              revised.version()),
          cluster -> clients.clusterManager().updateMaster(UpdateMasterRequest.newBuilder().setName(name(revised))
              .setMasterVersion(revised.version()).build()),
          cluster -> StepResult.done(CLUSTER_VERSION.is(cluster.getCurrentMasterVersion())))));
    }
    for (NodeGroup group : revised.nodeGroups()) {
      NodeGroup was = before.get(group.name());
      String pool = name(revised) + "/nodePools/" + group.name();
      if (was == null) {
        steps.add(ProviderStep.each("create-node-pool", group.name(), change, ctx -> converge(ctx, revised,
            "node pool " + group.name(), cluster -> pool(cluster, group.name()) != null,
            cluster -> clients.clusterManager().createNodePool(CreateNodePoolRequest.newBuilder()
                .setParent(name(revised)).setNodePool(nodePool(ctx, group)).build()), cluster -> StepResult.done())));
        continue;
      }
      if (!was.min().equals(group.min()) || !was.max().equals(group.max())) {
        steps.add(scaleStep(revised, group));
      }
      if (!was.instanceType().equals(group.instanceType())) {
        steps.add(ProviderStep.each("replace-node-pool-machines", group.name(), change, ctx -> converge(ctx,
            revised, "node pool " + group.name() + " on " + group.instanceType(),
            has(group.name(), p -> group.instanceType().equals(p.getConfig().getMachineType())),
            cluster -> clients.clusterManager().updateNodePool(UpdateNodePoolRequest.newBuilder().setName(pool)
                .setNodeVersion(versionOf(cluster, group)).setImageType(imageType(cluster, group))
                .setMachineType(group.instanceType()).build()), cluster -> StepResult.done())));
      }
      if (upgrade) {
        steps.add(ProviderStep.each("upgrade-node-pool", group.name(), change, ctx -> converge(ctx, revised,
            "node pool " + group.name() + " to " + revised.version(),
            has(group.name(), p -> runs(p.getVersion(), revised.version())),
            cluster -> clients.clusterManager().updateNodePool(UpdateNodePoolRequest.newBuilder().setName(pool)
                .setNodeVersion(revised.version()).setImageType(imageType(cluster, group)).build()),
            cluster -> StepResult.done())));
      }
    }
    Set<String> kept = revised.nodeGroups().stream().map(NodeGroup::name).collect(Collectors.toSet());
    for (NodeGroup group : current.nodeGroups()) {
      if (!kept.contains(group.name())) {
        steps.add(ProviderStep.each("delete-node-pool", group.name(), change, ctx -> converge(ctx, revised,
            "node pool " + group.name() + " deleted", cluster -> pool(cluster, group.name()) == null,
            cluster -> clients.clusterManager().deleteNodePool(DeleteNodePoolRequest.newBuilder()
                .setName(name(revised) + "/nodePools/" + group.name()).build()), cluster -> StepResult.done())));
      }
    }
    Revision revision = Revision.of(steps).inPlace("version", "nodeGroups")
        .replaces("nodeGroups[*].instanceType", "the pool's nodes are replaced by a surge upgrade: nodes of the new"
            + " type are made, then the old ones drained and deleted (pods are evicted and rescheduled)");
    return RevisionRules.oneMinorUp(revision, "GKE", current.version(), revised.version());
  }

  /**
   * The cluster's control plane version and each node pool's machine type and autoscaling bounds, read back from
   * GKE; a pool or the cluster gone is missing.
   */
  @Override
  public CloudRead<List<Drift>> observe(KubernetesSpec spec, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return null;
    }
    return ProviderRead.of(List.of(CONTAINER_CLUSTERS_GET), () -> {
      DriftFindings found = new DriftFindings();
      Cluster cluster = findCluster(spec);
      String resource = "gke cluster " + spec.name();
      if (cluster == null) {
        return found.missing(resource).list();
      }
      if (!runs(cluster.getCurrentMasterVersion(), spec.version())) {
        found.compare(resource, "version", spec.version(), cluster.getCurrentMasterVersion());
      }
      for (int i = 0; i < spec.nodeGroups().size(); i++) {
        NodeGroup group = spec.nodeGroups().get(i);
        NodePool pool = pool(cluster, group.name());
        String poolResource = "gke node pool " + spec.name() + "/" + group.name();
        if (pool == null) {
          found.missing(poolResource);
          continue;
        }
        String field = "nodeGroups[" + i + "].";
        found.compare(poolResource, field + "instanceType", group.instanceType(), pool.getConfig().getMachineType());
        boolean scales = pool.getAutoscaling().getEnabled();
        found.compare(poolResource, field + "min", group.min(),
            scales ? pool.getAutoscaling().getTotalMinNodeCount() : null);
        found.compare(poolResource, field + "max", group.max(),
            scales ? pool.getAutoscaling().getTotalMaxNodeCount() : null);
      }
      return found.list();
    });
  }

  /**
   * Each pool's autoscaling bounds set back, one GKE operation at a time. A newer control plane cannot be taken
   * back (GKE never downgrades): refused by field; a machine type is changed by a revision's surge upgrade.
   */
  @Override
  public Revision reconcile(KubernetesSpec spec, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return Revision.none();
    }
    List<Step> steps = new ArrayList<>();
    for (NodeGroup group : spec.nodeGroups()) {
      steps.add(scaleStep(spec, group));
    }
    return Revision.of(steps).inPlace("nodeGroups[*].min", "nodeGroups[*].max")
        .refuse("version", "kubernetes_downgrade", "GKE cannot take a control plane back to an older minor; revise"
            + " the job to the version the cluster has");
  }

  private Step scaleStep(KubernetesSpec spec, NodeGroup group) {
    String pool = name(spec) + "/nodePools/" + group.name();
    return ProviderStep.each("scale-node-pool", group.name(), List.of(CONTAINER_CLUSTERS_GET,
        CONTAINER_CLUSTERS_UPDATE), ctx -> converge(ctx, spec, "node pool " + group.name() + " to " + group.min()
            + ".." + group.max(), has(group.name(), p -> p.getAutoscaling().getEnabled()
                && p.getAutoscaling().getTotalMinNodeCount() == group.min()
                && p.getAutoscaling().getTotalMaxNodeCount() == group.max()),
        cluster -> clients.clusterManager().setNodePoolAutoscaling(SetNodePoolAutoscalingRequest.newBuilder()
            .setName(pool).setAutoscaling(autoscaling(group)).build()), cluster -> StepResult.done()));
  }

  /**
   * A GKE cluster of the space's project and region by its name: the config it has (its control plane's minor, its
   * network and subnetwork, a node group per pool with its machine type and autoscaling bounds, or its node count
   * where it does not autoscale) and the job its {@code zop-job} label names.
   */
  @Override
  public CloudRead<dev.zop.provisioner.spi.Adoption<KubernetesSpec>> findExisting(String externalId) {
    return ProviderRead.of(List.of(CONTAINER_CLUSTERS_GET), () -> {
      Cluster cluster = calls.findOrNull(CONTAINER_CLUSTERS_GET,
          () -> clients.clusterManager().getCluster(parent() + "/clusters/" + externalId));
      if (cluster == null) {
        return null;
      }
      List<NodeGroup> groups = new ArrayList<>();
      List<String> resources = new ArrayList<>(List.of("gke cluster " + externalId));
      for (NodePool pool : cluster.getNodePoolsList()) {
        NodePoolAutoscaling scaling = pool.getAutoscaling();
        int min = scaling.getEnabled() ? scaling.getTotalMinNodeCount() : pool.getInitialNodeCount();
        int max = scaling.getEnabled() ? scaling.getTotalMaxNodeCount() : pool.getInitialNodeCount();
        groups.add(new NodeGroup(pool.getName(), pool.getConfig().getMachineType(), min, max, null));
        resources.add("gke node pool " + externalId + "/" + pool.getName());
      }
      KubernetesSpec.Builder config = KubernetesSpec.named(externalId)
          .version(cluster.getCurrentMasterVersion().replaceAll("^(\\d+\\.\\d+).*$", "$1")).nodeGroups(groups)
          .vpcId(cluster.getNetwork());
      if (!cluster.getSubnetwork().isEmpty()) {
        config.subnetIds(List.of(cluster.getSubnetwork()));
      }
      Map<String, String> state = new LinkedHashMap<>();
      state.put(SharedOutputs.CLUSTER_NAME.name(), externalId);
      state.put(ENDPOINT.name(), "https://" + cluster.getEndpoint());
      state.put(CLUSTER_VERSION.name(), cluster.getCurrentMasterVersion());
      state.put(CLUSTER_SELF_LINK.name(), cluster.getSelfLink());
      return new dev.zop.provisioner.spi.Adoption<>(config.build(), state, resources,
          GcpOwner.TAGS.ownerOf(cluster.getResourceLabelsMap()));
    });
  }

  /**
   * The cluster found again, refused when another job's label is on it, and labelled as this job's (one GKE
   * operation, with the fingerprint of the labels it has, keeping them), then recorded as its create would have.
   */
  @Override
  public List<Step> adopt(KubernetesSpec found, String externalId) {
    return List.of(ProviderStep.of("adopt-cluster", List.of(CONTAINER_CLUSTERS_GET, CONTAINER_CLUSTERS_UPDATE),
        ctx -> {
          Cluster cluster = findCluster(found);
          if (cluster == null) {
            return StepResult.fail(Failure.userAction(FailureCodes.RESOURCE_MISSING, "cluster " + externalId
                + " is gone since the import was planned", "Plan the import again.", null));
          }
          Failure owned = GcpOwner.TAGS.refuseOwned(cluster.getResourceLabelsMap(), ctx, "cluster", externalId);
          if (owned != null) {
            return StepResult.fail(owned);
          }
          return converge(ctx, found, "labels of cluster " + externalId,
              c -> GcpOwner.TAGS.owns(c.getResourceLabelsMap(), ctx),
              c -> clients.clusterManager().setLabels(com.google.container.v1.SetLabelsRequest.newBuilder()
                  .setName(name(found)).putAllResourceLabels(c.getResourceLabelsMap())
                  .putAllResourceLabels(GcpOwner.labels(ctx, "cluster")).setLabelFingerprint(c.getLabelFingerprint())
                  .build()),
              c -> StepResult.done(SharedOutputs.CLUSTER_NAME.is(externalId), ENDPOINT.is("https://" + c.getEndpoint()),
                  CLUSTER_VERSION.is(c.getCurrentMasterVersion()), CLUSTER_SELF_LINK.is(c.getSelfLink())));
        }));
  }

  /** A GKE version ({@code 1.31.3-gke.100}) that is the spec's ({@code 1.31}) or a patch of it. */
  private static boolean runs(String actual, String wanted) {
    return actual.equals(wanted) || actual.startsWith(wanted + ".");
  }

  private static NodePool pool(Cluster cluster, String name) {
    return cluster.getNodePoolsList().stream().filter(p -> p.getName().equals(name)).findFirst().orElse(null);
  }

  /** Whether the cluster has node pool {@code name} and it passes {@code test}. */
  private static Predicate<Cluster> has(String name, Predicate<NodePool> test) {
    return cluster -> {
      NodePool pool = pool(cluster, name);
      return pool != null && test.test(pool);
    };
  }

  /** The version a pool runs, kept through a change of its machines; "-" (the control plane's) if unknown. */
  private static String versionOf(Cluster cluster, NodeGroup group) {
    NodePool pool = pool(cluster, group.name());
    return pool == null || pool.getVersion().isEmpty() ? "-" : pool.getVersion();
  }

  /** The node image a pool keeps through an upgrade; GKE's default where it reports none. */
  private static String imageType(Cluster cluster, NodeGroup group) {
    NodePool pool = pool(cluster, group.name());
    String image = pool == null ? "" : pool.getConfig().getImageType();
    return image.isEmpty() ? "COS_CONTAINERD" : image;
  }

  /** One GKE call that changes the cluster. */
  private interface ClusterChange {
    Operation ask(Cluster cluster);
  }

  /** How a converged change finishes: the step's outputs, read off the cluster. */
  private interface Converged {
    StepResult finish(Cluster cluster);
  }

  /**
   * Makes one change converge: done once the cluster is running with {@code made} true; otherwise, when the
   * cluster is running, the change is asked for (unless it is made already), and the step waits. A cluster that is
   * reconciling (this change or an earlier one, perhaps a crashed run's) is waited out: GKE takes one operation at
   * a time, and a resumed step never asks twice for what is under way.
   */
  private StepResult converge(StepContext ctx, KubernetesSpec spec, String what, Predicate<Cluster> made,
      ClusterChange change, Converged converged) {
    Cluster cluster = findCluster(spec);
    if (cluster == null) {
      return StepResult.fail(Failure.system(FailureCodes.RESOURCE_MISSING, "cluster " + spec.name()
          + " is gone; it cannot be changed"));
    }
    if (cluster.getStatus() == Cluster.Status.ERROR) {
      return StepResult.fail(Failure.userAction("cluster_error", "cluster " + spec.name() + " is in ERROR: "
          + cluster.getStatusMessage(), "See the cluster's page in the console, fix what it names, then retry.",
          "https://console.cloud.google.com/kubernetes/clusters/details/" + region + "/" + spec.name()
              + "?project=" + project));
    }
    boolean running = cluster.getStatus() == Cluster.Status.RUNNING;
    if (made.test(cluster)) {
      return running ? converged.finish(cluster) : poll.waitFor(ctx, "cluster " + spec.name() + " is "
          + cluster.getStatus() + " (" + what + ")");
    }
    if (running) {
      try {
        calls.call(CONTAINER_CLUSTERS_UPDATE, () -> change.ask(cluster));
        ctx.log("asked GKE for " + what);
      } catch (CloudCallException e) {
        GcpErrors.Answer answer = GcpErrors.answerOf(CloudCallException.unwrap(e));
        // another operation started on the cluster since it was read: this one is asked for once that is done
        if (answer == null || answer.status() != 400 || !"FAILED_PRECONDITION".equals(answer.code())) {
          throw e;
        }
      }
    }
    return poll.waitFor(ctx, "cluster " + spec.name() + " is changing (" + what + ")");
  }

  @Override
  public List<Step> teardown(KubernetesSpec spec, Outputs recorded) {
    if (!recorded.has(SharedOutputs.CLUSTER_NAME)) {
      return List.of();
    }
    return List.of(ProviderStep.of("delete-cluster", List.of(CONTAINER_CLUSTERS_GET, CONTAINER_CLUSTERS_DELETE),
        ctx -> deleteCluster(ctx, spec)));
  }

  @Override
  public String pricesAsOf() {
    return GcpPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(KubernetesSpec spec, String priceRegion) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(GcpPrices.TABLE.hourly(priceRegion, "GKE cluster management fee", "gke:cluster-management", 1));
    for (NodeGroup group : spec.nodeGroups()) {
      costs.add(GcpPrices.TABLE.hourly(priceRegion, "node group " + group.name() + " (" + group.instanceType()
          + ")", "compute:" + group.instanceType(), group.desiredSize()));
    }
    return costs;
  }

  private String parent() {
    return "projects/" + project + "/locations/" + region;
  }

  private String name(KubernetesSpec spec) {
    return parent() + "/clusters/" + spec.name();
  }

  private StepResult createCluster(StepContext ctx, KubernetesSpec spec) {
    Cluster existing = findCluster(spec);
    if (existing == null) {
      StepResult failed = failedCreate(ctx, spec);
      if (failed != null) {
        return failed;
      }
      ctx.recordIntent(Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name())));
      try {
        Operation op = calls.call(CONTAINER_CLUSTERS_CREATE, () -> clients.clusterManager().createCluster(
            CreateClusterRequest.newBuilder().setParent(parent()).setCluster(desired(ctx, spec)).build()));
        ctx.recordIntent(Map.ofEntries(CLUSTER_OPERATION.is(op.getName())));
      } catch (CloudCallException e) {
        if (!GcpErrors.isAlreadyExists(e)) {
          throw e;
        }
      }
      existing = findCluster(spec);
      if (existing == null) {
        return poll.waitFor(ctx, "cluster " + spec.name() + " is being created");
      }
    }
    Failure foreign = GcpOwner.TAGS.refuseForeign(existing.getResourceLabelsMap(), ctx, "cluster", spec.name());
    // the operation is spent once the cluster is visible: later runs read the cluster itself
    return foreign != null ? StepResult.fail(foreign)
        : StepResult.done(SharedOutputs.CLUSTER_NAME.is(spec.name()), CLUSTER_OPERATION.is(""));
  }

  /** The failure of a create whose cluster never appeared, from its recorded operation; null if none failed. */
  private StepResult failedCreate(StepContext ctx, KubernetesSpec spec) {
    String op = ctx.outputs().get(CLUSTER_OPERATION);
    if (op == null || op.isEmpty()) {
      return null;
    }
    var operation = calls.call(CONTAINER_OPERATIONS_GET, () -> clients.clusterManager()
        .getOperation(parent() + "/operations/" + op));
    if (!operation.hasError() || operation.getError().getMessage().isEmpty()) {
      return null;
    }
    // reported once: a retry after the fix creates the cluster again
    ctx.recordIntent(Map.ofEntries(CLUSTER_OPERATION.is("")));
    return StepResult.fail(Failure.userAction("cluster_create_failed", "cluster " + spec.name()
        + " was not created: " + operation.getError().getMessage(), "Correct what GKE names, then retry.",
        "https://console.cloud.google.com/kubernetes/list/overview?project=" + project));
  }

  private Cluster desired(StepContext ctx, KubernetesSpec spec) {
    Cluster.Builder cluster = Cluster.newBuilder().setName(spec.name()).setInitialClusterVersion(spec.version())
        .setNetwork(spec.vpcId()).putAllResourceLabels(GcpOwner.labels(ctx, "cluster"))
        .setIpAllocationPolicy(IPAllocationPolicy.newBuilder().setUseIpAliases(true));
    if (!spec.subnetIds().isEmpty()) {
      cluster.setSubnetwork(spec.subnetIds().get(0));
    }
    for (NodeGroup group : spec.nodeGroups()) {
      cluster.addNodePools(nodePool(ctx, group));
    }
    return cluster.build();
  }

  private static NodePool nodePool(StepContext ctx, NodeGroup group) {
    return NodePool.newBuilder().setName(group.name())
        .setConfig(NodeConfig.newBuilder().setMachineType(group.instanceType())
            .addOauthScopes(GcpClients.SCOPE).putAllLabels(GcpOwner.labels(ctx, "node-pool")))
        // per zone; the autoscaler keeps the totals between min and max across the zones
        .setInitialNodeCount(1).setAutoscaling(autoscaling(group)).build();
  }

  private static NodePoolAutoscaling autoscaling(NodeGroup group) {
    return NodePoolAutoscaling.newBuilder().setEnabled(true).setTotalMinNodeCount(group.min())
        .setTotalMaxNodeCount(group.max()).setLocationPolicy(NodePoolAutoscaling.LocationPolicy.BALANCED).build();
  }

  private StepResult awaitCluster(StepContext ctx, KubernetesSpec spec) {
    Cluster cluster = findCluster(spec);
    if (cluster == null) {
      return StepResult.fail(Failure.userAction(FailureCodes.RESOURCE_MISSING, "cluster " + spec.name()
          + " was deleted outside this job while it was being created", "Retry the job to create it again.",
          "https://console.cloud.google.com/kubernetes/list/overview?project=" + project));
    }
    return switch (cluster.getStatus()) {
      case RUNNING -> StepResult.done(ENDPOINT.is("https://" + cluster.getEndpoint()),
          CLUSTER_VERSION.is(cluster.getCurrentMasterVersion()), CLUSTER_SELF_LINK.is(cluster.getSelfLink()));
      case ERROR, DEGRADED -> StepResult.fail(Failure.userAction("cluster_" + cluster.getStatus().name()
          .toLowerCase(java.util.Locale.ROOT), "cluster " + spec.name() + " is " + cluster.getStatus() + ": "
          + cluster.getStatusMessage(), "See the cluster's page in the console, fix what it names, then retry.",
          "https://console.cloud.google.com/kubernetes/clusters/details/" + region + "/" + spec.name()
              + "?project=" + project));
      default -> poll.waitFor(ctx, "cluster " + spec.name() + " is " + cluster.getStatus());
    };
  }

  private StepResult deleteCluster(StepContext ctx, KubernetesSpec spec) {
    Cluster cluster = findCluster(spec);
    if (cluster == null || !GcpOwner.TAGS.owns(cluster.getResourceLabelsMap(), ctx)) {
      return StepResult.done();
    }
    if (cluster.getStatus() != Cluster.Status.STOPPING) {
      try {
        calls.call(CONTAINER_CLUSTERS_DELETE, () -> clients.clusterManager().deleteCluster(name(spec)));
      } catch (CloudCallException e) {
        // GKE refuses a second delete while the first runs, with 400 FAILED_PRECONDITION
        GcpErrors.Answer answer = GcpErrors.answerOf(e.getCause());
        if (answer == null || answer.status() != 400 && answer.status() != 404) {
          throw e;
        }
      }
    }
    return findCluster(spec) == null ? StepResult.done()
        : poll.waitFor(ctx, "cluster " + spec.name() + " is being deleted");
  }

  private Cluster findCluster(KubernetesSpec spec) {
    return calls.findOrNull(CONTAINER_CLUSTERS_GET, () -> clients.clusterManager().getCluster(name(spec)));
  }
}
