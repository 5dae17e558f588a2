package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.autoscaling.model.AutoScalingGroup;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.SecurityGroup;
import software.amazon.awssdk.services.ec2.model.Subnet;
import software.amazon.awssdk.services.ec2.model.Vpc;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.ActionTypeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.Listener;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancer;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerSchemeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.LoadBalancerTypeEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.ProtocolEnum;
import software.amazon.awssdk.services.elasticloadbalancingv2.model.TargetGroup;
import software.amazon.awssdk.services.ssm.SsmClient;

/**
 * A pool of EC2 instances: a launch template and an Auto Scaling group across the given subnets, and when
 * asked an application or network load balancer with a target group and a listener per port. Teardown runs
 * in reverse and waits, without a thread, for the group and the balancer to be gone.
 */
final class VmPoolDriver implements ResourceDriver<VmPoolSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> INSTANCE_SECURITY_GROUP_NAME = OutputKey.text("instanceSecurityGroupName");
  static final OutputKey<String> INSTANCE_SECURITY_GROUP_ID = OutputKey.text("instanceSecurityGroupId");
  static final OutputKey<String> LB_SECURITY_GROUP_NAME = OutputKey.text("lbSecurityGroupName");
  static final OutputKey<String> LB_SECURITY_GROUP_ID = OutputKey.text("lbSecurityGroupId");
  static final OutputKey<String> LAUNCH_TEMPLATE_NAME = OutputKey.text("launchTemplateName");
  static final OutputKey<String> LAUNCH_TEMPLATE_ID = OutputKey.text("launchTemplateId");
  static final OutputKey<String> TARGET_GROUP_NAMES = OutputKey.text("targetGroupNames");
  static final OutputKey<String> TARGET_GROUP_ARNS = OutputKey.text("targetGroupArns");
  static final OutputKey<String> TARGET_GROUP_NAME = OutputKey.text("targetGroupName");
  static final OutputKey<String> TARGET_GROUP_ARN = OutputKey.text("targetGroupArn");
  static final OutputKey<String> LOAD_BALANCER_NAME = OutputKey.text("loadBalancerName");
  static final OutputKey<String> LOAD_BALANCER_ARN = OutputKey.text("loadBalancerArn");
  static final OutputKey<String> DNS_NAME = OutputKey.text("dnsName");
  static final OutputKey<String> AUTO_SCALING_GROUP_NAME = OutputKey.text("autoScalingGroupName");

  private final Ec2Client ec2;
  private final AutoScalingClient autoscaling;
  private final ElasticLoadBalancingV2Client elb;
  private final SsmClient ssm;
  private final SecurityGroups groups;
  private final String region;
  private static final String APPLICATION = "application";
  private static final String NETWORK = "network";
  private static final String AMAZON_LINUX = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-";
  /** How long to wait before looking again at a balancer or group still changing. */
  private final StatusPoll poll;

  VmPoolDriver(Ec2Client ec2, AutoScalingClient autoscaling, ElasticLoadBalancingV2Client elb, SsmClient ssm,
      String region, Duration poll) {
    this.ec2 = ec2;
    this.autoscaling = autoscaling;
    this.elb = elb;
    this.ssm = ssm;
    this.groups = new SecurityGroups(ec2);
    this.region = region;
    this.poll = StatusPoll.every(poll);
  }

  /**
   * What the product documents promise is pre-filled: the current Amazon Linux 2023 image for the instance's
   * architecture (the public SSM parameter AWS keeps up to date), and, when no subnets are named, the account's
   * default VPC with one default subnet in each of up to three zones; with subnets but no VPC, their VPC.
   */
  @Override
  public Defaulted<VmPoolSpec> withDefaults(VmPoolSpec spec) {
    List<PlanDefault> filled = new ArrayList<>();
    String image = spec.imageId();
    if (image == null) {
      String parameter = AMAZON_LINUX + (isArm(spec.instanceType()) ? "arm64" : "x86_64");
      image = CALLS.call(SSM_GET_PARAMETER, () -> ssm.getParameter(r -> r.name(parameter))).parameter().value();
      filled.add(new PlanDefault("imageId", image, "the current Amazon Linux 2023 image (" + parameter + ")"));
    }
    String vpc = spec.vpcId();
    List<String> subnets = spec.subnetIds();
    if (subnets.isEmpty()) {
      if (vpc == null) {
        vpc = CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.filters(f -> f.name("is-default")
            .values("true")))).vpcs().stream().map(Vpc::vpcId).findFirst().orElse(null);
        if (vpc != null) {
          filled.add(new PlanDefault("vpcID", vpc, "the account's default VPC in " + region));
        }
      }
      if (vpc != null) {
        String inVpc = vpc;
        List<Subnet> candidates = CALLS.call(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.filters(
            f -> f.name("vpc-id").values(inVpc)))).subnets();
        // one per zone, the zone's default subnet first, zones in order: spread, and the same on every call
        Map<String, Subnet> byZone = new TreeMap<>();
        candidates.stream()
            .sorted(Comparator.comparing((Subnet s) -> !Boolean.TRUE.equals(s.defaultForAz()))
                .thenComparing(Subnet::subnetId))
            .forEach(s -> byZone.putIfAbsent(s.availabilityZone(), s));
        subnets = byZone.values().stream().limit(3).map(Subnet::subnetId).toList();
        if (!subnets.isEmpty()) {
          filled.add(new PlanDefault("subnetIDs", String.join(",", subnets), "one subnet in each of "
              + subnets.size() + " zones of " + vpc + " (" + String.join(", ", byZone.keySet().stream().limit(3)
              .toList()) + ")"));
        }
      }
    } else if (vpc == null) { // the pool's security groups, and a load balancer's target groups, live in it
      String first = subnets.get(0);
      // a subnet that does not exist is left for validation to name, as a field error
      var found = CALLS.findOrNull(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.subnetIds(first)));
      vpc = found == null ? null : found.subnets().stream().map(Subnet::vpcId).findFirst().orElse(null);
      if (vpc != null) {
        filled.add(new PlanDefault("vpcID", vpc, "the VPC of the subnets named"));
      }
    }
    String type = spec.loadBalancerType();
    if (spec.createLoadBalancer() && type == null) {
      // 443 is never served as plain HTTP: without a certificate to terminate TLS with, pass it through
      boolean tlsPassThrough = spec.listenerPorts().contains(443) && spec.certificateArn() == null;
      type = tlsPassThrough ? NETWORK : APPLICATION;
      filled.add(new PlanDefault("loadBalancerType", type, tlsPassThrough
          ? "port 443 without certificateArn: TCP listeners on a network load balancer pass TLS through to the"
              + " instances, each port to the same port"
          : "HTTP listeners on an application load balancer"
              + (spec.certificateArn() == null ? "" : ", HTTPS with the certificate on 443")));
    }
    if (filled.isEmpty()) {
      return Defaulted.as(spec);
    }
    return new Defaulted<>(new VmPoolSpec(spec.name(), spec.instanceType(), spec.min(), spec.max(),
        spec.createLoadBalancer(), type, spec.listenerPorts(), vpc, subnets, image, spec.certificateArn()), filled);
  }

  /** Graviton families carry a "g" after the generation: t4g, m7g, c6gn, r8gd. */
  private static boolean isArm(String instanceType) {
    String family = instanceType == null ? "" : instanceType.split("\\.")[0];
    return family.matches("[a-z]+\\d+g[a-z]*");
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
      if (APPLICATION.equals(spec.loadBalancerType()) && spec.listenerPorts().contains(443)
          && spec.certificateArn() == null) {
        errors.add(FieldError.of("certificateArn", "required", "an application load balancer serves 443 as HTTPS:"
            + " give the certificate (ACM ARN), or use a network load balancer to pass TLS through"));
      }
      if (APPLICATION.equals(spec.loadBalancerType()) && spec.subnetIds().size() < 2) {
        errors.add(FieldError.of("subnetIDs", "too_few", "an application load balancer needs two subnets"));
      }
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(VmPoolDriver.class);
  }

  @Override
  public List<Step> create(VmPoolSpec spec) {
    List<Step> steps = new ArrayList<>();
    if (spec.vpcId() != null) {
      steps.add(ProviderStep.of("create-security-groups", List.of(EC2_DESCRIBE_SECURITY_GROUPS,
          EC2_CREATE_SECURITY_GROUP, EC2_CREATE_TAGS, EC2_AUTHORIZE_SECURITY_GROUP_INGRESS),
          ctx -> createSecurityGroups(ctx, spec)));
    }
    steps.add(ProviderStep.of("create-launch-template", List.of(EC2_DESCRIBE_LAUNCH_TEMPLATES,
        EC2_CREATE_LAUNCH_TEMPLATE, EC2_CREATE_TAGS), ctx -> createLaunchTemplate(ctx, spec)));
    if (spec.createLoadBalancer()) {
      steps.add(ProviderStep.of("create-target-group", List.of(ELB_DESCRIBE_TARGET_GROUPS,
          ELB_CREATE_TARGET_GROUP, ELB_ADD_TAGS), ctx -> createTargetGroup(ctx, spec)));
      steps.add(ProviderStep.of("create-load-balancer", List.of(ELB_DESCRIBE_LOAD_BALANCERS,
          ELB_CREATE_LOAD_BALANCER, ELB_ADD_TAGS),
          ctx -> createLoadBalancer(ctx, spec)));
      steps.add(ProviderStep.of("await-load-balancer", List.of(ELB_DESCRIBE_LOAD_BALANCERS),
          this::awaitLoadBalancer));
      for (Integer port : spec.listenerPorts()) {
        steps.add(ProviderStep.each("create-listener", port, List.of(ELB_DESCRIBE_LISTENERS,
            ELB_CREATE_LISTENER), ctx -> createListener(ctx, spec, port)));
      }
    }
    steps.add(ProviderStep.of("create-group", List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS,
        AUTOSCALING_CREATE_AUTO_SCALING_GROUP, AUTOSCALING_CREATE_OR_UPDATE_TAGS, EC2_RUN_INSTANCES,
        IAM_PASS_ROLE), ctx -> createGroup(ctx, spec)));
    return steps;
  }

  @Override
  public List<Step> teardown(VmPoolSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (recorded.has(AUTO_SCALING_GROUP_NAME)) {
      steps.add(ProviderStep.of("delete-group", List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS,
          AUTOSCALING_DELETE_AUTO_SCALING_GROUP), ctx -> deleteGroup(ctx, recorded.get(AUTO_SCALING_GROUP_NAME))));
    }
    if (recorded.has(LOAD_BALANCER_NAME)) {
      steps.add(ProviderStep.of("delete-load-balancer", List.of(ELB_DESCRIBE_LOAD_BALANCERS,
          ELB_DESCRIBE_LISTENERS, ELB_DELETE_LISTENER,
          ELB_DELETE_LOAD_BALANCER), ctx -> deleteLoadBalancer(ctx, recorded.get(LOAD_BALANCER_NAME))));
    }
    if (recorded.has(TARGET_GROUP_NAMES)) {
      List<String> names = List.of(recorded.get(TARGET_GROUP_NAMES).split(","));
      steps.add(ProviderStep.of("delete-target-group", List.of(ELB_DESCRIBE_TARGET_GROUPS,
          ELB_DELETE_TARGET_GROUP), ctx -> {
            for (String name : names) {
              deleteTargetGroup(name);
            }
            return StepResult.done();
          }));
    } else if (recorded.has(TARGET_GROUP_NAME)) { // recorded by jobs created before target groups per port
      steps.add(ProviderStep.of("delete-target-group", List.of(ELB_DESCRIBE_TARGET_GROUPS,
          ELB_DELETE_TARGET_GROUP), ctx -> deleteTargetGroup(recorded.get(TARGET_GROUP_NAME))));
    }
    if (recorded.has(LAUNCH_TEMPLATE_NAME)) {
      steps.add(ProviderStep.of("delete-launch-template", List.of(EC2_DESCRIBE_LAUNCH_TEMPLATES,
          EC2_DELETE_LAUNCH_TEMPLATE), ctx -> deleteLaunchTemplate(recorded.get(LAUNCH_TEMPLATE_NAME))));
    }
    if (recorded.has(INSTANCE_SECURITY_GROUP_NAME) || recorded.has(LB_SECURITY_GROUP_NAME)) {
      // the instances' group first: its rule names the load balancer's group
      steps.add(ProviderStep.of("delete-security-groups", List.of(EC2_DESCRIBE_SECURITY_GROUPS,
          EC2_DELETE_SECURITY_GROUP), ctx -> {
            if (recorded.has(INSTANCE_SECURITY_GROUP_NAME)) {
              groups.delete(recorded.get(INSTANCE_SECURITY_GROUP_NAME), spec.vpcId());
            }
            if (recorded.has(LB_SECURITY_GROUP_NAME)) {
              groups.delete(recorded.get(LB_SECURITY_GROUP_NAME), spec.vpcId());
            }
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
  public List<CostComponent> price(VmPoolSpec spec, String region) {
    List<CostComponent> costs = new ArrayList<>();
    costs.add(AwsPrices.TABLE.hourly(region, spec.instanceType() + " x" + spec.min() + " (the pool's minimum)",
        "ec2:" + spec.instanceType(), spec.min()));
    if (spec.createLoadBalancer()) {
      String type = spec.loadBalancerType() == null ? APPLICATION : spec.loadBalancerType();
      costs.add(AwsPrices.TABLE.hourly(region, type + " load balancer", "elb:" + type, 1));
    }
    return costs;
  }

  /** ELB names are at most 32 characters: "zop-", 12 characters of the job, and a suffix. */
  private static String shortName(StepContext ctx, String suffix) {
    String id = ctx.jobId().value();
    String token = id.substring(id.indexOf('_') + 1).toLowerCase(Locale.ROOT);
    return "zop-" + token.substring(0, Math.min(12, token.length())) + "-" + suffix;
  }

  /**
   * The load balancer's group is open to the world on the listener ports only; the instances' group only to the
   * load balancer's group, on the ports its target groups use. Without a load balancer nothing is opened.
   */
  private StepResult createSecurityGroups(StepContext ctx, VmPoolSpec spec) {
    String vpc = spec.vpcId();
    Map<String, String> outputs = new java.util.LinkedHashMap<>();
    String instanceName = ctx.resourceName("vm-sg");
    String instances = groups.ensure(ctx, INSTANCE_SECURITY_GROUP_NAME, instanceName, vpc,
        "zop vm pool " + ctx.jobId() + ": the instances");
    outputs.putAll(Map.ofEntries(INSTANCE_SECURITY_GROUP_NAME.is(instanceName)));
    outputs.putAll(Map.ofEntries(INSTANCE_SECURITY_GROUP_ID.is(instances)));
    if (spec.createLoadBalancer()) {
      String lbName = ctx.resourceName("lb-sg");
      String balancer = groups.ensure(ctx, LB_SECURITY_GROUP_NAME, lbName, vpc,
          "zop vm pool " + ctx.jobId() + ": the load balancer");
      for (int port : spec.listenerPorts()) {
        groups.allowCidr(balancer, vpc, port, "0.0.0.0/0", "listener " + port);
      }
      List<Integer> targetPorts = APPLICATION.equals(spec.loadBalancerType())
          ? List.of(spec.listenerPorts().get(0)) : spec.listenerPorts();
      for (int port : targetPorts) {
        groups.allowGroup(instances, vpc, port, balancer, "the pool's load balancer");
      }
      outputs.putAll(Map.ofEntries(LB_SECURITY_GROUP_NAME.is(lbName)));
      outputs.putAll(Map.ofEntries(LB_SECURITY_GROUP_ID.is(balancer)));
    }
    return StepResult.done(outputs);
  }

  private StepResult createLaunchTemplate(StepContext ctx, VmPoolSpec spec) {
    String name = ctx.resourceName("lt");
    String id = findLaunchTemplate(name);
    if (id == null) {
      ctx.recordIntent(Map.ofEntries(LAUNCH_TEMPLATE_NAME.is(name)));
      id = CALLS.call(EC2_CREATE_LAUNCH_TEMPLATE, () -> ec2.createLaunchTemplate(r -> r.launchTemplateName(name)
          .clientToken(ctx.clientToken("launch-template"))
          .launchTemplateData(d -> {
            d.imageId(spec.imageId()).instanceType(spec.instanceType());
            String group = ctx.outputs().get(INSTANCE_SECURITY_GROUP_ID);
            if (group != null) {
              d.securityGroupIds(group);
            }
          })
          .tagSpecifications(t -> t.resourceType(ResourceType.LAUNCH_TEMPLATE)
              .tags(tag -> tag.key(AwsTags.JOB).value(ctx.jobId().value())))))
          .launchTemplate().launchTemplateId();
    }
    return StepResult.done(LAUNCH_TEMPLATE_NAME.is(name), LAUNCH_TEMPLATE_ID.is(id));
  }

  /**
   * An application load balancer forwards every listener to one HTTP target group on the first port; a network
   * load balancer has a TCP target group per port, so each port (443 included) reaches the same port on the
   * instances. All the names are recorded before the first is created.
   */
  private StepResult createTargetGroup(StepContext ctx, VmPoolSpec spec) {
    boolean http = APPLICATION.equals(spec.loadBalancerType());
    List<Integer> ports = http ? List.of(spec.listenerPorts().get(0)) : spec.listenerPorts();
    List<String> names = ports.stream().map(p -> shortName(ctx, http ? "tg" : "tg" + p)).toList();
    ctx.recordIntent(Map.ofEntries(TARGET_GROUP_NAMES.is(String.join(",", names))));
    List<String> arns = new ArrayList<>();
    for (int i = 0; i < ports.size(); i++) {
      String name = names.get(i);
      int port = ports.get(i);
      TargetGroup group = findTargetGroup(name);
      if (group == null) {
        group = CALLS.call(ELB_CREATE_TARGET_GROUP, () -> elb.createTargetGroup(r -> r.name(name)
            .protocol(http ? ProtocolEnum.HTTP : ProtocolEnum.TCP).port(port)
            .vpcId(spec.vpcId()).tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).targetGroups().get(0);
      }
      arns.add(group.targetGroupArn());
    }
    return StepResult.done(TARGET_GROUP_NAMES.is(String.join(",", names)),
        TARGET_GROUP_ARNS.is(String.join(",", arns)), TARGET_GROUP_ARN.is(arns.get(0)));
  }

  /** The target group a listener on {@code port} forwards to. */
  private static String targetGroupFor(StepContext ctx, VmPoolSpec spec, int port) {
    List<String> arns = List.of(ctx.outputs().require(TARGET_GROUP_ARNS).split(","));
    return APPLICATION.equals(spec.loadBalancerType()) ? arns.get(0) : arns.get(spec.listenerPorts().indexOf(port));
  }

  private StepResult createLoadBalancer(StepContext ctx, VmPoolSpec spec) {
    String name = shortName(ctx, "lb");
    LoadBalancer balancer = findLoadBalancer(name);
    if (balancer == null) {
      ctx.recordIntent(Map.ofEntries(LOAD_BALANCER_NAME.is(name)));
      balancer = CALLS.call(ELB_CREATE_LOAD_BALANCER, () -> elb.createLoadBalancer(r -> r
          .name(name).subnets(spec.subnetIds()).scheme(LoadBalancerSchemeEnum.INTERNET_FACING)
          .securityGroups(ctx.outputs().require(LB_SECURITY_GROUP_ID))
          .type(APPLICATION.equals(spec.loadBalancerType()) ? LoadBalancerTypeEnum.APPLICATION
              : LoadBalancerTypeEnum.NETWORK)
          .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).loadBalancers().get(0);
    }
    return StepResult.done(LOAD_BALANCER_NAME.is(name), LOAD_BALANCER_ARN.is(balancer.loadBalancerArn()),
        DNS_NAME.is(balancer.dnsName()));
  }

  private StepResult awaitLoadBalancer(StepContext ctx) {
    LoadBalancer balancer = findLoadBalancer(ctx.outputs().require(LOAD_BALANCER_NAME));
    String state = balancer == null ? "missing" : balancer.state().codeAsString();
    return "active".equals(state) ? StepResult.done()
        : poll.waitFor(ctx, "load balancer " + ctx.outputs().get(LOAD_BALANCER_NAME) + " is " + state);
  }

  private StepResult createListener(StepContext ctx, VmPoolSpec spec, int port) {
    String balancer = ctx.outputs().require(LOAD_BALANCER_ARN);
    boolean exists = CALLS.call(ELB_DESCRIBE_LISTENERS,
        () -> elb.describeListeners(r -> r.loadBalancerArn(balancer))).listeners().stream()
        .anyMatch(l -> l.port() == port);
    if (!exists) {
      String group = targetGroupFor(ctx, spec, port);
      boolean application = APPLICATION.equals(spec.loadBalancerType());
      // on an application load balancer 443 is HTTPS with the certificate (validation requires one); on a
      // network load balancer every port is TCP, TLS passing through
      boolean https = application && port == 443;
      CALLS.call(ELB_CREATE_LISTENER, () -> elb.createListener(r -> {
        r.loadBalancerArn(balancer).port(port)
            .protocol(https ? ProtocolEnum.HTTPS : application ? ProtocolEnum.HTTP : ProtocolEnum.TCP)
            .defaultActions(a -> a.type(ActionTypeEnum.FORWARD).targetGroupArn(group));
        if (https) {
          r.certificates(c -> c.certificateArn(spec.certificateArn()));
        }
      }));
    }
    return StepResult.done();
  }

  private StepResult createGroup(StepContext ctx, VmPoolSpec spec) {
    String name = ctx.resourceName("asg");
    if (findGroup(name) == null) {
      ctx.recordIntent(Map.ofEntries(AUTO_SCALING_GROUP_NAME.is(name)));
      String template = ctx.outputs().require(LAUNCH_TEMPLATE_ID);
      String targetGroups = ctx.outputs().get(TARGET_GROUP_ARNS);
      CALLS.call(AUTOSCALING_CREATE_AUTO_SCALING_GROUP, () -> autoscaling.createAutoScalingGroup(r -> {
        r.autoScalingGroupName(name).launchTemplate(t -> t.launchTemplateId(template).version("$Latest"))
            .minSize(spec.min()).maxSize(spec.max()).desiredCapacity(spec.min())
            .vpcZoneIdentifier(String.join(",", spec.subnetIds()))
            .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value()).propagateAtLaunch(true));
        if (targetGroups != null) {
          r.targetGroupARNs(targetGroups.split(","));
        }
      }));
    }
    return StepResult.done(AUTO_SCALING_GROUP_NAME.is(name));
  }

  /**
   * A pool's min and max change where its Auto Scaling group stands (UpdateAutoScalingGroup, the desired count
   * kept within them). A new instance type is a rolling replacement: a new version of the launch template (which
   * the group launches from, at {@code $Latest}), then the group's instances of the old type replaced one at a
   * time, each terminated only once every other instance is in service, the group launching its successor. An
   * application load balancer's listener ports change where it stands (see {@link #listenerChanges}).
   */
  @Override
  public Revision revise(VmPoolSpec current, VmPoolSpec revised, Outputs recorded) {
    if (!recorded.has(AUTO_SCALING_GROUP_NAME)) {
      return Revision.none();
    }
    String name = recorded.get(AUTO_SCALING_GROUP_NAME);
    List<Step> steps = new ArrayList<>();
    if (!current.min().equals(revised.min()) || !current.max().equals(revised.max())) {
      steps.add(ProviderStep.of("resize-group", List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS,
          AUTOSCALING_UPDATE_AUTO_SCALING_GROUP), ctx -> resizeGroup(ctx, name, revised)));
    }
    if (!current.instanceType().equals(revised.instanceType()) && recorded.has(LAUNCH_TEMPLATE_ID)) {
      String template = recorded.get(LAUNCH_TEMPLATE_ID);
      steps.add(ProviderStep.of("new-launch-template-version", List.of(EC2_DESCRIBE_LAUNCH_TEMPLATE_VERSIONS,
          EC2_CREATE_LAUNCH_TEMPLATE_VERSION), ctx -> newTemplateVersion(ctx, template, revised)));
      steps.add(ProviderStep.of("replace-instances", List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS,
          AUTOSCALING_TERMINATE_INSTANCE_IN_AUTO_SCALING_GROUP, EC2_RUN_INSTANCES),
          ctx -> replaceInstances(ctx, name, revised)));
    }
    Revision refusals = Revision.none();
    listenerChanges(current, revised, recorded, steps, refusals);
    Revision revision = Revision.of(steps).inPlace("min", "max", "listenerPorts")
        .replaces("instanceType", "the pool's instances are replaced one at a time by instances of the new type:"
            + " what is on their disks is lost, and each stops serving while it is replaced");
    refusals.refused().forEach(e -> revision.refuse(e.field(), e.code(), e.message()));
    return revision;
  }

  /**
   * An application load balancer's listeners change where it stands: a port added is opened in its security group
   * and gets a listener forwarding to the pool's target group; a port dropped loses its listener, then its opening.
   * The first port, which the target group and the instances serve, stays ({@code target_port_change}). A network
   * load balancer's ports each have a target group of their own: see {@link #networkListenerChanges}.
   */
  private void listenerChanges(VmPoolSpec current, VmPoolSpec revised, Outputs recorded, List<Step> steps,
      Revision refusals) {
    if (current.listenerPorts().equals(revised.listenerPorts()) || !current.createLoadBalancer()) {
      return;
    }
    if (!revised.createLoadBalancer() || !current.loadBalancerType().equals(revised.loadBalancerType())) {
      refusals.refuse("listenerPorts", "listener_change", "a pool keeps its kind of load balancer: create a new"
          + " pool for another");
      return;
    }
    if (!APPLICATION.equals(current.loadBalancerType())) {
      networkListenerChanges(current, revised, recorded, steps);
      return;
    }
    if (!current.listenerPorts().get(0).equals(revised.listenerPorts().get(0))) {
      refusals.refuse("listenerPorts", "target_port_change", "the first port, " + current.listenerPorts().get(0)
          + ", is the one the pool's instances serve and stays first");
      return;
    }
    String balancerGroup = recorded.get(LB_SECURITY_GROUP_ID);
    for (int port : revised.listenerPorts()) {
      if (!current.listenerPorts().contains(port)) {
        steps.add(ProviderStep.each("open-listener", port, List.of(EC2_DESCRIBE_SECURITY_GROUPS,
            EC2_AUTHORIZE_SECURITY_GROUP_INGRESS, ELB_DESCRIBE_LISTENERS, ELB_CREATE_LISTENER), ctx -> {
              groups.allowCidr(balancerGroup, revised.vpcId(), port, "0.0.0.0/0", "listener " + port);
              return createListener(ctx, revised, port);
            }));
      }
    }
    for (int port : current.listenerPorts()) {
      if (!revised.listenerPorts().contains(port)) {
        steps.add(ProviderStep.each("close-listener", port, List.of(ELB_DESCRIBE_LISTENERS, ELB_DELETE_LISTENER,
            EC2_DESCRIBE_SECURITY_GROUPS, EC2_REVOKE_SECURITY_GROUP_INGRESS), ctx -> {
              deleteListener(ctx, port);
              groups.revokeCidr(balancerGroup, port, "0.0.0.0/0");
              return StepResult.done();
            }));
      }
    }
  }

  /**
   * A network load balancer's port added gets what its create gave each port: the port opened to clients on the
   * balancer and to the balancer on the instances, a TCP target group attached to the pool's group, and a listener
   * forwarding to it; a port dropped loses them in the reverse order. The target groups are recorded, the names
   * before one is made, so teardown finds each.
   */
  private void networkListenerChanges(VmPoolSpec current, VmPoolSpec revised, Outputs recorded, List<Step> steps) {
    String group = recorded.get(AUTO_SCALING_GROUP_NAME);
    String balancerGroup = recorded.get(LB_SECURITY_GROUP_ID);
    String instanceGroup = recorded.get(INSTANCE_SECURITY_GROUP_ID);
    for (int port : revised.listenerPorts()) {
      if (current.listenerPorts().contains(port)) {
        continue;
      }
      steps.add(ProviderStep.each("open-listener", port, List.of(EC2_DESCRIBE_SECURITY_GROUPS,
          EC2_AUTHORIZE_SECURITY_GROUP_INGRESS, ELB_DESCRIBE_TARGET_GROUPS, ELB_CREATE_TARGET_GROUP, ELB_ADD_TAGS,
          AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS, AUTOSCALING_ATTACH_LOAD_BALANCER_TARGET_GROUPS,
          ELB_DESCRIBE_LISTENERS, ELB_CREATE_LISTENER), ctx -> {
            groups.allowCidr(balancerGroup, revised.vpcId(), port, "0.0.0.0/0", "listener " + port);
            groups.allowGroup(instanceGroup, revised.vpcId(), port, balancerGroup, "the pool's load balancer");
            String name = shortName(ctx, "tg" + port);
            List<String> names = new ArrayList<>(List.of(ctx.outputs().require(TARGET_GROUP_NAMES).split(",")));
            if (!names.contains(name)) {
              names.add(name);
            }
            ctx.recordIntent(Map.ofEntries(TARGET_GROUP_NAMES.is(String.join(",", names))));
            TargetGroup target = findTargetGroup(name);
            if (target == null) {
              target = CALLS.call(ELB_CREATE_TARGET_GROUP, () -> elb.createTargetGroup(r -> r.name(name)
                  .protocol(ProtocolEnum.TCP).port(port).vpcId(revised.vpcId())
                  .tags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value())))).targetGroups().get(0);
            }
            String arn = target.targetGroupArn();
            AutoScalingGroup scaling = findGroup(group);
            if (scaling != null && !scaling.targetGroupARNs().contains(arn)) {
              CALLS.call(AUTOSCALING_ATTACH_LOAD_BALANCER_TARGET_GROUPS, () -> autoscaling
                  .attachLoadBalancerTargetGroups(r -> r.autoScalingGroupName(group).targetGroupARNs(arn)));
            }
            String balancer = ctx.outputs().require(LOAD_BALANCER_ARN);
            boolean listening = CALLS.call(ELB_DESCRIBE_LISTENERS, () -> elb.describeListeners(r -> r
                .loadBalancerArn(balancer))).listeners().stream().anyMatch(l -> l.port() == port);
            if (!listening) {
              CALLS.call(ELB_CREATE_LISTENER, () -> elb.createListener(r -> r.loadBalancerArn(balancer).port(port)
                  .protocol(ProtocolEnum.TCP).defaultActions(a -> a.type(ActionTypeEnum.FORWARD)
                      .targetGroupArn(arn))));
            }
            List<String> arns = new ArrayList<>(List.of(ctx.outputs().require(TARGET_GROUP_ARNS).split(",")));
            if (!arns.contains(arn)) {
              arns.add(arn);
            }
            return StepResult.done(TARGET_GROUP_NAMES.is(String.join(",", names)),
                TARGET_GROUP_ARNS.is(String.join(",", arns)));
          }));
    }
    for (int port : current.listenerPorts()) {
      if (revised.listenerPorts().contains(port)) {
        continue;
      }
      steps.add(ProviderStep.each("close-listener", port, List.of(ELB_DESCRIBE_LISTENERS, ELB_DELETE_LISTENER,
          AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS, AUTOSCALING_DETACH_LOAD_BALANCER_TARGET_GROUPS,
          ELB_DESCRIBE_TARGET_GROUPS, ELB_DELETE_TARGET_GROUP, EC2_DESCRIBE_SECURITY_GROUPS,
          EC2_REVOKE_SECURITY_GROUP_INGRESS), ctx -> {
            deleteListener(ctx, port);
            String name = shortName(ctx, "tg" + port);
            TargetGroup target = findTargetGroup(name);
            if (target != null) {
              AutoScalingGroup scaling = findGroup(group);
              if (scaling != null && scaling.targetGroupARNs().contains(target.targetGroupArn())) {
                CALLS.call(AUTOSCALING_DETACH_LOAD_BALANCER_TARGET_GROUPS, () -> autoscaling
                    .detachLoadBalancerTargetGroups(r -> r.autoScalingGroupName(group)
                        .targetGroupARNs(target.targetGroupArn())));
              }
              deleteTargetGroup(name);
            }
            groups.revokeCidr(balancerGroup, port, "0.0.0.0/0");
            groups.revokeGroup(instanceGroup, port, balancerGroup);
            List<String> names = new ArrayList<>(List.of(ctx.outputs().require(TARGET_GROUP_NAMES).split(",")));
            names.remove(name);
            List<String> arns = new ArrayList<>(List.of(ctx.outputs().require(TARGET_GROUP_ARNS).split(",")));
            if (target != null) {
              arns.remove(target.targetGroupArn());
            }
            return StepResult.done(TARGET_GROUP_NAMES.is(String.join(",", names)),
                TARGET_GROUP_ARNS.is(String.join(",", arns)));
          }));
    }
  }

  /** Deletes the load balancer's listener on {@code port}, if it has one. */
  private void deleteListener(StepContext ctx, int port) {
    String balancer = ctx.outputs().require(LOAD_BALANCER_ARN);
    CALLS.call(ELB_DESCRIBE_LISTENERS, () -> elb.describeListeners(r -> r.loadBalancerArn(balancer))).listeners()
        .stream().filter(l -> l.port() == port).forEach(l -> CALLS.deleteIfExists(ELB_DELETE_LISTENER,
            () -> elb.deleteListener(r -> r.listenerArn(l.listenerArn()))));
  }

  /** Makes the template's latest version launch the revised type, unless it does already. */
  private StepResult newTemplateVersion(StepContext ctx, String template, VmPoolSpec revised) {
    var latest = CALLS.call(EC2_DESCRIBE_LAUNCH_TEMPLATE_VERSIONS, () -> ec2.describeLaunchTemplateVersions(r -> r
        .launchTemplateId(template).versions("$Latest"))).launchTemplateVersions();
    if (latest.isEmpty() || !revised.instanceType().equals(latest.get(0).launchTemplateData().instanceTypeAsString())) {
      CALLS.call(EC2_CREATE_LAUNCH_TEMPLATE_VERSION, () -> ec2.createLaunchTemplateVersion(r -> r
          .launchTemplateId(template).sourceVersion("$Latest").clientToken(ctx.clientToken("lt-" + revised
              .instanceType())).launchTemplateData(d -> d.instanceType(revised.instanceType()))));
      ctx.log("launch template " + template + " now launches " + revised.instanceType());
    }
    return StepResult.done();
  }

  /**
   * One turn of the rolling replacement: waits while an instance is on its way in or out; otherwise terminates one
   * instance of another type (the group replaces it from the template) and waits, or is done when none is left.
   */
  private StepResult replaceInstances(StepContext ctx, String name, VmPoolSpec revised) {
    AutoScalingGroup group = findGroup(name);
    if (group == null) {
      return StepResult.fail(Failure.system("resource_missing", "Auto Scaling group " + name + " is gone"));
    }
    var instances = group.instances();
    if (instances.size() < group.desiredCapacity()
        || instances.stream().anyMatch(i -> !"InService".equals(i.lifecycleStateAsString()))) {
      return poll.waitFor(ctx, "Auto Scaling group " + name + " is replacing an instance");
    }
    var stale = instances.stream().filter(i -> !revised.instanceType().equals(i.instanceType())).findFirst();
    if (stale.isEmpty()) {
      return StepResult.done();
    }
    CALLS.call(AUTOSCALING_TERMINATE_INSTANCE_IN_AUTO_SCALING_GROUP, () -> autoscaling
        .terminateInstanceInAutoScalingGroup(r -> r.instanceId(stale.get().instanceId())
            .shouldDecrementDesiredCapacity(false)));
    ctx.log("replacing instance " + stale.get().instanceId() + " (" + stale.get().instanceType() + ") with one of "
        + revised.instanceType());
    return poll.waitFor(ctx, "Auto Scaling group " + name + " is replacing instance " + stale.get().instanceId());
  }

  /** The Auto Scaling group's min and max read back; the group gone is missing. */
  @Override
  public CloudRead<List<Drift>> observe(VmPoolSpec spec, Outputs recorded) {
    if (!recorded.has(AUTO_SCALING_GROUP_NAME)) {
      return null;
    }
    String name = recorded.get(AUTO_SCALING_GROUP_NAME);
    boolean balanced = spec.createLoadBalancer() && recorded.has(LOAD_BALANCER_NAME);
    List<String> reads = balanced ? List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS, ELB_DESCRIBE_LOAD_BALANCERS,
        ELB_DESCRIBE_LISTENERS, ELB_DESCRIBE_TARGET_GROUPS, EC2_DESCRIBE_SECURITY_GROUPS)
        : List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS);
    return ProviderRead.of(reads, () -> {
      DriftFindings found = new DriftFindings();
      AutoScalingGroup group = findGroup(name);
      if (group == null) {
        found.missing("auto scaling group " + name);
      } else {
        found.compare("auto scaling group " + name, "min", spec.min(), group.minSize())
            .compare("auto scaling group " + name, "max", spec.max(), group.maxSize());
      }
      if (balanced) {
        observeLoadBalancer(spec, recorded, found);
      }
      return found.list();
    });
  }

  /** The drift field of a listener the pool's load balancer lacks. */
  static final String LISTENER = "listener";
  /** The drift field of a rule a security group the pool made lacks. */
  static final String INGRESS = "securityGroup.ingress";

  /**
   * Every part of the pool's load balancer as its create made it: the balancer, a listener on each port, each
   * target group, the balancer's group open to the world on each listener port and the instances' group open to
   * the balancer's on each port its targets use.
   */
  private void observeLoadBalancer(VmPoolSpec spec, Outputs recorded, DriftFindings found) {
    String lbName = recorded.get(LOAD_BALANCER_NAME);
    LoadBalancer balancer = findLoadBalancer(lbName);
    if (balancer == null) {
      found.missing("load balancer " + lbName);
    } else {
      java.util.Set<Integer> listening = new java.util.TreeSet<>();
      CALLS.call(ELB_DESCRIBE_LISTENERS, () -> elb.describeListeners(r -> r.loadBalancerArn(
          balancer.loadBalancerArn()))).listeners().forEach(l -> listening.add(l.port()));
      for (int port : spec.listenerPorts()) {
        if (!listening.contains(port)) {
          found.absent("load balancer " + lbName, LISTENER, "port " + port);
        }
      }
    }
    if (recorded.has(TARGET_GROUP_NAMES)) {
      for (String target : recorded.get(TARGET_GROUP_NAMES).split(",")) {
        if (findTargetGroup(target) == null) {
          found.missing("target group " + target);
        }
      }
    }
    String balancerGroup = recorded.get(LB_SECURITY_GROUP_ID);
    String instanceGroup = recorded.get(INSTANCE_SECURITY_GROUP_ID);
    SecurityGroup lbGroup = balancerGroup == null ? null : groups.byId(balancerGroup);
    if (balancerGroup != null && lbGroup == null) {
      found.missing("security group " + balancerGroup);
    } else if (lbGroup != null) {
      for (int port : spec.listenerPorts()) {
        if (!groups.opens(lbGroup, port, "0.0.0.0/0")) {
          found.absent("security group " + balancerGroup, INGRESS, "tcp/" + port + " from 0.0.0.0/0");
        }
      }
    }
    SecurityGroup vmGroup = instanceGroup == null ? null : groups.byId(instanceGroup);
    if (instanceGroup != null && vmGroup == null) {
      found.missing("security group " + instanceGroup);
    } else if (vmGroup != null && balancerGroup != null) {
      for (int port : targetPorts(spec)) {
        if (!groups.admits(vmGroup, port, balancerGroup)) {
          found.absent("security group " + instanceGroup, INGRESS, "tcp/" + port + " from " + balancerGroup);
        }
      }
    }
  }

  /** The ports the pool's instances serve the load balancer on: an application one's first, a network one's all. */
  private static List<Integer> targetPorts(VmPoolSpec spec) {
    return APPLICATION.equals(spec.loadBalancerType()) ? List.of(spec.listenerPorts().get(0)) : spec.listenerPorts();
  }

  /**
   * The group's min and max set back (UpdateAutoScalingGroup, the desired count kept within them), and the load
   * balancer's listeners and its and the instances' group rules made again where one is gone.
   */
  @Override
  public Revision reconcile(VmPoolSpec spec, Outputs recorded) {
    if (!recorded.has(AUTO_SCALING_GROUP_NAME)) {
      return Revision.none();
    }
    String name = recorded.get(AUTO_SCALING_GROUP_NAME);
    List<Step> steps = new ArrayList<>(List.of(ProviderStep.of("resize-group",
        List.of(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS, AUTOSCALING_UPDATE_AUTO_SCALING_GROUP),
        ctx -> resizeGroup(ctx, name, spec))));
    if (!spec.createLoadBalancer() || !recorded.has(LOAD_BALANCER_ARN)) {
      return Revision.of(steps).inPlace("min", "max");
    }
    String balancerGroup = recorded.get(LB_SECURITY_GROUP_ID);
    String instanceGroup = recorded.get(INSTANCE_SECURITY_GROUP_ID);
    steps.add(ProviderStep.of("restore-load-balancer", List.of(EC2_DESCRIBE_SECURITY_GROUPS,
        EC2_AUTHORIZE_SECURITY_GROUP_INGRESS, ELB_DESCRIBE_LISTENERS, ELB_CREATE_LISTENER), ctx -> {
          // each call below looks first and makes only what is missing, as create's do
          for (int port : spec.listenerPorts()) {
            groups.allowCidr(balancerGroup, spec.vpcId(), port, "0.0.0.0/0", "listener " + port);
          }
          for (int port : targetPorts(spec)) {
            groups.allowGroup(instanceGroup, spec.vpcId(), port, balancerGroup, "the pool's load balancer");
          }
          for (int port : spec.listenerPorts()) {
            createListener(ctx, spec, port);
          }
          return StepResult.done();
        }));
    return Revision.of(steps).inPlace("min", "max", LISTENER, INGRESS);
  }

  private StepResult resizeGroup(StepContext ctx, String name, VmPoolSpec revised) {
    AutoScalingGroup group = findGroup(name);
    if (group == null) {
      return StepResult.fail(Failure.system("resource_missing", "Auto Scaling group " + name + " is gone"));
    }
    int desired = Math.max(revised.min(), Math.min(revised.max(), group.desiredCapacity()));
    if (!revised.min().equals(group.minSize()) || !revised.max().equals(group.maxSize())
        || group.desiredCapacity() != desired) {
      CALLS.call(AUTOSCALING_UPDATE_AUTO_SCALING_GROUP, () -> autoscaling.updateAutoScalingGroup(r -> r
          .autoScalingGroupName(name).minSize(revised.min()).maxSize(revised.max()).desiredCapacity(desired)));
    }
    return StepResult.done();
  }

  private StepResult deleteGroup(StepContext ctx, String name) {
    AutoScalingGroup group = findGroup(name);
    if (group == null) {
      return StepResult.done();
    }
    if (group.status() == null || !group.status().startsWith("Delete")) {
      CALLS.call(AUTOSCALING_DELETE_AUTO_SCALING_GROUP,
          () -> autoscaling.deleteAutoScalingGroup(r -> r.autoScalingGroupName(name).forceDelete(true)));
    }
    return findGroup(name) == null ? StepResult.done()
        : poll.waitFor(ctx, "Auto Scaling group " + name + " is terminating its instances");
  }

  private StepResult deleteLoadBalancer(StepContext ctx, String name) {
    LoadBalancer balancer = findLoadBalancer(name);
    if (balancer == null) {
      return StepResult.done();
    }
    for (Listener listener : CALLS.call(ELB_DESCRIBE_LISTENERS,
        () -> elb.describeListeners(r -> r.loadBalancerArn(balancer.loadBalancerArn()))).listeners()) {
      CALLS.call(ELB_DELETE_LISTENER,
          () -> elb.deleteListener(r -> r.listenerArn(listener.listenerArn())));
    }
    CALLS.call(ELB_DELETE_LOAD_BALANCER,
        () -> elb.deleteLoadBalancer(r -> r.loadBalancerArn(balancer.loadBalancerArn())));
    return findLoadBalancer(name) == null ? StepResult.done()
        : poll.waitFor(ctx, "load balancer " + name + " is being deleted");
  }

  private StepResult deleteTargetGroup(String name) {
    TargetGroup group = findTargetGroup(name);
    if (group != null) {
      CALLS.call(ELB_DELETE_TARGET_GROUP,
          () -> elb.deleteTargetGroup(r -> r.targetGroupArn(group.targetGroupArn())));
    }
    return StepResult.done();
  }

  private StepResult deleteLaunchTemplate(String name) {
    if (findLaunchTemplate(name) != null) {
      CALLS.call(EC2_DELETE_LAUNCH_TEMPLATE, () -> ec2.deleteLaunchTemplate(r -> r.launchTemplateName(name)));
    }
    return StepResult.done();
  }

  private String findLaunchTemplate(String name) {
    var found = CALLS.findOrNull(EC2_DESCRIBE_LAUNCH_TEMPLATES,
        () -> ec2.describeLaunchTemplates(r -> r.launchTemplateNames(name)));
    return found == null || found.launchTemplates().isEmpty() ? null : found.launchTemplates().get(0).launchTemplateId();
  }

  private TargetGroup findTargetGroup(String name) {
    var found = CALLS.findOrNull(ELB_DESCRIBE_TARGET_GROUPS, () -> elb.describeTargetGroups(r -> r.names(name)));
    return found == null || found.targetGroups().isEmpty() ? null : found.targetGroups().get(0);
  }

  private LoadBalancer findLoadBalancer(String name) {
    var found = CALLS.findOrNull(ELB_DESCRIBE_LOAD_BALANCERS, () -> elb.describeLoadBalancers(r -> r.names(name)));
    return found == null || found.loadBalancers().isEmpty() ? null : found.loadBalancers().get(0);
  }

  private AutoScalingGroup findGroup(String name) {
    List<AutoScalingGroup> groups = CALLS.call(AUTOSCALING_DESCRIBE_AUTO_SCALING_GROUPS,
        () -> autoscaling.describeAutoScalingGroups(r -> r.autoScalingGroupNames(name))).autoScalingGroups();
    return groups.isEmpty() ? null : groups.get(0);
  }
}
