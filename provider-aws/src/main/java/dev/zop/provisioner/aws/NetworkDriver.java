package dev.zop.provisioner.aws;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnection;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnectionStateReasonCode;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.route53.model.HostedZone;
import software.amazon.awssdk.services.route53.model.NoSuchHostedZoneException;
import software.amazon.awssdk.services.route53.model.TagResourceType;

/**
 * A VPC with subnets and, when asked, a private Route 53 zone and a peering connection (requested and accepted). Every resource is tagged
 * with the job and its part, and found again by those tags, so a step re-run after a crash adopts what its
 * first run made. Teardown deletes in reverse: peering, subnets, VPC.
 */
final class NetworkDriver implements ResourceDriver<NetworkSpec> {

  private final Ec2Client ec2;
  private final Route53Client route53;
  private final String region;

  /** How long to wait before looking again at a resource still being created or deleted. */
  private final Duration poll;

  NetworkDriver(Ec2Client ec2, Route53Client route53, String region, Duration poll) {
    this.ec2 = ec2;
    this.route53 = route53;
    this.region = region;
    this.poll = poll;
  }

  @Override
  public Class<NetworkSpec> specType() {
    return NetworkSpec.class;
  }

  @Override
  public List<FieldError> validate(NetworkSpec spec) {
    return List.of();
  }

  @Override
  public List<Step> create(NetworkSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(new AwsStep("create-vpc", List.of("ec2:DescribeVpcs", "ec2:CreateVpc", "ec2:CreateTags"),
        ctx -> createVpc(ctx, spec)));
    steps.add(new AwsStep("await-vpc", List.of("ec2:DescribeVpcs"), this::awaitVpc));
    for (Subnet subnet : spec.subnets()) {
      steps.add(new AwsStep("create-subnet-" + subnet.name(),
          List.of("ec2:DescribeSubnets", "ec2:CreateSubnet", "ec2:CreateTags"), ctx -> createSubnet(ctx, spec, subnet)));
    }
    if (spec.dnsZone() != null) {
      steps.add(new AwsStep("create-dns-zone", List.of("route53:ListHostedZonesByName",
          "route53:ListTagsForResource", "route53:CreateHostedZone", "route53:ChangeTagsForResource",
          "ec2:DescribeVpcs", "ec2:AssociateVpcWithHostedZone"), ctx -> createZone(ctx, spec)));
    }
    if (spec.peerVpcId() != null) {
      steps.add(new AwsStep("request-peering",
          List.of("ec2:DescribeVpcPeeringConnections", "ec2:CreateVpcPeeringConnection", "ec2:CreateTags"),
          ctx -> requestPeering(ctx, spec)));
      steps.add(new AwsStep("accept-peering",
          List.of("ec2:DescribeVpcPeeringConnections", "ec2:AcceptVpcPeeringConnection"), this::acceptPeering));
    }
    return steps;
  }

  @Override
  public List<Step> teardown(NetworkSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (recorded.has("peering.part")) {
      steps.add(new AwsStep("delete-peering",
          List.of("ec2:DescribeVpcPeeringConnections", "ec2:DeleteVpcPeeringConnection"), this::deletePeering));
    }
    if (recorded.has("dnsZone.name")) {
      steps.add(new AwsStep("delete-dns-zone", List.of("route53:ListHostedZonesByName",
          "route53:ListTagsForResource", "route53:DeleteHostedZone"), ctx -> deleteZone(ctx, spec.dnsZone())));
    }
    for (int i = spec.subnets().size() - 1; i >= 0; i--) {
      Subnet subnet = spec.subnets().get(i);
      if (recorded.has(subnetPart(subnet) + ".part")) {
        steps.add(new AwsStep("delete-subnet-" + subnet.name(), List.of("ec2:DescribeSubnets", "ec2:DeleteSubnet"),
            ctx -> deleteSubnet(ctx, subnet)));
      }
    }
    if (recorded.has("vpc.part")) {
      steps.add(new AwsStep("delete-vpc", List.of("ec2:DescribeVpcs", "ec2:DeleteVpc", "ec2:DescribeSubnets",
          "ec2:DescribeNetworkInterfaces", "ec2:DescribeInternetGateways", "ec2:DescribeSecurityGroups"),
          this::deleteVpc));
    }
    return steps;
  }

