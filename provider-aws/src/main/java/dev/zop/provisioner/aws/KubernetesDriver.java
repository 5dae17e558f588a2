package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.SharedOutputs;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.Nodegroup;

/**
 * An EKS cluster with managed node groups, and the two service roles it needs (created by the job). Creation
 * and deletion take minutes: the await and delete steps return waits, never sleep.
 */
final class KubernetesDriver implements ResourceDriver<KubernetesSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> CLUSTER_ROLE_NAME = OutputKey.text("clusterRole.name");
  static final OutputKey<String> CLUSTER_ROLE_ARN = OutputKey.text("clusterRoleArn");
  static final OutputKey<String> NODE_ROLE_NAME = OutputKey.text("nodeRole.name");
  static final OutputKey<String> NODE_ROLE_ARN = OutputKey.text("nodeRoleArn");
  static final OutputKey<String> CLUSTER_ARN = OutputKey.text("clusterArn");
  static final OutputKey<String> ENDPOINT = OutputKey.text("endpoint");
  static final OutputKey.PerPart<String> NODE_GROUP_NAME = OutputKey.textPerPart("nodegroup.%s.name");
  /**
   * The EKS node group a group's replacement retires, until it is deleted (then empty): recorded before the new one
   * is made, so a teardown after a failed or interrupted replacement finds both.
   */
  static final OutputKey.PerPart<String> RETIRING_NODE_GROUP = OutputKey.textPerPart("nodegroup.%s.retiring");

  static final Set<String> VERSIONS = Set.of("1.28", "1.29", "1.30", "1.31", "1.32");
  private static final List<String> CLUSTER_POLICIES = List.of("arn:aws:iam::aws:policy/AmazonEKSClusterPolicy");
  private static final List<String> NODE_POLICIES = List.of("arn:aws:iam::aws:policy/AmazonEKSWorkerNodePolicy",
      "arn:aws:iam::aws:policy/AmazonEKS_CNI_Policy", "arn:aws:iam::aws:policy/AmazonEC2ContainerRegistryReadOnly");

  private final EksClient eks;
  private final IamRoles roles;

  /** How long to wait before looking again at a resource still being created or deleted. */
  private final StatusPoll poll;

  KubernetesDriver(EksClient eks, IamRoles roles, Duration poll) {
    this.eks = eks;
    this.roles = roles;
    this.poll = StatusPoll.every(poll);
  }

  @Override
  public Class<KubernetesSpec> specType() {
    return KubernetesSpec.class;
  }

  @Override
  public List<FieldError> validate(KubernetesSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (!VERSIONS.contains(spec.version())) {
      errors.add(FieldError.of("version", "unsupported_version", "EKS versions offered: "
          + VERSIONS.stream().sorted().toList()));
    }
    if (spec.clusterRole() != null && !spec.clusterRole().startsWith("arn:aws:iam::")) {
      errors.add(FieldError.of("clusterRole", "invalid_format", "an IAM role ARN, arn:aws:iam::<account>:role/<name>"));
    }
    if (spec.subnetIds().size() < 2) {
      errors.add(FieldError.of("subnetIDs", "required", "EKS needs at least two subnets in different zones"));
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(KubernetesDriver.class).and(OutputKeys.of(SharedOutputs.CLUSTER_NAME));
  }

  @Override
  public List<Step> create(KubernetesSpec spec) {
    List<Step> steps = new ArrayList<>();
    if (spec.clusterRole() == null) {
      steps.add(ProviderStep.of("create-cluster-role", IamRoles.CREATE,
          ctx -> ensureRole(ctx, CLUSTER_ROLE_NAME, CLUSTER_ROLE_ARN, "eks", "eks.amazonaws.com", CLUSTER_POLICIES))
          .intending(ctx -> Map.ofEntries(CLUSTER_ROLE_NAME.is(ctx.resourceName("eks")))));
    }
    steps.add(ProviderStep.of("create-node-role", IamRoles.CREATE,
        ctx -> ensureRole(ctx, NODE_ROLE_NAME, NODE_ROLE_ARN, "nodes", "ec2.amazonaws.com", NODE_POLICIES))
        .intending(ctx -> Map.ofEntries(NODE_ROLE_NAME.is(ctx.resourceName("nodes")))));
    steps.add(ProviderStep.of("create-cluster", List.of(EKS_DESCRIBE_CLUSTER, EKS_CREATE_CLUSTER, EKS_TAG_RESOURCE,
        IAM_PASS_ROLE),
            ctx -> createCluster(ctx, spec))
        .intending(ctx -> Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name()))));
    steps.add(ProviderStep.of("await-cluster", List.of(EKS_DESCRIBE_CLUSTER), ctx -> awaitCluster(ctx, spec)));
    for (NodeGroup group : spec.nodeGroups()) {
      steps.add(ProviderStep.each("create-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP,
          EKS_CREATE_NODEGROUP, EKS_TAG_RESOURCE, IAM_PASS_ROLE), ctx -> createNodegroup(ctx, spec, group,
          group.name())));
      steps.add(ProviderStep.each("await-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP),
          ctx -> awaitNodegroup(ctx, spec, group.name())));
    }
    return steps;
  }

  /**
   * A cluster's revision: a Kubernetes minor upgrade (one minor up, never down) of the control plane and then of
   * each node group that stays; each staying group's min, max and desired size; groups added are created and groups
   * dropped deleted. EKS cannot change a managed node group's instance type: the group is replaced, a new EKS node
   * group of the new type made beside it (named after the group and its type) and, once it is active, the old one
   * deleted, which EKS drains node by node first. The group keeps its name in the spec; its EKS name is recorded.
   */
  @Override
  public Revision revise(KubernetesSpec current, KubernetesSpec revised, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    Map<String, NodeGroup> before = new java.util.LinkedHashMap<>();
    current.nodeGroups().forEach(group -> before.put(group.name(), group));
    boolean upgrade = !current.version().equals(revised.version());
    if (upgrade) {
      steps.add(ProviderStep.of("upgrade-cluster", List.of(EKS_DESCRIBE_CLUSTER, EKS_UPDATE_CLUSTER_VERSION),
          ctx -> upgradeCluster(ctx, revised)));
      steps.add(ProviderStep.of("await-cluster-upgraded", List.of(EKS_DESCRIBE_CLUSTER),
          ctx -> awaitClusterVersion(ctx, revised)));
    }
    for (NodeGroup group : revised.nodeGroups()) {
      NodeGroup was = before.get(group.name());
      String eksName = recorded.has(NODE_GROUP_NAME.of(group.name())) ? recorded.get(NODE_GROUP_NAME.of(group.name()))
          : group.name();
      if (was == null || !was.instanceType().equals(group.instanceType())) {
        String made = was == null ? group.name() : replacementName(group, eksName);
        if (was == null) {
          steps.add(ProviderStep.each("create-nodegroup", made, List.of(EKS_DESCRIBE_NODEGROUP,
              EKS_CREATE_NODEGROUP, EKS_TAG_RESOURCE, IAM_PASS_ROLE), ctx -> createNodegroup(ctx, revised, group,
              made)));
        } else {
          steps.add(ProviderStep.each("create-nodegroup", made, List.of(EKS_DESCRIBE_NODEGROUP,
              EKS_CREATE_NODEGROUP, EKS_TAG_RESOURCE, IAM_PASS_ROLE), ctx -> {
                ctx.recordIntent(Map.ofEntries(RETIRING_NODE_GROUP.of(group.name()).is(eksName)));
                return createNodegroup(ctx, revised, group, made);
              }));
        }
        steps.add(ProviderStep.each("await-nodegroup", made, List.of(EKS_DESCRIBE_NODEGROUP),
            ctx -> awaitNodegroup(ctx, revised, made)));
        if (was != null) {
          steps.add(ProviderStep.each("drain-and-delete-nodegroup", eksName, List.of(EKS_DESCRIBE_NODEGROUP,
              EKS_DELETE_NODEGROUP), ctx -> retired(group, deleteNodegroup(ctx, current, eksName))));
        }
        continue;
      }
      if (!was.min().equals(group.min()) || !was.max().equals(group.max())
          || was.desiredSize() != group.desiredSize()) {
        steps.add(ProviderStep.each("scale-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP,
            EKS_UPDATE_NODEGROUP_CONFIG), ctx -> scaleNodegroup(ctx, revised, group, eksName)));
        steps.add(ProviderStep.each("await-nodegroup-scaled", group.name(), List.of(EKS_DESCRIBE_NODEGROUP),
            ctx -> awaitNodegroup(ctx, revised, eksName)));
      }
      if (upgrade) {
        steps.add(ProviderStep.each("upgrade-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP,
            EKS_UPDATE_NODEGROUP_VERSION), ctx -> upgradeNodegroup(ctx, revised, eksName)));
        steps.add(ProviderStep.each("await-nodegroup-upgraded", group.name(), List.of(EKS_DESCRIBE_NODEGROUP),
            ctx -> awaitNodegroupVersion(ctx, revised, eksName)));
      }
    }
    Set<String> kept = new java.util.HashSet<>();
    revised.nodeGroups().forEach(group -> kept.add(group.name()));
    for (int i = current.nodeGroups().size() - 1; i >= 0; i--) {
      NodeGroup group = current.nodeGroups().get(i);
      if (!kept.contains(group.name()) && recorded.has(NODE_GROUP_NAME.of(group.name()))) {
        String eksName = recorded.get(NODE_GROUP_NAME.of(group.name()));
        steps.add(ProviderStep.each("delete-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP,
            EKS_DELETE_NODEGROUP), ctx -> deleteNodegroup(ctx, current, eksName)));
      }
    }
    Revision revision = Revision.of(steps).inPlace("version", "nodeGroups")
        .replaces("nodeGroups[*].instanceType", "the group's nodes are replaced: a node group of the new type is"
            + " made, then the old one drained and deleted (pods are evicted and rescheduled)");
    return RevisionRules.oneMinorUp(revision, "EKS", current.version(), revised.version());
  }

  /**
   * The cluster's version and each recorded node group's instance type and bounds, read back from EKS. The desired
   * size is left out: the cluster autoscaler moves it within the bounds, as it should.
   */
  @Override
  public CloudRead<List<Drift>> observe(KubernetesSpec spec, Outputs recorded) {
    return ProviderRead.of(List.of(EKS_DESCRIBE_CLUSTER, EKS_DESCRIBE_NODEGROUP), () -> {
      DriftFindings found = new DriftFindings();
      Cluster cluster = findCluster(spec.name());
      if (cluster == null) {
        return found.missing("eks cluster " + spec.name()).list();
      }
      found.compare("eks cluster " + spec.name(), "version", spec.version(), cluster.version());
      for (int i = 0; i < spec.nodeGroups().size(); i++) {
        NodeGroup group = spec.nodeGroups().get(i);
        String eksName = recorded.get(NODE_GROUP_NAME.of(group.name()));
        if (eksName == null) {
          continue;
        }
        String resource = "eks nodegroup " + spec.name() + "/" + eksName;
        Nodegroup nodegroup = findNodegroup(spec.name(), eksName);
        if (nodegroup == null) {
          found.missing(resource);
          continue;
        }
        String field = "nodeGroups[" + i + "].";
        found.compare(resource, field + "instanceType", group.instanceType(),
            nodegroup.instanceTypes().isEmpty() ? null : nodegroup.instanceTypes().get(0));
        var scaling = nodegroup.scalingConfig();
        found.compare(resource, field + "min", group.min(), scaling == null ? null : scaling.minSize());
        found.compare(resource, field + "max", group.max(), scaling == null ? null : scaling.maxSize());
      }
      return found.list();
    });
  }

  /**
   * Each recorded node group's bounds set back to the spec's, and waited for. A newer version made by hand cannot
   * be undone (EKS never downgrades), and is refused by field; an instance type is not put back in place either
   * (a revision replaces the group).
   */
  @Override
  public Revision reconcile(KubernetesSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    for (NodeGroup group : spec.nodeGroups()) {
      String eksName = recorded.get(NODE_GROUP_NAME.of(group.name()));
      if (eksName == null) {
        continue;
      }
      steps.add(ProviderStep.each("scale-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP,
          EKS_UPDATE_NODEGROUP_CONFIG), ctx -> scaleNodegroup(ctx, spec, group, eksName)));
      steps.add(ProviderStep.each("await-nodegroup-scaled", group.name(), List.of(EKS_DESCRIBE_NODEGROUP),
          ctx -> awaitNodegroup(ctx, spec, eksName)));
    }
    return Revision.of(steps).inPlace("nodeGroups[*].min", "nodeGroups[*].max")
        .refuse("version", "kubernetes_downgrade", "EKS cannot take a cluster back to an older Kubernetes minor;"
            + " revise the job to the version the cluster has");
  }

  /** A retired group's deletion, once done, recorded as nothing left to retire. */
  private static StepResult retired(NodeGroup group, StepResult deletion) {
    return deletion instanceof StepResult.Done ? StepResult.done(RETIRING_NODE_GROUP.of(group.name()).is(""))
        : deletion;
  }

  /** The EKS name of a group replaced for a new instance type: the group's name and the type, never the old name. */
  static String replacementName(NodeGroup group, String previous) {
    String name = group.name() + "-" + group.instanceType().replaceAll("[^A-Za-z0-9]", "-");
    return name.equals(previous) ? name + "-2" : name.length() > 63 ? name.substring(0, 63) : name;
  }

  /** Asks EKS for the new version unless the cluster has it or is being updated already. */
  private StepResult upgradeCluster(StepContext ctx, KubernetesSpec revised) {
    Cluster cluster = findCluster(revised.name());
    if (cluster == null) {
      return StepResult.fail(Failure.system("resource_missing", "EKS cluster " + revised.name() + " is gone"));
    }
    if (!revised.version().equals(cluster.version()) && !"UPDATING".equals(cluster.statusAsString())) {
      CALLS.call(EKS_UPDATE_CLUSTER_VERSION, () -> eks.updateClusterVersion(r -> r.name(revised.name())
          .version(revised.version()).clientRequestToken(ctx.clientToken("upgrade-cluster"))));
      ctx.log("asked EKS to upgrade cluster " + revised.name() + " to " + revised.version());
    }
    return StepResult.done();
  }

  private StepResult awaitClusterVersion(StepContext ctx, KubernetesSpec revised) throws Exception {
    return poll.awaitReady(ctx, "EKS cluster " + revised.name(), () -> findCluster(revised.name()),
        cluster -> cluster.statusAsString() + " at " + cluster.version(),
        cluster -> "ACTIVE".equals(cluster.statusAsString()) && revised.version().equals(cluster.version()),
        cluster -> null, cluster -> StepResult.done());
  }

  /** Sets the group's sizes unless it has them: a resumed step asks nothing twice. */
  private StepResult scaleNodegroup(StepContext ctx, KubernetesSpec spec, NodeGroup group, String eksName) {
    Nodegroup nodegroup = findNodegroup(spec.name(), eksName);
    if (nodegroup == null) {
      return StepResult.fail(Failure.system("resource_missing", "node group " + eksName + " is gone"));
    }
    var scaling = nodegroup.scalingConfig();
    if (scaling == null || !group.min().equals(scaling.minSize()) || !group.max().equals(scaling.maxSize())
        || group.desiredSize() != scaling.desiredSize()) {
      CALLS.call(EKS_UPDATE_NODEGROUP_CONFIG, () -> eks.updateNodegroupConfig(r -> r.clusterName(spec.name())
          .nodegroupName(eksName).scalingConfig(s -> s.minSize(group.min()).maxSize(group.max())
              .desiredSize(group.desiredSize())).clientRequestToken(ctx.clientToken("scale-" + eksName))));
    }
    return StepResult.done();
  }

  private StepResult upgradeNodegroup(StepContext ctx, KubernetesSpec spec, String eksName) {
    Nodegroup nodegroup = findNodegroup(spec.name(), eksName);
    if (nodegroup == null) {
      return StepResult.fail(Failure.system("resource_missing", "node group " + eksName + " is gone"));
    }
    if (!spec.version().equals(nodegroup.version()) && !"UPDATING".equals(nodegroup.statusAsString())) {
      CALLS.call(EKS_UPDATE_NODEGROUP_VERSION, () -> eks.updateNodegroupVersion(r -> r.clusterName(spec.name())
          .nodegroupName(eksName).version(spec.version())
          .clientRequestToken(ctx.clientToken("upgrade-" + eksName))));
    }
    return StepResult.done();
  }

  private StepResult awaitNodegroupVersion(StepContext ctx, KubernetesSpec spec, String eksName)
      throws Exception {
    return poll.awaitReady(ctx, "node group " + eksName, () -> findNodegroup(spec.name(), eksName),
        nodegroup -> nodegroup.statusAsString() + " at " + nodegroup.version(),
        nodegroup -> "ACTIVE".equals(nodegroup.statusAsString()) && spec.version().equals(nodegroup.version()),
        nodegroup -> null, nodegroup -> StepResult.done());
  }

  @Override
  public List<Step> teardown(KubernetesSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    for (int i = spec.nodeGroups().size() - 1; i >= 0; i--) {
      NodeGroup group = spec.nodeGroups().get(i);
      String retiring = recorded.has(RETIRING_NODE_GROUP.of(group.name()))
          ? recorded.get(RETIRING_NODE_GROUP.of(group.name())) : "";
      if (!retiring.isEmpty()) {
        // a replacement that did not finish: its old group too
        steps.add(ProviderStep.each("delete-nodegroup", retiring, List.of(EKS_DESCRIBE_NODEGROUP,
            EKS_DELETE_NODEGROUP), ctx -> deleteNodegroup(ctx, spec, retiring)));
      }
      if (recorded.has(NODE_GROUP_NAME.of(group.name()))) {
        String eksName = recorded.get(NODE_GROUP_NAME.of(group.name()));
        steps.add(ProviderStep.each("delete-nodegroup", group.name(), List.of(EKS_DESCRIBE_NODEGROUP,
            EKS_DELETE_NODEGROUP), ctx -> deleteNodegroup(ctx, spec, eksName)));
      }
    }
    if (recorded.has(SharedOutputs.CLUSTER_NAME)) {
      steps.add(ProviderStep.of("delete-cluster", List.of(EKS_DESCRIBE_CLUSTER, EKS_DELETE_CLUSTER),
          ctx -> deleteCluster(ctx, spec)));
    }
    if (recorded.has(NODE_ROLE_NAME)) {
      steps.add(ProviderStep.of("delete-node-role", IamRoles.DELETE, ctx -> {
        roles.delete(ctx, recorded.get(NODE_ROLE_NAME));
        return StepResult.done();
      }));
    }
    if (recorded.has(CLUSTER_ROLE_NAME)) {
      steps.add(ProviderStep.of("delete-cluster-role", IamRoles.DELETE, ctx -> {
        roles.delete(ctx, recorded.get(CLUSTER_ROLE_NAME));
        return StepResult.done();
      }));
    }
    return steps;
  }

  @Override
  public String pricesAsOf() {
    return AwsPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(KubernetesSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(AwsPrices.TABLE.hourly(region, "EKS control plane", "eks:control-plane", 1));
    for (NodeGroup group : spec.nodeGroups()) {
      costs.add(AwsPrices.TABLE.hourly(region, "node group " + group.name() + " (" + group.instanceType() + " x"
          + group.desiredSize() + ")", "ec2:" + group.instanceType(), group.desiredSize()));
    }
    return costs;
  }

  /** Records the role's deterministic name before creating it, so teardown finds it even after a crash. */
  private StepResult ensureRole(StepContext ctx, OutputKey<String> nameKey, OutputKey<String> arnKey, String suffix,
      String service, List<String> policies) {
    String name = ctx.resourceName(suffix);
    ctx.recordIntent(Map.ofEntries(nameKey.is(name)));
    return StepResult.done(nameKey.is(name), arnKey.is(roles.ensure(ctx, name, service, policies)));
  }

  private StepResult createCluster(StepContext ctx, KubernetesSpec spec) throws Exception {
    return AwsTags.OWNER.createOrAdopt(ctx, "EKS cluster", spec.name(), () -> findCluster(spec.name()),
        Cluster::tags, Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name())), () -> {
          String roleArn = spec.clusterRole() != null ? spec.clusterRole() : ctx.outputs().require(CLUSTER_ROLE_ARN);
          CALLS.call(EKS_CREATE_CLUSTER, () -> eks.createCluster(r -> r.name(spec.name()).version(spec.version())
              .roleArn(roleArn).resourcesVpcConfig(v -> v.subnetIds(spec.subnetIds()))
              .tags(Map.of(AwsTags.JOB, ctx.jobId().value())).clientRequestToken(ctx.clientToken("create-cluster"))));
        }, Map.ofEntries(SharedOutputs.CLUSTER_NAME.is(spec.name())));
  }

  private StepResult awaitCluster(StepContext ctx, KubernetesSpec spec) throws Exception {
    return poll.awaitReady(ctx, "EKS cluster " + spec.name(), () -> findCluster(spec.name()),
        Cluster::statusAsString, cluster -> "ACTIVE".equals(cluster.statusAsString()),
        cluster -> !"FAILED".equals(cluster.statusAsString()) ? null : Failure.userAction("cluster_failed",
            "EKS could not create cluster " + spec.name(), "Open the cluster in the console to see why, delete the"
                + " job, fix the cause and submit again.",
            "https://console.aws.amazon.com/eks/home#/clusters/" + spec.name()),
        cluster -> StepResult.done(ENDPOINT.is(cluster.endpoint()), CLUSTER_ARN.is(cluster.arn())));
  }

  private StepResult createNodegroup(StepContext ctx, KubernetesSpec spec, NodeGroup group, String eksName) {
    Nodegroup existing = findNodegroup(spec.name(), eksName);
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(NODE_GROUP_NAME.of(group.name()).is(eksName)));
      String nodeRole = ctx.outputs().require(NODE_ROLE_ARN);
      CALLS.call(EKS_CREATE_NODEGROUP, () -> eks.createNodegroup(r -> r.clusterName(spec.name())
          .nodegroupName(eksName).nodeRole(nodeRole).subnets(spec.subnetIds()).instanceTypes(group.instanceType())
          .scalingConfig(s -> s.minSize(group.min()).maxSize(group.max()).desiredSize(group.desiredSize()))
          .tags(Map.of(AwsTags.JOB, ctx.jobId().value()))
          .clientRequestToken(ctx.clientToken("create-nodegroup-" + eksName))));
    }
    return StepResult.done(NODE_GROUP_NAME.of(group.name()).is(eksName));
  }

  private StepResult awaitNodegroup(StepContext ctx, KubernetesSpec spec, String eksName) throws Exception {
    return poll.awaitReady(ctx, "node group " + eksName, () -> findNodegroup(spec.name(), eksName),
        Nodegroup::statusAsString, nodegroup -> "ACTIVE".equals(nodegroup.statusAsString()),
        nodegroup -> !Set.of("CREATE_FAILED", "DEGRADED").contains(nodegroup.statusAsString()) ? null
            : Failure.userAction("nodegroup_failed", "node group " + eksName + " is "
                + nodegroup.statusAsString() + ": " + nodegroup.health(),
                "Check the node role, subnets and instance type quota, then retry.",
                "https://console.aws.amazon.com/eks/home#/clusters/" + spec.name()),
        nodegroup -> StepResult.done());
  }

  private StepResult deleteNodegroup(StepContext ctx, KubernetesSpec spec, String eksName) throws Exception {
    // the node group lives in the job's own cluster: whatever is there under its name is the job's
    return poll.deleteAndWait(ctx, "node group " + eksName, () -> findNodegroup(spec.name(), eksName),
        nodegroup -> true, nodegroup -> "DELETING".equals(nodegroup.statusAsString()),
        nodegroup -> CALLS.call(EKS_DELETE_NODEGROUP,
            () -> eks.deleteNodegroup(r -> r.clusterName(spec.name()).nodegroupName(eksName))));
  }

  private StepResult deleteCluster(StepContext ctx, KubernetesSpec spec) throws Exception {
    return poll.deleteAndWait(ctx, "EKS cluster " + spec.name(), () -> findCluster(spec.name()),
        cluster -> AwsTags.OWNER.owns(cluster.tags(), ctx), cluster -> "DELETING".equals(cluster.statusAsString()),
        cluster -> CALLS.call(EKS_DELETE_CLUSTER, () -> eks.deleteCluster(r -> r.name(spec.name()))));
  }

  private Cluster findCluster(String name) {
    var found = CALLS.findOrNull(EKS_DESCRIBE_CLUSTER, () -> eks.describeCluster(r -> r.name(name)));
    return found == null ? null : found.cluster();
  }

  private Nodegroup findNodegroup(String cluster, String name) {
    var found = CALLS.findOrNull(EKS_DESCRIBE_NODEGROUP,
        () -> eks.describeNodegroup(r -> r.clusterName(cluster).nodegroupName(name)));
    return found == null ? null : found.nodegroup();
  }
}
