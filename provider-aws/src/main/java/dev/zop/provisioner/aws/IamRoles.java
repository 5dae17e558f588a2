package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.spi.StepContext;
import java.util.List;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.Role;

/** Service roles a job creates (an EKS cluster's, its nodes'), tagged with the job and found again by name. */
final class IamRoles {
  static final List<String> CREATE = List.of(IAM_GET_ROLE, IAM_CREATE_ROLE, IAM_TAG_ROLE,
      IAM_ATTACH_ROLE_POLICY);
  static final List<String> DELETE = List.of(IAM_GET_ROLE, IAM_LIST_ATTACHED_ROLE_POLICIES,
      IAM_DETACH_ROLE_POLICY, IAM_DELETE_ROLE);

  private final IamClient iam;

  IamRoles(IamClient iam) {
    this.iam = iam;
  }

  /** The role's ARN, creating it with the trust for {@code service} and the managed policies when absent. */
  String ensure(StepContext ctx, String name, String service, List<String> policyArns) {
    Role role = find(name);
    if (role == null) {
      String trust = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":\""
          + service + "\"},\"Action\":\"sts:AssumeRole\"}]}";
      role = CALLS.call(IAM_CREATE_ROLE, () -> iam.createRole(r -> r.roleName(name)
          .assumeRolePolicyDocument(trust).tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).role();
    }
    for (String policy : policyArns) {
      CALLS.call(IAM_ATTACH_ROLE_POLICY, () -> iam.attachRolePolicy(r -> r.roleName(name).policyArn(policy)));
    }
    return role.arn();
  }

  /** Detaches its policies and deletes the role; a role that is gone, or not this job's, is left alone. */
  void delete(StepContext ctx, String name) {
    Role role = find(name);
    if (role == null || !AwsTags.ownedBy(role.tags(), t -> t.key(), t -> t.value(), ctx)) {
      return;
    }
    CALLS.call(IAM_LIST_ATTACHED_ROLE_POLICIES, () -> iam.listAttachedRolePolicies(r -> r.roleName(name)))
        .attachedPolicies().forEach(p -> CALLS.call(IAM_DETACH_ROLE_POLICY,
            () -> iam.detachRolePolicy(r -> r.roleName(name).policyArn(p.policyArn()))));
    CALLS.deleteIfExists(IAM_DELETE_ROLE, () -> iam.deleteRole(r -> r.roleName(name)));
  }

  private Role find(String name) {
    var found = CALLS.findOrNull(IAM_GET_ROLE, () -> iam.getRole(r -> r.roleName(name)));
    return found == null ? null : found.role();
  }
}