  @Override
  public List<CostComponent> price(NetworkSpec spec, String priceRegion) {
    // VPCs, subnets and peering connections cost nothing by themselves; traffic is billed by use.
    List<CostComponent> costs = new ArrayList<>();
    if (spec.dnsZone() != null) {
      costs.add(AwsPrices.monthly(priceRegion, "Route 53 hosted zone " + spec.dnsZone(), "zone-month",
          "route53:hosted-zone", java.math.BigDecimal.ONE));
    }
    costs.add(CostComponent.unknown("data transfer", "GB", java.math.BigDecimal.ZERO,
        "billed by traffic, which the spec does not say"));
    return costs;
  }

  // ---- Route 53 ------------------------------------------------------------------------------------------

  /** A private hosted zone for the VPC; the caller reference makes a repeated create harmless. */
  private StepResult createZone(StepContext ctx, NetworkSpec spec) {
    String zoneId = findZone(ctx, spec.dnsZone());
    if (zoneId == null) {
      ctx.recordIntent(Map.of("dnsZone.name", spec.dnsZone()));
      String vpcId = ctx.outputs().require("vpcId");
      zoneId = AwsErrors.call("route53:CreateHostedZone", () -> route53.createHostedZone(r -> r
          .name(spec.dnsZone()).callerReference(ctx.clientToken("dns-zone"))
          .hostedZoneConfig(c -> c.privateZone(true).comment("zop job " + ctx.jobId()))
          .vpc(v -> v.vpcId(vpcId).vpcRegion(region)))).hostedZone().id().replace("/hostedzone/", "");
      String id = zoneId;
      AwsErrors.call("route53:ChangeTagsForResource", () -> route53.changeTagsForResource(r -> r
          .resourceType(TagResourceType.HOSTEDZONE).resourceId(id)
          .addTags(t -> t.key(AwsTags.JOB).value(ctx.jobId().value()))));
    }
    return StepResult.done(Map.of("dnsZone.name", spec.dnsZone(), "dnsZoneId", zoneId));
  }

  private StepResult deleteZone(StepContext ctx, String name) {
    String zoneId = findZone(ctx, name);
    if (zoneId != null) {
      try {
        AwsErrors.call("route53:DeleteHostedZone", () -> route53.deleteHostedZone(r -> r.id(zoneId)));
      } catch (AwsActionException e) {
        if (!(e.getCause() instanceof NoSuchHostedZoneException)) {
          throw e;
        }
      }
    }
    return StepResult.done();
  }

  /** The id of the zone with this name that the job tagged, or null. */
  private String findZone(StepContext ctx, String name) {
    String fqdn = name.endsWith(".") ? name : name + ".";
    for (HostedZone zone : AwsErrors.call("route53:ListHostedZonesByName",
        () -> route53.listHostedZonesByName(r -> r.dnsName(fqdn))).hostedZones()) {
      if (!zone.name().equals(fqdn)) {
        continue;
      }
      String id = zone.id().replace("/hostedzone/", "");
      boolean ours = AwsErrors.call("route53:ListTagsForResource", () -> route53.listTagsForResource(r -> r
          .resourceType(TagResourceType.HOSTEDZONE).resourceId(id))).resourceTagSet().tags().stream()
          .anyMatch(t -> t.key().equals(AwsTags.JOB) && t.value().equals(ctx.jobId().value()));
      if (ours) {
        return id;
      }
    }
    return null;
  }

  // ---- create ------------------------------------------------------------------------------------------

  private StepResult createVpc(StepContext ctx, NetworkSpec spec) {
    String existing = findVpc(ctx);
    if (existing == null) {
      ctx.recordIntent(Map.of("vpc.part", "vpc"));
      existing = AwsErrors.call("ec2:CreateVpc", () -> ec2.createVpc(r -> r.cidrBlock(spec.cidr())
          .tagSpecifications(tags(ResourceType.VPC, ctx, "vpc", spec.name())))).vpc().vpcId();
    } else {
      ctx.log("adopted VPC " + existing);
    }
    return StepResult.done(Map.of("vpc.part", "vpc", "vpcId", existing));
  }

  private StepResult awaitVpc(StepContext ctx) {
    String vpcId = ctx.outputs().require("vpcId");
    String state = AwsErrors.call("ec2:DescribeVpcs", () -> ec2.describeVpcs(r -> r.vpcIds(vpcId))).vpcs().get(0)
        .stateAsString();
    return "available".equals(state) ? StepResult.done() : StepResult.waitFor(poll, "VPC " + vpcId + " is " + state);
  }

