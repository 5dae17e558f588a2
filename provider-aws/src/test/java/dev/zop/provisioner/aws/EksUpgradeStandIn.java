package dev.zop.provisioner.aws;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.services.eks.model.DescribeClusterResponse;
import software.amazon.awssdk.services.eks.model.DescribeNodegroupResponse;
import software.amazon.awssdk.services.eks.model.UpdateClusterVersionRequest;
import software.amazon.awssdk.services.eks.model.UpdateNodegroupVersionRequest;

/**
 * moto does not implement EKS's UpdateClusterVersion and UpdateNodegroupVersion. This stands in for those two
 * alone: it keeps each request the SDK sent (for the test to assert), answers as EKS does (an update in progress),
 * and from then on gives the cluster or node group the new version in moto's DescribeCluster and
 * DescribeNodegroup answers, as EKS shows it once the update is done. Every other call goes to moto as it is.
 */
final class EksUpgradeStandIn extends MotoStandIn {
  /** The requests the SDK sent, in order. */
  final List<SdkRequest> requests = new CopyOnWriteArrayList<>();
  /** cluster, or cluster/nodegroup → the version it was upgraded to. */
  private final Map<String, String> versions = new ConcurrentHashMap<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    if (request instanceof UpdateClusterVersionRequest cluster) {
      requests.add(request);
      versions.put(cluster.name(), cluster.version());
      answer(attributes, Answer.json(update("VersionUpdate", cluster.version())));
    } else if (request instanceof UpdateNodegroupVersionRequest group) {
      requests.add(request);
      versions.put(group.clusterName() + "/" + group.nodegroupName(), group.version());
      answer(attributes, Answer.json(update("VersionUpdate", group.version())));
    }
  }

  private static String update(String type, String version) {
    return "{\"update\":{\"id\":\"" + java.util.UUID.randomUUID() + "\",\"status\":\"InProgress\",\"type\":\""
        + type + "\",\"params\":[{\"type\":\"Version\",\"value\":\"" + version + "\"}],\"createdAt\":"
        + System.currentTimeMillis() / 1000 + ",\"errors\":[]}}";
  }

  @Override
  public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
    SdkResponse response = context.response();
    if (response instanceof DescribeClusterResponse described && described.cluster() != null) {
      String version = versions.get(described.cluster().name());
      if (version != null) {
        return described.toBuilder().cluster(described.cluster().toBuilder().version(version).build()).build();
      }
    } else if (response instanceof DescribeNodegroupResponse described && described.nodegroup() != null) {
      String version = versions.get(described.nodegroup().clusterName() + "/"
          + described.nodegroup().nodegroupName());
      if (version != null) {
        return described.toBuilder().nodegroup(described.nodegroup().toBuilder().version(version).build()).build();
      }
    }
    return response;
  }
}
