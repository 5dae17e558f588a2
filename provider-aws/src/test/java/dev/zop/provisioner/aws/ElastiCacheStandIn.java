package dev.zop.provisioner.aws;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.services.elasticache.model.DescribeReplicationGroupsResponse;
import software.amazon.awssdk.services.elasticache.model.ModifyReplicationGroupRequest;
import software.amazon.awssdk.services.elasticache.model.ReplicationGroup;

/**
 * moto does not implement ElastiCache's ModifyReplicationGroup. This stands in for it alone: it keeps each request
 * the SDK sent (for the test to assert), answers as ElastiCache does (the AWS Query protocol's XML, the group
 * {@code modifying}), and from then on gives the group the node type and snapshot retention asked for in moto's
 * DescribeReplicationGroups answers, as ElastiCache shows them once the change is done. Every other call goes to
 * moto as it is.
 */
final class ElastiCacheStandIn extends MotoStandIn {
  /** The requests the SDK sent, in order. */
  final List<ModifyReplicationGroupRequest> requests = new CopyOnWriteArrayList<>();
  private final Map<String, ModifyReplicationGroupRequest> modified = new ConcurrentHashMap<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    SdkRequest request = context.request();
    if (request instanceof ModifyReplicationGroupRequest modify) {
      requests.add(modify);
      modified.merge(modify.replicationGroupId(), modify, (was, now) -> now.toBuilder()
          .cacheNodeType(now.cacheNodeType() != null ? now.cacheNodeType() : was.cacheNodeType())
          .snapshotRetentionLimit(now.snapshotRetentionLimit() != null ? now.snapshotRetentionLimit()
              : was.snapshotRetentionLimit()).build());
      answer(attributes, Answer.xml("<ModifyReplicationGroupResponse xmlns=\"http://elasticache.amazonaws.com/"
          + "doc/2015-02-02/\"><ModifyReplicationGroupResult><ReplicationGroup><ReplicationGroupId>"
          + modify.replicationGroupId() + "</ReplicationGroupId><Status>modifying</Status></ReplicationGroup>"
          + "</ModifyReplicationGroupResult><ResponseMetadata><RequestId>" + java.util.UUID.randomUUID()
          + "</RequestId></ResponseMetadata></ModifyReplicationGroupResponse>"));
    }
  }

  @Override
  public SdkResponse modifyResponse(Context.ModifyResponse context, ExecutionAttributes attributes) {
    if (!(context.response() instanceof DescribeReplicationGroupsResponse described)) {
      return context.response();
    }
    return described.toBuilder().replicationGroups(described.replicationGroups().stream().map(group -> {
      ModifyReplicationGroupRequest asked = modified.get(group.replicationGroupId());
      if (asked == null) {
        return group;
      }
      ReplicationGroup.Builder changed = group.toBuilder();
      if (asked.cacheNodeType() != null) {
        changed.cacheNodeType(asked.cacheNodeType());
      }
      if (asked.snapshotRetentionLimit() != null) {
        changed.snapshotRetentionLimit(asked.snapshotRetentionLimit());
      }
      return changed.build();
    }).toList()).build();
  }
}