  private StepResult createSubnet(StepContext ctx, NetworkSpec spec, Subnet subnet) {
    String part = subnetPart(subnet);
    String existing = first(subnetsOf(ctx, part));
    if (existing == null) {
      ctx.recordIntent(Map.of(part + ".part", part));
      String vpcId = ctx.outputs().require("vpcId");
      existing = AwsErrors.call("ec2:CreateSubnet", () -> ec2.createSubnet(r -> {
        r.vpcId(vpcId).cidrBlock(subnet.cidr())
            .tagSpecifications(tags(ResourceType.SUBNET, ctx, part, spec.name() + "-" + subnet.name()));
        if (subnet.zone() != null) {
          r.availabilityZone(subnet.zone());
        }
      })).subnet().subnetId();
    }
    return StepResult.done(Map.of(part + ".part", part, part + ".id", existing));
  }

  private StepResult requestPeering(StepContext ctx, NetworkSpec spec) {
    VpcPeeringConnection existing = findPeering(ctx);
    String id;
    if (existing == null) {
      ctx.recordIntent(Map.of("peering.part", "peering"));
      String vpcId = ctx.outputs().require("vpcId");
      id = AwsErrors.call("ec2:CreateVpcPeeringConnection", () -> ec2.createVpcPeeringConnection(r -> r
          .vpcId(vpcId).peerVpcId(spec.peerVpcId())
          .tagSpecifications(tags(ResourceType.VPC_PEERING_CONNECTION, ctx, "peering", spec.name() + "-peering"))))
          .vpcPeeringConnection().vpcPeeringConnectionId();
    } else {
      id = existing.vpcPeeringConnectionId();
    }
    return StepResult.done(Map.of("peering.part", "peering", "peeringId", id));
  }

  private StepResult acceptPeering(StepContext ctx) {
    VpcPeeringConnection peering = findPeering(ctx);
    if (peering == null) {
      return StepResult.waitFor(poll, "the peering request is not visible yet");
    }
    VpcPeeringConnectionStateReasonCode state = peering.status().code();
    if (state == VpcPeeringConnectionStateReasonCode.PENDING_ACCEPTANCE) {
      AwsErrors.call("ec2:AcceptVpcPeeringConnection",
          () -> ec2.acceptVpcPeeringConnection(r -> r.vpcPeeringConnectionId(peering.vpcPeeringConnectionId())));
      return StepResult.done();
    }
    if (state == VpcPeeringConnectionStateReasonCode.ACTIVE) {
      return StepResult.done();
    }
    if (state == VpcPeeringConnectionStateReasonCode.INITIATING_REQUEST
        || state == VpcPeeringConnectionStateReasonCode.PROVISIONING) {
      return StepResult.waitFor(poll, "peering " + peering.vpcPeeringConnectionId() + " is " + state);
    }
    return StepResult.fail(dev.zop.provisioner.Failure.userAction("peering_" + state, "peering "
        + peering.vpcPeeringConnectionId() + " is " + state + ": " + peering.status().message(),
        "Check that the peer VPC exists in this account and region and its CIDR does not overlap, then retry.",
        "https://console.aws.amazon.com/vpc/home#PeeringConnections:"));
  }

  // ---- teardown ----------------------------------------------------------------------------------------

  // Teardown deletes everything tagged with the part, should an earlier attempt have made more than one.

  private StepResult deletePeering(StepContext ctx) {
    for (VpcPeeringConnection peering : livePeerings(ctx)) {
      deleteTolerating("ec2:DeleteVpcPeeringConnection", "InvalidVpcPeeringConnectionID.NotFound",
          () -> ec2.deleteVpcPeeringConnection(r -> r.vpcPeeringConnectionId(peering.vpcPeeringConnectionId())));
    }
    return StepResult.done();
  }

  private StepResult deleteSubnet(StepContext ctx, Subnet subnet) {
    for (String id : subnetsOf(ctx, subnetPart(subnet))) {
      deleteTolerating("ec2:DeleteSubnet", "InvalidSubnetID.NotFound", () -> ec2.deleteSubnet(r -> r.subnetId(id)));
    }
    return StepResult.done();
  }

  /**
   * A VPC something else still uses cannot go: the failure is transient (the engine retries it with backoff
   * for a bounded time) and names what is still inside, so a person knows what to remove if it persists.
   */
  private StepResult deleteVpc(StepContext ctx) {
    for (String id : vpcsOf(ctx)) {
      try {
        deleteTolerating("ec2:DeleteVpc", "InvalidVpcID.NotFound", () -> ec2.deleteVpc(r -> r.vpcId(id)));
      } catch (AwsActionException e) {
        if (!AwsErrors.code(e).equals("DependencyViolation")) {
          throw e;
        }
        return StepResult.fail(dev.zop.provisioner.Failure.transientFailure("dependency_violation",
            "VPC " + id + " is still used by " + String.join(", ", blockersOf(id))));
      }
    }
    return StepResult.done();
  }

