package dev.zop.provisioner.gcp;

import com.google.container.v1.Cluster;
import com.google.container.v1.CreateNodePoolRequest;
import com.google.container.v1.NodePool;
import com.google.container.v1.SetNodePoolAutoscalingRequest;
import com.google.container.v1.UpdateMasterRequest;
import com.google.container.v1.UpdateNodePoolRequest;
import java.util.function.UnaryOperator;

/**
 * GKE's changes to a running cluster, as the container API makes them: node pools live inside their cluster
 * (read with the cluster or one by one), a cluster runs one operation at a time (another is refused with 400
 * {@code FAILED_PRECONDITION} until it is done), the control plane moves one minor version at a time and never
 * back, and nodes never run a newer version than the control plane. Required fields are those Google's protos
 * mark {@code REQUIRED}.
 */
final class GkeBehaviours {
  private final GcpFake fake;

  GkeBehaviours(GcpFake fake) {
    this.fake = fake;
  }

  void register() {
    fake.on("container.nodePools.get", (call, answer) -> {
      Cluster cluster = cluster(clusterPath(call.path()));
      NodePool pool = cluster == null ? null : pool(cluster, poolName(call.path()));
      if (pool == null) {
        answer.fail(GcpFake.notFound(call.path()));
      } else {
        answer.ok(pool);
      }
    });
    fake.on("container.nodePools.create", (call, answer) -> {
      var request = (CreateNodePoolRequest) GcpFake.typed(call.request(), CreateNodePoolRequest.getDefaultInstance());
      String clusterPath = call.path().substring(0, call.path().lastIndexOf("/nodePools"));
      NodePool wanted = request.getNodePool();
      change(call, answer, clusterPath, "CREATE_NODE_POOL", cluster -> {
        if (pool(cluster, wanted.getName()) != null) {
          return new GcpFake.Fault(409, "ALREADY_EXISTS", "ALREADY_EXISTS", "Node pool \"" + wanted.getName()
              + "\" already exists.");
        }
        return null;
      }, cluster -> cluster.toBuilder().addNodePools(wanted.toBuilder()
          .setVersion(wanted.getVersion().isEmpty() ? cluster.getCurrentMasterVersion()
              : GcpFake.gkeVersion(wanted.getVersion()))
          .setSelfLink(fake.endpoints().get("endpoint.container") + "/" + clusterPath + "/nodePools/"
              + wanted.getName())
          .setStatus(NodePool.Status.PROVISIONING)).build(),
          cluster -> withPool(cluster, wanted.getName(), p -> p.toBuilder().setStatus(NodePool.Status.RUNNING).build()));
    });
    fake.on("container.nodePools.delete", (call, answer) -> {
      String name = poolName(call.path());
      change(call, answer, clusterPath(call.path()), "DELETE_NODE_POOL", cluster -> missing(cluster, call.path()),
          cluster -> withPool(cluster, name, p -> p.toBuilder().setStatus(NodePool.Status.STOPPING).build()),
          cluster -> withPool(cluster, name, p -> null));
    });
    fake.on("container.nodePoolAutoscalings.set", (call, answer) -> {
      var request = (SetNodePoolAutoscalingRequest) GcpFake.typed(call.request(),
          SetNodePoolAutoscalingRequest.getDefaultInstance());
      String name = poolName(call.path());
      change(call, answer, clusterPath(call.path()), "UPDATE_CLUSTER", cluster -> missing(cluster, call.path()),
          cluster -> withPool(cluster, name, p -> p.toBuilder().setAutoscaling(request.getAutoscaling()).build()),
          cluster -> cluster);
    });
    fake.on("container.nodePools.update", (call, answer) -> {
      var request = (UpdateNodePoolRequest) GcpFake.typed(call.request(), UpdateNodePoolRequest.getDefaultInstance());
      String name = poolName(call.path());
      String version = request.getNodeVersion().equals("-") ? null : GcpFake.gkeVersion(request.getNodeVersion());
      change(call, answer, clusterPath(call.path()), "UPGRADE_NODES", cluster -> {
        GcpFake.Fault fault = missing(cluster, call.path());
        if (fault == null) {
          fault = GcpFake.required(request);
        }
        String master = cluster.getCurrentMasterVersion();
        if (fault == null && version != null && minor(version) > minor(master)) {
          fault = new GcpFake.Fault(400, "INVALID_ARGUMENT", "BAD_REQUEST", "Node version \"" + version
              + "\" must not be newer than the master version \"" + master + "\".");
        }
        return fault;
      }, cluster -> withPool(cluster, name, p -> p.toBuilder().setStatus(NodePool.Status.RECONCILING).build()),
          cluster -> withPool(cluster, name, p -> {
            NodePool.Builder done = p.toBuilder().setStatus(NodePool.Status.RUNNING)
                .setVersion(version != null ? version : cluster.getCurrentMasterVersion());
            if (!request.getMachineType().isEmpty()) {
              // surge upgrade: nodes of the new type are made, the old ones drained and removed
              done.setConfig(p.getConfig().toBuilder().setMachineType(request.getMachineType()));
            }
            return done.build();
          }));
    });
    fake.on("container.labels.set", (call, answer) -> {
      var request = (com.google.container.v1.SetLabelsRequest) GcpFake.typed(call.request(),
          com.google.container.v1.SetLabelsRequest.getDefaultInstance());
      change(call, answer, call.path(), "SET_LABELS", cluster -> {
        GcpFake.Fault fault = GcpFake.required(request);
        if (fault == null && !request.getLabelFingerprint().equals(cluster.getLabelFingerprint())) {
          fault = new GcpFake.Fault(400, "FAILED_PRECONDITION", "BAD_REQUEST", "Labels could not be set due to"
              + " fingerprint mismatch.");
        }
        return fault;
      }, cluster -> cluster.toBuilder().clearResourceLabels().putAllResourceLabels(request.getResourceLabelsMap())
          .setLabelFingerprint(GcpFake.labelFingerprint(request.getResourceLabelsMap())).build(),
          cluster -> cluster);
    });
    fake.on("container.masters.update", (call, answer) -> {
      var request = (UpdateMasterRequest) GcpFake.typed(call.request(), UpdateMasterRequest.getDefaultInstance());
      String version = GcpFake.gkeVersion(request.getMasterVersion());
      change(call, answer, call.path(), "UPGRADE_MASTER", cluster -> {
        GcpFake.Fault fault = GcpFake.required(request);
        int from = minor(cluster.getCurrentMasterVersion());
        if (fault == null && (minor(version) < from || minor(version) > from + 1)) {
          fault = new GcpFake.Fault(400, "INVALID_ARGUMENT", "BAD_REQUEST", "Master version \"" + version
              + "\" is unsupported: the master can be upgraded one minor version at a time from \""
              + cluster.getCurrentMasterVersion() + "\", never downgraded.");
        }
        return fault;
      }, cluster -> cluster, cluster -> cluster.toBuilder().setCurrentMasterVersion(version).build());
    });
  }

