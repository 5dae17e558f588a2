package dev.zop.provisioner.aws;

import dev.zop.provisioner.spi.StepContext;
import java.util.List;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.NoSuchEntityException;
import software.amazon.awssdk.services.iam.model.Role;

/** Service roles a job creates (an EKS cluster's, its nodes'), tagged with the job and found again by name. */
final class IamRoles {
  static final List<String> CREATE = List.of("iam:GetRole", "iam:CreateRole", "iam:TagRole",
      "iam:AttachRolePolicy");
  static final List<String> DELETE = List.of("iam:GetRole", "iam:ListAttachedRolePolicies",
      "iam:DetachRolePolicy", "iam:DeleteRole");

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
      role = AwsErrors.call("iam:CreateRole", () -> iam.createRole(r -> r.roleName(name)
          .assumeRolePolicyDocument(trust).tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).role();
    }
    for (String policy : policyArns) {
      AwsErrors.call("iam:AttachRolePolicy", () -> iam.attachRolePolicy(r -> r.roleName(name).policyArn(policy)));
    }
    return role.arn();
  }

  /** Detaches its policies and deletes the role; a role that is gone, or not this job's, is left alone. */
  void delete(StepContext ctx, String name) {
    Role role = find(name);
    if (role == null || role.tags().stream().noneMatch(t -> t.key().equals(AwsTags.JOB)
        && t.value().equals(ctx.jobId().value()))) {
      return;
    }
    AwsErrors.call("iam:ListAttachedRolePolicies", () -> iam.listAttachedRolePolicies(r -> r.roleName(name)))
        .attachedPolicies().forEach(p -> AwsErrors.call("iam:DetachRolePolicy",
            () -> iam.detachRolePolicy(r -> r.roleName(name).policyArn(p.policyArn()))));
    try {
      AwsErrors.call("iam:DeleteRole", () -> iam.deleteRole(r -> r.roleName(name)));
    } catch (AwsActionException e) {
      if (!(e.getCause() instanceof NoSuchEntityException)) {
        throw e;
      }
    }
  }

  private Role find(String name) {
    try {
      return AwsErrors.call("iam:GetRole", () -> iam.getRole(r -> r.roleName(name))).role();
    } catch (AwsActionException e) {
      if (e.getCause() instanceof NoSuchEntityException) {
        return null;
      }
      throw e;
    }
  }
}
