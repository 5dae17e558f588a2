package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.EC2_AUTHORIZE_SECURITY_GROUP_INGRESS;
import static dev.zop.provisioner.aws.AwsActions.EC2_CREATE_SECURITY_GROUP;
import static dev.zop.provisioner.aws.AwsActions.EC2_DELETE_SECURITY_GROUP;
import static dev.zop.provisioner.aws.AwsActions.EC2_DESCRIBE_SECURITY_GROUPS;
import static dev.zop.provisioner.aws.AwsActions.EC2_REVOKE_SECURITY_GROUP_INGRESS;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.StepContext;
import java.util.Map;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.IpPermission;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;

/**
 * Security groups a step makes and keeps right: created tagged with the job (one call, so never untagged), found
 * again by name in their VPC, and each ingress rule checked and added if missing, since creating the group and
 * opening a port are separate calls and a resumed step must not trust that the second one happened.
 */
final class SecurityGroups {
  private final Ec2Client ec2;

  SecurityGroups(Ec2Client ec2) {
    this.ec2 = ec2;
  }

  /** The group's id: the one named {@code name} in {@code vpcId}, or a new one (its name recorded first). */
  String ensure(StepContext ctx, OutputKey<String> intentKey, String name, String vpcId, String description) {
    SecurityGroup group = find(name, vpcId);
    if (group != null) {
      return group.groupId();
    }
    ctx.recordIntent(Map.ofEntries(intentKey.is(name)));
    return CALLS.call(EC2_CREATE_SECURITY_GROUP, () -> ec2.createSecurityGroup(r -> r.groupName(name)
        .description(description).vpcId(vpcId)
        .tagSpecifications(t -> t.resourceType(ResourceType.SECURITY_GROUP)
            .tags(tag -> tag.key(AwsTags.JOB).value(ctx.jobId().value()))))).groupId();
  }

  /** TCP {@code port} open to {@code cidr}. */
  void allowCidr(String groupId, String vpcId, int port, String cidr, String why) {
    allow(groupId, vpcId, port, IpPermission.builder().ipProtocol("tcp").fromPort(port).toPort(port)
        .ipRanges(r -> r.cidrIp(cidr).description(why)).build(),
        p -> p.ipRanges().stream().anyMatch(r -> cidr.equals(r.cidrIp())));
  }

  /** TCP {@code port} open to members of the group {@code sourceGroupId}, and to nothing else by this rule. */
  void allowGroup(String groupId, String vpcId, int port, String sourceGroupId, String why) {
    allow(groupId, vpcId, port, IpPermission.builder().ipProtocol("tcp").fromPort(port).toPort(port)
        .userIdGroupPairs(g -> g.groupId(sourceGroupId).description(why)).build(),
        p -> p.userIdGroupPairs().stream().anyMatch(g -> sourceGroupId.equals(g.groupId())));
  }

  private void allow(String groupId, String vpcId, int port, IpPermission wanted,
      java.util.function.Predicate<IpPermission> sameSource) {
    SecurityGroup group = CALLS.call(EC2_DESCRIBE_SECURITY_GROUPS, () -> ec2.describeSecurityGroups(r -> r
        .groupIds(groupId))).securityGroups().get(0);
    boolean open = group.ipPermissions().stream().anyMatch(p -> "tcp".equals(p.ipProtocol())
        && p.fromPort() != null && p.fromPort() == port && p.toPort() != null && p.toPort() == port
        && sameSource.test(p));
    if (!open) {
      try {
        CALLS.call(EC2_AUTHORIZE_SECURITY_GROUP_INGRESS, () -> ec2.authorizeSecurityGroupIngress(r -> r
            .groupId(groupId).ipPermissions(wanted)));
      } catch (CloudCallException e) {
        // a rule added by a call whose answer was lost
        if (!AwsErrors.code(e).equals("InvalidPermission.Duplicate")) {
          throw e;
        }
      }
    }
  }

