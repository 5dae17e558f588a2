package dev.zop.provisioner.aws;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.ActionTypeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Listener;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerNotFoundException;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerSchemeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerTypeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.ProtocolEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroupNotFoundException;

/**
 * A pool of EC2 instances: a launch template and an Auto Scaling group across the given subnets, and when
 * asked an application or network load balancer with a target group and a listener per port. Teardown runs
 * in reverse and waits, without a thread, for the group and the balancer to be gone.
 */
final class VmPoolDriver implements ResourceDriver<VmPoolSpec> {
  private final Ec2Client ec2;
  private final AutoScalingClient autoscaling;
  private final ElasticLoadBalancingV2Client elb;
  /** How long to wait before looking again at a balancer or group still changing. */
  private final Duration poll;

  VmPoolDriver(Ec2Client ec2, AutoScalingClient autoscaling, ElasticLoadBalancingV2Client elb, Duration poll) {
    this.ec2 = ec2;
    this.autoscaling = autoscaling;
    this.elb = elb;
    this.poll = poll;
  }

  @Override
  public Class<VmPoolSpec> specType() {
    return VmPoolSpec.class;
  }

  @Override
  public List<FieldError> validate(VmPoolSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (spec.imageId() == null) {
      errors.add(FieldError.of("imageId", "required", "an AMI id is required on AWS"));
    }
    if (spec.subnetIds().isEmpty()) {
      errors.add(FieldError.of("subnetIDs", "required", "the Auto Scaling group needs at least one subnet"));
    }
    if (spec.createLoadBalancer()) {
      if (spec.vpcId() == null) {
        errors.add(FieldError.of("vpcID", "required", "a load balancer's target group needs the VPC"));
      }
      if (spec.loadBalancerType().equals("application") && spec.subnetIds().size() < 2) {
        errors.add(FieldError.of("subnetIDs", "too_few", "an application load balancer needs two subnets"));
      }
    }
    return errors;
  }

  @Override
  public List<Step> create(VmPoolSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(new AwsStep("create-launch-template", List.of("ec2:DescribeLaunchTemplates",
        "ec2:CreateLaunchTemplate", "ec2:CreateTags"), ctx -> createLaunchTemplate(ctx, spec)));
    if (spec.createLoadBalancer()) {
      steps.add(new AwsStep("create-target-group", List.of("elasticloadbalancing:DescribeTargetGroups",
          "elasticloadbalancing:CreateTargetGroup", "elasticloadbalancing:AddTags"), ctx -> createTargetGroup(ctx, spec)));
      steps.add(new AwsStep("create-load-balancer", List.of("elasticloadbalancing:DescribeLoadBalancers",
          "elasticloadbalancing:CreateLoadBalancer", "elasticloadbalancing:AddTags"),
          ctx -> createLoadBalancer(ctx, spec)));
      steps.add(new AwsStep("await-load-balancer", List.of("elasticloadbalancing:DescribeLoadBalancers"),
          this::awaitLoadBalancer));
      for (Integer port : spec.listenerPorts()) {
        steps.add(new AwsStep("create-listener-" + port, List.of("elasticloadbalancing:DescribeListeners",
            "elasticloadbalancing:CreateListener"), ctx -> createListener(ctx, spec, port)));
      }
    }
    steps.add(new AwsStep("create-group", List.of("autoscaling:DescribeAutoScalingGroups",
        "autoscaling:CreateAutoScalingGroup", "autoscaling:CreateOrUpdateTags", "ec2:RunInstances",
        "iam:PassRole"), ctx -> createGroup(ctx, spec)));
    return steps;
  }

  @Override
  public List<Step> teardown(VmPoolSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (recorded.has("autoScalingGroupName")) {
      steps.add(new AwsStep("delete-group", List.of("autoscaling:DescribeAutoScalingGroups",
          "autoscaling:DeleteAutoScalingGroup"), ctx -> deleteGroup(recorded.get("autoScalingGroupName"))));
    }
    if (recorded.has("loadBalancerName")) {
      steps.add(new AwsStep("delete-load-balancer", List.of("elasticloadbalancing:DescribeLoadBalancers",
          "elasticloadbalancing:DescribeListeners", "elasticloadbalancing:DeleteListener",
          "elasticloadbalancing:DeleteLoadBalancer"), ctx -> deleteLoadBalancer(recorded.get("loadBalancerName"))));
    }
    if (recorded.has("targetGroupName")) {
      steps.add(new AwsStep("delete-target-group", List.of("elasticloadbalancing:DescribeTargetGroups",
          "elasticloadbalancing:DeleteTargetGroup"), ctx -> deleteTargetGroup(recorded.get("targetGroupName"))));
    }
    if (recorded.has("launchTemplateName")) {
      steps.add(new AwsStep("delete-launch-template", List.of("ec2:DescribeLaunchTemplates",
          "ec2:DeleteLaunchTemplate"), ctx -> deleteLaunchTemplate(recorded.get("launchTemplateName"))));
    }
    return steps;
  }