  private interface Check {
    GcpFake.Fault check(Cluster cluster);
  }

  /**
   * A change of a running cluster: refused while another runs; otherwise {@code now} is stored at once (with the
   * cluster reconciling) and {@code whenDone} when the operation is done (with the cluster running again).
   */
  private void change(GcpFake.Call call, GcpFake.Answer answer, String clusterPath, String type, Check check,
      UnaryOperator<Cluster> now, UnaryOperator<Cluster> whenDone) {
    String key = "container " + clusterPath;
    synchronized (fake) {
      Cluster cluster = cluster(clusterPath);
      if (cluster == null) {
        answer.fail(GcpFake.notFound(clusterPath));
        return;
      }
      String running = fake.changeUnderWay(key);
      if (running != null || cluster.getStatus() != Cluster.Status.RUNNING) {
        answer.fail(new GcpFake.Fault(400, "FAILED_PRECONDITION", "CLUSTER_ALREADY_HAS_OPERATION", "Cluster is"
            + " running incompatible operation " + (running != null ? running : cluster.getStatus().name())
            + "."));
        return;
      }
      GcpFake.Fault refused = check.check(cluster);
      if (refused != null) {
        answer.fail(refused);
        return;
      }
      Cluster changed = now.apply(cluster).toBuilder().setStatus(Cluster.Status.RECONCILING).build();
      fake.store(key, changed);
      answer.ok(fake.operation(call.route(), clusterPath, changed, type, () -> {
        Cluster current = cluster(clusterPath);
        if (current != null) {
          fake.store(key, whenDone.apply(current).toBuilder().setStatus(Cluster.Status.RUNNING).build());
        }
      }));
    }
  }

  private Cluster cluster(String clusterPath) {
    return (Cluster) GcpFake.typed(fake.stored("container " + clusterPath), Cluster.getDefaultInstance());
  }

  private static NodePool pool(Cluster cluster, String name) {
    return cluster.getNodePoolsList().stream().filter(p -> p.getName().equals(name)).findFirst().orElse(null);
  }

  private static GcpFake.Fault missing(Cluster cluster, String poolPath) {
    return pool(cluster, poolName(poolPath)) == null ? GcpFake.notFound(poolPath) : null;
  }

  /** The cluster with pool {@code name} replaced by what {@code change} makes of it (dropped where null). */
  private static Cluster withPool(Cluster cluster, String name, UnaryOperator<NodePool> change) {
    Cluster.Builder builder = cluster.toBuilder().clearNodePools();
    for (NodePool pool : cluster.getNodePoolsList()) {
      NodePool changed = pool.getName().equals(name) ? change.apply(pool) : pool;
      if (changed != null) {
        builder.addNodePools(changed);
      }
    }
    return builder.build();
  }

  private static String clusterPath(String poolPath) {
    return poolPath.substring(0, poolPath.lastIndexOf("/nodePools/"));
  }

  private static String poolName(String poolPath) {
    return poolPath.substring(poolPath.lastIndexOf('/') + 1);
  }

  private static int minor(String version) {
    return Integer.parseInt(version.replaceAll("^\\d+\\.(\\d+).*$", "$1"));
  }
}