  /** Whether {@code group} lets TCP {@code port} in from {@code cidr}. */
  boolean opens(SecurityGroup group, int port, String cidr) {
    return group.ipPermissions().stream().anyMatch(p -> "tcp".equals(p.ipProtocol()) && p.fromPort() != null
        && p.fromPort() == port && p.toPort() != null && p.toPort() == port
        && p.ipRanges().stream().anyMatch(r -> cidr.equals(r.cidrIp())));
  }

  /** Whether {@code group} lets TCP {@code port} in from members of {@code sourceGroupId}. */
  boolean admits(SecurityGroup group, int port, String sourceGroupId) {
    return group.ipPermissions().stream().anyMatch(p -> "tcp".equals(p.ipProtocol()) && p.fromPort() != null
        && p.fromPort() == port && p.toPort() != null && p.toPort() == port
        && p.userIdGroupPairs().stream().anyMatch(g -> sourceGroupId.equals(g.groupId())));
  }

  /** The group of that id, or null when EC2 has none. */
  SecurityGroup byId(String groupId) {
    var answer = CALLS.findOrNull(EC2_DESCRIBE_SECURITY_GROUPS,
        () -> ec2.describeSecurityGroups(r -> r.groupIds(groupId)));
    return answer == null ? null : answer.securityGroups().stream().findFirst().orElse(null);
  }

  /** TCP {@code port} no longer open to {@code cidr}; nothing to do when it is not. */
  void revokeCidr(String groupId, int port, String cidr) {
    revoke(groupId, port, p -> p.ipRanges().stream().filter(r -> cidr.equals(r.cidrIp())).findFirst()
        .map(r -> IpPermission.builder().ipProtocol("tcp").fromPort(port).toPort(port).ipRanges(r).build())
        .orElse(null));
  }

  /** TCP {@code port} no longer open to members of {@code sourceGroupId}; nothing to do when it is not. */
  void revokeGroup(String groupId, int port, String sourceGroupId) {
    revoke(groupId, port, p -> p.userIdGroupPairs().stream().filter(g -> sourceGroupId.equals(g.groupId()))
        .findFirst().map(g -> IpPermission.builder().ipProtocol("tcp").fromPort(port).toPort(port)
            .userIdGroupPairs(g).build()).orElse(null));
  }

  /** Revokes the rule as the group describes it (its source as EC2 spells it, owner included), if it has one. */
  private void revoke(String groupId, int port, java.util.function.Function<IpPermission, IpPermission> rule) {
    SecurityGroup group = CALLS.call(EC2_DESCRIBE_SECURITY_GROUPS, () -> ec2.describeSecurityGroups(r -> r
        .groupIds(groupId))).securityGroups().get(0);
    group.ipPermissions().stream().filter(p -> "tcp".equals(p.ipProtocol()) && p.fromPort() != null
        && p.fromPort() == port).map(rule).filter(java.util.Objects::nonNull).findFirst().ifPresent(found ->
            CALLS.call(EC2_REVOKE_SECURITY_GROUP_INGRESS, () -> ec2.revokeSecurityGroupIngress(r -> r
                .groupId(groupId).ipPermissions(found))));
  }

  void delete(String name, String vpcId) {
    SecurityGroup group = find(name, vpcId);
    if (group != null) {
      CALLS.deleteIfExists(EC2_DELETE_SECURITY_GROUP, () -> ec2.deleteSecurityGroup(r -> r.groupId(group.groupId())));
    }
  }

  SecurityGroup find(String name, String vpcId) {
    var groups = CALLS.call(EC2_DESCRIBE_SECURITY_GROUPS, () -> ec2.describeSecurityGroups(r -> r.filters(
        f -> f.name("group-name").values(name), f -> f.name("vpc-id").values(vpcId)))).securityGroups().stream()
        // the filter narrows; what comes back decides (an API that ignored it would answer every group)
        .filter(g -> name.equals(g.groupName()) && vpcId.equals(g.vpcId())).toList();
    return groups.isEmpty() ? null : groups.get(0);
  }
}