  @Override
  public List<CostComponent> price(VmPoolSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(AwsPrices.hourly(region, spec.instanceType() + " x" + spec.min() + " (the pool's minimum)",
        "ec2:" + spec.instanceType(), spec.min()));
    if (spec.createLoadBalancer()) {
      costs.add(AwsPrices.hourly(region, spec.loadBalancerType() + " load balancer", "elb:"
          + spec.loadBalancerType(), 1));
    }
    return costs;
  }

  /** ELB names are at most 32 characters: "zop-", 12 characters of the job, and a suffix. */
  private static String shortName(StepContext ctx, String suffix) {
    String id = ctx.jobId().value();
    String token = id.substring(id.indexOf('_') + 1).toLowerCase(Locale.ROOT);
    return "zop-" + token.substring(0, Math.min(12, token.length())) + "-" + suffix;
  }

  private StepResult createLaunchTemplate(StepContext ctx, VmPoolSpec spec) {
    String name = ctx.resourceName("lt");
    String id = findLaunchTemplate(name);
    if (id == null) {
      ctx.recordIntent(Map.of("launchTemplateName", name));
      id = AwsErrors.call("ec2:CreateLaunchTemplate", () -> ec2.createLaunchTemplate(r -> r.launchTemplateName(name)
          .clientToken(ctx.clientToken("launch-template"))
          .launchTemplateData(d -> d.imageId(spec.imageId()).instanceType(spec.instanceType()))
          .tagSpecifications(t -> t.resourceType(ResourceType.LAUNCH_TEMPLATE)
              .tags(tag -> tag.key(AwsTags.JOB).value(ctx.jobId().value())))))
          .launchTemplate().launchTemplateId();
    }
    return StepResult.done(Map.of("launchTemplateName", name, "launchTemplateId", id));
  }

  private StepResult createTargetGroup(StepContext ctx, VmPoolSpec spec) {
    String name = shortName(ctx, "tg");
    TargetGroup group = findTargetGroup(name);
    if (group == null) {
      ctx.recordIntent(Map.of("targetGroupName", name));
      boolean http = spec.loadBalancerType().equals("application");
      group = AwsErrors.call("elasticloadbalancing:CreateTargetGroup", () -> elb.createTargetGroup(r -> r.name(name)
          .protocol(http ? ProtocolEnum.HTTP : ProtocolEnum.TCP).port(spec.listenerPorts().get(0))
          .vpcId(spec.vpcId()).tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).targetGroups().get(0);
    }
    return StepResult.done(Map.of("targetGroupName", name, "targetGroupArn", group.targetGroupArn()));
  }

  private StepResult createLoadBalancer(StepContext ctx, VmPoolSpec spec) {
    String name = shortName(ctx, "lb");
    LoadBalancer balancer = findLoadBalancer(name);
    if (balancer == null) {
      ctx.recordIntent(Map.of("loadBalancerName", name));
      balancer = AwsErrors.call("elasticloadbalancing:CreateLoadBalancer", () -> elb.createLoadBalancer(r -> r
          .name(name).subnets(spec.subnetIds()).scheme(LoadBalancerSchemeEnum.INTERNET_FACING)
          .type(spec.loadBalancerType().equals("application") ? LoadBalancerTypeEnum.APPLICATION
              : LoadBalancerTypeEnum.NETWORK)
          .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).loadBalancers().get(0);
    }
    return StepResult.done(Map.of("loadBalancerName", name, "loadBalancerArn", balancer.loadBalancerArn(),
        "dnsName", balancer.dnsName()));
  }

  private StepResult awaitLoadBalancer(StepContext ctx) {
    LoadBalancer balancer = findLoadBalancer(ctx.outputs().require("loadBalancerName"));
    String state = balancer == null ? "missing" : balancer.state().codeAsString();
    return "active".equals(state) ? StepResult.done()
        : StepResult.waitFor(poll, "load balancer " + ctx.outputs().get("loadBalancerName") + " is " + state);
  }

  private StepResult createListener(StepContext ctx, VmPoolSpec spec, int port) {
    String balancer = ctx.outputs().require("loadBalancerArn");
    boolean exists = AwsErrors.call("elasticloadbalancing:DescribeListeners",
        () -> elb.describeListeners(r -> r.loadBalancerArn(balancer))).listeners().stream()
        .anyMatch(l -> l.port() == port);
    if (!exists) {
      String group = ctx.outputs().require("targetGroupArn");
      boolean http = spec.loadBalancerType().equals("application");
      AwsErrors.call("elasticloadbalancing:CreateListener", () -> elb.createListener(r -> r.loadBalancerArn(balancer)
          .port(port).protocol(http ? ProtocolEnum.HTTP : ProtocolEnum.TCP)
          .defaultActions(a -> a.type(ActionTypeEnum.FORWARD).targetGroupArn(group))));
    }
    return StepResult.done();
  }

  private StepResult createGroup(StepContext ctx, VmPoolSpec spec) {
    String name = ctx.resourceName("asg");
    if (findGroup(name) == null) {
      ctx.recordIntent(Map.of("autoScalingGroupName", name));
      String template = ctx.outputs().require("launchTemplateId");
      String targetGroup = ctx.outputs().get("targetGroupArn");
      AwsErrors.call("autoscaling:CreateAutoScalingGroup", () -> autoscaling.createAutoScalingGroup(r -> {
        r.autoScalingGroupName(name).launchTemplate(t -> t.launchTemplateId(template).version("$Latest"))
            .minSize(spec.min()).maxSize(spec.max()).desiredCapacity(spec.min())
            .vpcZoneIdentifier(String.join(",", spec.subnetIds()))
            .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value()).propagateAtLaunch(true));
        if (targetGroup != null) {
          r.targetGroupARNs(targetGroup);
        }
      }));
    }
    return StepResult.done(Map.of("autoScalingGroupName", name));
  }