  /** What keeps a VPC from being deleted: subnets, network interfaces, gateways, non-default security groups. */
  private List<String> blockersOf(String vpcId) {
    List<Filter> inVpc = List.of(Filter.builder().name("vpc-id").values(vpcId).build());
    List<String> blockers = new ArrayList<>();
    AwsErrors.call("ec2:DescribeSubnets", () -> ec2.describeSubnets(r -> r.filters(inVpc))).subnets()
        .forEach(s -> blockers.add("subnet " + s.subnetId()));
    AwsErrors.call("ec2:DescribeNetworkInterfaces", () -> ec2.describeNetworkInterfaces(r -> r.filters(inVpc)))
        .networkInterfaces().forEach(n -> blockers.add("network interface " + n.networkInterfaceId()
            + (n.description() == null || n.description().isBlank() ? "" : " (" + n.description() + ")")));
    AwsErrors.call("ec2:DescribeInternetGateways", () -> ec2.describeInternetGateways(r -> r.filters(
        Filter.builder().name("attachment.vpc-id").values(vpcId).build()))).internetGateways()
        .forEach(g -> blockers.add("internet gateway " + g.internetGatewayId()));
    AwsErrors.call("ec2:DescribeSecurityGroups", () -> ec2.describeSecurityGroups(r -> r.filters(inVpc)))
        .securityGroups().stream().filter(g -> !"default".equals(g.groupName()))
        .forEach(g -> blockers.add("security group " + g.groupId()));
    return blockers.isEmpty() ? List.of("resources AWS did not name") : blockers;
  }

  // ---- lookups -----------------------------------------------------------------------------------------

  private String findVpc(StepContext ctx) {
    return first(vpcsOf(ctx));
  }

  private List<String> vpcsOf(StepContext ctx) {
    return AwsErrors.call("ec2:DescribeVpcs", () -> ec2.describeVpcs(r -> r.filters(ours(ctx, "vpc"))).vpcs()
        .stream().map(v -> v.vpcId()).toList());
  }

  private List<String> subnetsOf(StepContext ctx, String part) {
    return AwsErrors.call("ec2:DescribeSubnets", () -> ec2.describeSubnets(r -> r.filters(ours(ctx, part)))
        .subnets().stream().map(s -> s.subnetId()).toList());
  }

  private VpcPeeringConnection findPeering(StepContext ctx) {
    List<VpcPeeringConnection> found = livePeerings(ctx);
    return found.isEmpty() ? null : found.get(0);
  }

  private List<VpcPeeringConnection> livePeerings(StepContext ctx) {
    return AwsErrors.call("ec2:DescribeVpcPeeringConnections",
        () -> ec2.describeVpcPeeringConnections(r -> r.filters(ours(ctx, "peering")))).vpcPeeringConnections()
        .stream().filter(p -> p.status().code() != VpcPeeringConnectionStateReasonCode.DELETED
            && p.status().code() != VpcPeeringConnectionStateReasonCode.REJECTED).toList();
  }

  private static String first(List<String> ids) {
    return ids.isEmpty() ? null : ids.get(0);
  }

  private static List<Filter> ours(StepContext ctx, String part) {
    return List.of(Filter.builder().name("tag:" + AwsTags.JOB).values(ctx.jobId().value()).build(),
        Filter.builder().name("tag:" + AwsTags.PART).values(part).build());
  }

  private static TagSpecification tags(ResourceType type, StepContext ctx, String part, String name) {
    return TagSpecification.builder().resourceType(type).tags(
        Tag.builder().key(AwsTags.JOB).value(ctx.jobId().value()).build(),
        Tag.builder().key(AwsTags.PART).value(part).build(),
        Tag.builder().key(AwsTags.NAME).value(name).build()).build();
  }

  private static String subnetPart(Subnet subnet) {
    return "subnet." + subnet.name();
  }

  /** Deleting something already gone is success. */
  private static void deleteTolerating(String action, String notFoundCode, Runnable delete) {
    try {
      AwsErrors.call(action, () -> {
        delete.run();
        return null;
      });
    } catch (AwsActionException e) {
      if (!AwsErrors.code(e).equals(notFoundCode)) {
        throw e;
      }
    }
  }
}