  private StepResult deleteGroup(String name) {
    AutoScalingGroup group = findGroup(name);
    if (group == null) {
      return StepResult.done();
    }
    if (group.status() == null || !group.status().startsWith("Delete")) {
      AwsErrors.call("autoscaling:DeleteAutoScalingGroup",
          () -> autoscaling.deleteAutoScalingGroup(r -> r.autoScalingGroupName(name).forceDelete(true)));
    }
    return findGroup(name) == null ? StepResult.done()
        : StepResult.waitFor(poll, "Auto Scaling group " + name + " is terminating its instances");
  }

  private StepResult deleteLoadBalancer(String name) {
    LoadBalancer balancer = findLoadBalancer(name);
    if (balancer == null) {
      return StepResult.done();
    }
    for (Listener listener : AwsErrors.call("elasticloadbalancing:DescribeListeners",
        () -> elb.describeListeners(r -> r.loadBalancerArn(balancer.loadBalancerArn()))).listeners()) {
      AwsErrors.call("elasticloadbalancing:DeleteListener",
          () -> elb.deleteListener(r -> r.listenerArn(listener.listenerArn())));
    }
    AwsErrors.call("elasticloadbalancing:DeleteLoadBalancer",
        () -> elb.deleteLoadBalancer(r -> r.loadBalancerArn(balancer.loadBalancerArn())));
    return findLoadBalancer(name) == null ? StepResult.done()
        : StepResult.waitFor(poll, "load balancer " + name + " is being deleted");
  }

  private StepResult deleteTargetGroup(String name) {
    TargetGroup group = findTargetGroup(name);
    if (group != null) {
      AwsErrors.call("elasticloadbalancing:DeleteTargetGroup",
          () -> elb.deleteTargetGroup(r -> r.targetGroupArn(group.targetGroupArn())));
    }
    return StepResult.done();
  }

  private StepResult deleteLaunchTemplate(String name) {
    if (findLaunchTemplate(name) != null) {
      AwsErrors.call("ec2:DeleteLaunchTemplate", () -> ec2.deleteLaunchTemplate(r -> r.launchTemplateName(name)));
    }
    return StepResult.done();
  }

  private String findLaunchTemplate(String name) {
    try {
      var found = AwsErrors.call("ec2:DescribeLaunchTemplates",
          () -> ec2.describeLaunchTemplates(r -> r.launchTemplateNames(name))).launchTemplates();
      return found.isEmpty() ? null : found.get(0).launchTemplateId();
    } catch (AwsActionException e) {
      if (AwsErrors.code(e).startsWith("InvalidLaunchTemplateName.NotFound")) {
        return null;
      }
      throw e;
    }
  }

  private TargetGroup findTargetGroup(String name) {
    try {
      return AwsErrors.call("elasticloadbalancing:DescribeTargetGroups",
          () -> elb.describeTargetGroups(r -> r.names(name))).targetGroups().get(0);
    } catch (AwsActionException e) {
      if (e.getCause() instanceof TargetGroupNotFoundException) {
        return null;
      }
      throw e;
    }
  }

  private LoadBalancer findLoadBalancer(String name) {
    try {
      return AwsErrors.call("elasticloadbalancing:DescribeLoadBalancers",
          () -> elb.describeLoadBalancers(r -> r.names(name))).loadBalancers().get(0);
    } catch (AwsActionException e) {
      if (e.getCause() instanceof LoadBalancerNotFoundException) {
        return null;
      }
      throw e;
    }
  }

  private AutoScalingGroup findGroup(String name) {
    List<AutoScalingGroup> groups = AwsErrors.call("autoscaling:DescribeAutoScalingGroups",
        () -> autoscaling.describeAutoScalingGroups(r -> r.autoScalingGroupNames(name))).autoScalingGroups();
    return groups.isEmpty() ? null : groups.get(0);
  }
}
