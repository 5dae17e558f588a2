package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;
import static dev.zop.provisioner.aws.AwsTags.ec2Filters;
import static dev.zop.provisioner.aws.AwsTags.ec2TagSpec;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.spi.Adoption;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
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
import software.amazon.awssdk.services.ec2.model.Vpc;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnection;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnectionStateReasonCode;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.route53.model.HostedZone;
import software.amazon.awssdk.services.route53.model.TagResourceType;

/**
 * A VPC with subnets, the gateways and route tables that let it carry traffic ({@link NetworkRouting}) and, when
 * asked, a private Route 53 zone and a peering connection (requested, accepted, routed on both sides). Every
 * resource is tagged with the job and its part, and found again by those tags, so a step re-run after a crash
 * adopts what its first run made. Teardown deletes in dependency order: the peer's routes to us, the peering,
 * the zone, route tables, NAT gateways and their addresses, the internet gateway, subnets, the VPC.
 */
final class NetworkDriver implements ResourceDriver<NetworkSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey.PerPart<String> PART = OutputKey.textPerPart("%s.part");
  static final OutputKey.PerPart<String> PART_ID = OutputKey.textPerPart("%s.id");
  static final OutputKey<String> VPC_PART = PART.of("vpc");
  static final OutputKey<String> VPC_ID = OutputKey.text("vpcId");
  static final OutputKey<String> IGW_PART = PART.of("igw");
  static final OutputKey<String> INTERNET_GATEWAY_ID = OutputKey.text("internetGatewayId");
  static final OutputKey<String> PUBLIC_SUBNET_IDS = OutputKey.text("publicSubnetIDs");
  static final OutputKey<String> PRIVATE_SUBNET_IDS = OutputKey.text("privateSubnetIDs");
  static final OutputKey<String> DNS_ZONE_NAME = OutputKey.text("dnsZone.name");
  static final OutputKey<String> DNS_ZONE_ID = OutputKey.text("dnsZoneId");
  static final OutputKey<String> PEERING_PART = PART.of("peering");
  static final OutputKey<String> PEERING_ID = OutputKey.text("peeringId");
  static final OutputKey<String> PEER_ROUTE_TABLE_IDS = OutputKey.text("peerRouteTableIDs");


  private final Ec2Client ec2;
  private final Route53Client route53;
  private final String region;

  /** How long to wait before looking again at a resource still being created or deleted. */
  private final StatusPoll poll;
  private final NetworkRouting routing;

  NetworkDriver(Ec2Client ec2, Route53Client route53, String region, Duration poll) {
    this.ec2 = ec2;
    this.route53 = route53;
    this.region = region;
    this.poll = StatusPoll.every(poll);
    this.routing = new NetworkRouting(ec2, this.poll);
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
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(NetworkDriver.class);
  }

  @Override
  public List<Step> create(NetworkSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("create-vpc", List.of(EC2_DESCRIBE_VPCS, EC2_CREATE_VPC, EC2_CREATE_TAGS),
        ctx -> createVpc(ctx, spec)).intending(ctx -> Map.ofEntries(VPC_PART.is("vpc"))));
    steps.add(ProviderStep.of("await-vpc", List.of(EC2_DESCRIBE_VPCS), this::awaitVpc));
    for (Subnet subnet : spec.subnets()) {
      steps.add(ProviderStep.each("create-subnet", subnet.name(),
          List.of(EC2_DESCRIBE_SUBNETS, EC2_CREATE_SUBNET, EC2_CREATE_TAGS), ctx -> createSubnet(ctx, spec, subnet))
          .intending(ctx -> Map.ofEntries(PART.of(subnetPart(subnet)).is(subnetPart(subnet)))));
    }
    steps.addAll(routing.createSteps(spec));
    if (spec.dnsZone() != null) {
      steps.add(ProviderStep.of("create-dns-zone", List.of(ROUTE53_LIST_HOSTED_ZONES_BY_NAME,
          ROUTE53_LIST_TAGS_FOR_RESOURCE, ROUTE53_CREATE_HOSTED_ZONE, ROUTE53_CHANGE_TAGS_FOR_RESOURCE,
          EC2_DESCRIBE_VPCS, EC2_ASSOCIATE_VPC_WITH_HOSTED_ZONE), ctx -> createZone(ctx, spec))
          .intending(ctx -> Map.ofEntries(DNS_ZONE_NAME.is(spec.dnsZone()))));
    }
    if (spec.peerVpcId() != null) {
      steps.add(ProviderStep.of("request-peering",
          List.of(EC2_DESCRIBE_VPC_PEERING_CONNECTIONS, EC2_CREATE_VPC_PEERING_CONNECTION, EC2_CREATE_TAGS),
          ctx -> requestPeering(ctx, spec)).intending(ctx -> Map.ofEntries(PEERING_PART.is("peering"))));
      steps.add(ProviderStep.of("accept-peering",
          List.of(EC2_DESCRIBE_VPC_PEERING_CONNECTIONS, EC2_ACCEPT_VPC_PEERING_CONNECTION), this::acceptPeering));
      steps.add(routing.routePeeringStep(spec));
    }
    return steps;
  }

  /**
   * A network gains subnets, and a DNS zone where it had none, by the steps its create runs for them; what it has
   * stays as it is ({@link RevisionRules#networkGrows}).
   */
  @Override
  public Revision revise(NetworkSpec current, NetworkSpec revised, Outputs recorded) {
    return RevisionRules.networkGrows(current, revised, create(revised), "create-dns-zone");
  }

  @Override
  public List<Step> teardown(NetworkSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>(routing.unroutePeeringSteps(spec, recorded));
    if (recorded.has(PEERING_PART)) {
      steps.add(ProviderStep.of("delete-peering",
          List.of(EC2_DESCRIBE_VPC_PEERING_CONNECTIONS, EC2_DELETE_VPC_PEERING_CONNECTION), this::deletePeering));
    }
    if (recorded.has(DNS_ZONE_NAME)) {
      steps.add(ProviderStep.of("delete-dns-zone", List.of(ROUTE53_LIST_HOSTED_ZONES_BY_NAME,
          ROUTE53_LIST_TAGS_FOR_RESOURCE, ROUTE53_DELETE_HOSTED_ZONE), ctx -> deleteZone(ctx, spec.dnsZone())));
    }
    steps.addAll(routing.teardownSteps(spec, recorded));
    for (int i = spec.subnets().size() - 1; i >= 0; i--) {
      Subnet subnet = spec.subnets().get(i);
      if (recorded.has(PART.of(subnetPart(subnet)))) {
        steps.add(ProviderStep.each("delete-subnet", subnet.name(), List.of(EC2_DESCRIBE_SUBNETS, EC2_DELETE_SUBNET),
            ctx -> deleteSubnet(ctx, subnet)));
      }
    }
    if (recorded.has(VPC_PART)) {
      steps.add(ProviderStep.of("delete-vpc", List.of(EC2_DESCRIBE_VPCS, EC2_DELETE_VPC, EC2_DESCRIBE_SUBNETS,
          EC2_DESCRIBE_NETWORK_INTERFACES, EC2_DESCRIBE_INTERNET_GATEWAYS, EC2_DESCRIBE_SECURITY_GROUPS),
          this::deleteVpc));
    }
    return steps;
  }

  /** The VPC and each subnet the job recorded, read back by id: gone, or with another range than the spec's. */
  @Override
  public CloudRead<List<Drift>> observe(NetworkSpec spec, Outputs recorded) {
    return ProviderRead.of(List.of(EC2_DESCRIBE_VPCS, EC2_DESCRIBE_SUBNETS), () -> {
      DriftFindings found = new DriftFindings();
      String vpcId = recorded.get(VPC_ID);
      if (vpcId == null) {
        return found.list();
      }
      var answer = CALLS.findOrNull(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(vpcId)));
      Vpc vpc = answer == null ? null : answer.vpcs().stream().findFirst().orElse(null);
      if (vpc == null) {
        return found.missing("vpc " + vpcId).list();
      }
      found.compare("vpc " + vpcId, "cidr", spec.cidr(), vpc.cidrBlock());
      for (int i = 0; i < spec.subnets().size(); i++) {
        Subnet subnet = spec.subnets().get(i);
        String id = recorded.get(PART_ID.of(subnetPart(subnet)));
        if (id == null) {
          continue;
        }
        var described = CALLS.findOrNull(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.subnetIds(id)));
        var cloud = described == null ? null : described.subnets().stream().findFirst().orElse(null);
        if (cloud == null) {
          found.missing("subnet " + id);
        } else {
          found.compare("subnet " + id, "subnets[" + i + "].cidr", subnet.cidr(), cloud.cidrBlock());
        }
      }
      return found.list();
    });
  }

  /**
   * A VPC by its id, with its subnets: the config they have (the network named by the VPC's {@code Name} tag, each
   * subnet by its own, or by its id when it has none a config can take), and the owner its {@code zop:job} tag names.
   */
  @Override
  public CloudRead<Adoption<NetworkSpec>> findExisting(String externalId) {
    return ProviderRead.of(List.of(EC2_DESCRIBE_VPCS, EC2_DESCRIBE_SUBNETS), () -> {
      var answer = CALLS.findOrNull(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(externalId)));
      Vpc vpc = answer == null ? null : answer.vpcs().stream().findFirst().orElse(null);
      if (vpc == null) {
        return null;
      }
      Map<String, String> vpcTags = AwsTags.asMap(vpc.tags(), Tag::key, Tag::value);
      String name = nameOr(vpcTags.get(AwsTags.NAME), externalId);
      List<software.amazon.awssdk.services.ec2.model.Subnet> cloud = new ArrayList<>(CALLS.call(EC2_DESCRIBE_SUBNETS,
          () -> ec2.describeSubnets(r -> r.filters(Filter.builder().name("vpc-id").values(externalId).build())))
          .subnets());
      cloud.sort(java.util.Comparator.comparing(software.amazon.awssdk.services.ec2.model.Subnet::cidrBlock));
      List<Subnet> subnets = new ArrayList<>();
      Map<String, String> state = new java.util.LinkedHashMap<>();
      List<String> resources = new ArrayList<>(List.of("vpc " + externalId));
      state.put(VPC_PART.name(), "vpc");
      state.put(VPC_ID.name(), externalId);
      for (var subnet : cloud) {
        String tagged = AwsTags.asMap(subnet.tags(), Tag::key, Tag::value).get(AwsTags.NAME);
        String subnetName = nameOr(tagged != null && tagged.startsWith(name + "-")
            ? tagged.substring(name.length() + 1) : tagged, subnet.subnetId());
        Subnet declared = new Subnet(subnetName, subnet.cidrBlock(), subnet.availabilityZone(),
            Boolean.TRUE.equals(subnet.mapPublicIpOnLaunch()) ? Boolean.TRUE : null);
        subnets.add(declared);
        state.put(PART.of(subnetPart(declared)).name(), subnetPart(declared));
        state.put(PART_ID.of(subnetPart(declared)).name(), subnet.subnetId());
        resources.add("subnet " + subnet.subnetId());
      }
      NetworkSpec config = NetworkSpec.named(name).cidr(vpc.cidrBlock()).subnets(subnets).build();
      return new Adoption<>(config, state, resources, vpcTags.get(AwsTags.JOB));
    });
  }

  /**
   * The VPC found again by its id and each subnet by its range in it, each refused when another job's tag is on
   * it, tagged with this job and its part (teardown and revisions find them by those tags, as the ones a create
   * makes), and recorded.
   */
  @Override
  public List<Step> adopt(NetworkSpec found, String externalId) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("adopt-vpc", List.of(EC2_DESCRIBE_VPCS, EC2_CREATE_TAGS), ctx -> {
      var answer = CALLS.findOrNull(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(externalId)));
      Vpc vpc = answer == null ? null : answer.vpcs().stream().findFirst().orElse(null);
      if (vpc == null) {
        return StepResult.fail(Failure.userAction(FailureCodes.RESOURCE_MISSING, "VPC " + externalId
            + " is gone since the import was planned", "Plan the import again.", null));
      }
      return adopted(ctx, externalId, "VPC", vpc.tags(), "vpc", VPC_PART.is("vpc"), VPC_ID.is(externalId));
    }));
    for (Subnet subnet : found.subnets()) {
      String part = subnetPart(subnet);
      steps.add(ProviderStep.each("adopt-subnet", subnet.name(), List.of(EC2_DESCRIBE_SUBNETS, EC2_CREATE_TAGS),
          ctx -> {
            var match = CALLS.call(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.filters(
                Filter.builder().name("vpc-id").values(externalId).build(),
                Filter.builder().name("cidr-block").values(subnet.cidr()).build()))).subnets().stream()
                .findFirst().orElse(null);
            if (match == null) {
              return StepResult.fail(Failure.userAction(FailureCodes.RESOURCE_MISSING, "subnet " + subnet.cidr()
                  + " of VPC " + externalId + " is gone since the import was planned", "Plan the import again.",
                  null));
            }
            return adopted(ctx, match.subnetId(), "subnet", match.tags(), part, PART.of(part).is(part),
                PART_ID.of(part).is(match.subnetId()));
          }));
    }
    return steps;
  }

  @SafeVarargs
  private StepResult adopted(StepContext ctx, String id, String type, List<Tag> tags, String part,
      Map.Entry<String, String>... outputs) {
    Failure owned = AwsTags.OWNER.refuseOwned(AwsTags.asMap(tags, Tag::key, Tag::value), ctx, type, id);
    if (owned != null) {
      return StepResult.fail(owned);
    }
    if (!AwsTags.ec2PartOf(tags, ctx, part)) {
      List<Tag> ours = AwsTags.OWNER.of(ctx, part).entrySet().stream()
          .map(t -> Tag.builder().key(t.getKey()).value(t.getValue()).build()).toList();
      CALLS.run(EC2_CREATE_TAGS, () -> ec2.createTags(r -> r.resources(id).tags(ours)));
      ctx.log("adopted " + type + " " + id);
    }
    return StepResult.done(outputs);
  }

  /** {@code name} when a config can take it as a name, else {@code fallback}. */
  private static String nameOr(String name, String fallback) {
    return name != null && name.matches("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?") ? name : fallback;
  }

  @Override
  public String pricesAsOf() {
    return AwsPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(NetworkSpec spec, String priceRegion) {
    // VPCs, subnets, route tables, internet gateways and peering connections cost nothing by themselves;
    // NAT gateways and their public addresses are billed by the hour, traffic by use.
    List<CostComponent> costs = new ArrayList<>();
    int nats = NetworkRouting.natSlots(spec).size();
    if (nats > 0) {
      costs.add(AwsPrices.TABLE.hourly(priceRegion, "NAT gateway", "ec2:nat-gateway", nats));
      costs.add(AwsPrices.TABLE.hourly(priceRegion, "public IPv4 address of a NAT gateway", "ec2:public-ipv4", nats));
      costs.add(CostComponent.unknown("NAT gateway data processing", "GB", java.math.BigDecimal.ZERO,
          "billed per GB through the gateway, which the spec does not say"));
    }
    if (spec.dnsZone() != null) {
      costs.add(AwsPrices.TABLE.monthly(priceRegion, "Route 53 hosted zone " + spec.dnsZone(), "zone-month",
          "route53:hosted-zone", java.math.BigDecimal.ONE));
    }
    costs.add(CostComponent.unknown("data transfer", "GB", java.math.BigDecimal.ZERO,
        "billed by traffic, which the spec does not say"));
    return costs;
  }

  // ---- Route 53 ------------------------------------------------------------------------------------------

  /**
   * A private hosted zone for the VPC. Route 53 cannot tag at creation, so the zone is found again by the caller
   * reference its create carried as well as by its tag: a crash between the create and the tagging leaves a zone
   * this step adopts and then tags, never a second zone.
   */
  private StepResult createZone(StepContext ctx, NetworkSpec spec) {
    String zoneId = findZone(ctx, spec.dnsZone());
    if (zoneId == null) {
      ctx.recordIntent(Map.ofEntries(DNS_ZONE_NAME.is(spec.dnsZone())));
      String vpcId = ctx.outputs().require(VPC_ID);
      zoneId = CALLS.call(ROUTE53_CREATE_HOSTED_ZONE, () -> route53.createHostedZone(r -> r
          .name(spec.dnsZone()).callerReference(zoneCallerReference(ctx))
          .hostedZoneConfig(c -> c.privateZone(true).comment("zop job " + ctx.jobId()))
          .vpc(v -> v.vpcId(vpcId).vpcRegion(region)))).hostedZone().id().replace("/hostedzone/", "");
    }
    String id = zoneId;
    // tagging is idempotent: a resumed step makes sure an adopted zone carries its owner tag
    CALLS.call(ROUTE53_CHANGE_TAGS_FOR_RESOURCE, () -> route53.changeTagsForResource(r -> r
        .resourceType(TagResourceType.HOSTEDZONE).resourceId(id)
        .addTags(AwsTags.OWNER.of(ctx).entrySet().stream()
            .map(t -> software.amazon.awssdk.services.route53.model.Tag.builder().key(t.getKey()).value(t.getValue())
                .build()).toList())));
    return StepResult.done(DNS_ZONE_NAME.is(spec.dnsZone()), DNS_ZONE_ID.is(zoneId));
  }

  private StepResult deleteZone(StepContext ctx, String name) {
    String zoneId = findZone(ctx, name);
    if (zoneId != null) {
      CALLS.deleteIfExists(ROUTE53_DELETE_HOSTED_ZONE, () -> route53.deleteHostedZone(r -> r.id(zoneId)));
    }
    return StepResult.done();
  }

  private static String zoneCallerReference(StepContext ctx) {
    return ctx.clientToken("dns-zone");
  }

  /** The id of the zone with this name that the job created (by caller reference) or tagged, or null. */
  private String findZone(StepContext ctx, String name) {
    String fqdn = name.endsWith(".") ? name : name + ".";
    for (HostedZone zone : CALLS.call(ROUTE53_LIST_HOSTED_ZONES_BY_NAME,
        () -> route53.listHostedZonesByName(r -> r.dnsName(fqdn))).hostedZones()) {
      if (!zone.name().equals(fqdn)) {
        continue;
      }
      String id = zone.id().replace("/hostedzone/", "");
      if (zoneCallerReference(ctx).equals(zone.callerReference())) {
        return id;
      }
      boolean ours = AwsTags.ownedBy(CALLS.call(ROUTE53_LIST_TAGS_FOR_RESOURCE, () -> route53.listTagsForResource(r -> r
          .resourceType(TagResourceType.HOSTEDZONE).resourceId(id))).resourceTagSet().tags(),
          software.amazon.awssdk.services.route53.model.Tag::key,
          software.amazon.awssdk.services.route53.model.Tag::value, ctx);
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
      ctx.recordIntent(Map.ofEntries(VPC_PART.is("vpc")));
      existing = CALLS.call(EC2_CREATE_VPC, () -> ec2.createVpc(r -> r.cidrBlock(spec.cidr())
          .tagSpecifications(ec2TagSpec(ResourceType.VPC, ctx, "vpc", spec.name())))).vpc().vpcId();
    } else {
      ctx.log("adopted VPC " + existing);
    }
    return StepResult.done(VPC_PART.is("vpc"), VPC_ID.is(existing));
  }

  private StepResult awaitVpc(StepContext ctx) {
    String vpcId = ctx.outputs().require(VPC_ID);
    String state = CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(vpcId))).vpcs().get(0)
        .stateAsString();
    return "available".equals(state) ? StepResult.done() : poll.waitFor(ctx, "VPC " + vpcId + " is " + state);
  }

  private StepResult createSubnet(StepContext ctx, NetworkSpec spec, Subnet subnet) {
    String part = subnetPart(subnet);
    String existing = first(subnetsOf(ctx, part));
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(PART.of(part).is(part)));
      String vpcId = ctx.outputs().require(VPC_ID);
      existing = CALLS.call(EC2_CREATE_SUBNET, () -> ec2.createSubnet(r -> {
        r.vpcId(vpcId).cidrBlock(subnet.cidr())
            .tagSpecifications(ec2TagSpec(ResourceType.SUBNET, ctx, part, spec.name() + "-" + subnet.name()));
        if (subnet.zone() != null) {
          r.availabilityZone(subnet.zone());
        }
      })).subnet().subnetId();
    }
    return StepResult.done(PART.of(part).is(part), PART_ID.of(part).is(existing));
  }

  private StepResult requestPeering(StepContext ctx, NetworkSpec spec) {
    VpcPeeringConnection existing = findPeering(ctx);
    String id;
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(PEERING_PART.is("peering")));
      String vpcId = ctx.outputs().require(VPC_ID);
      id = CALLS.call(EC2_CREATE_VPC_PEERING_CONNECTION, () -> ec2.createVpcPeeringConnection(r -> r
          .vpcId(vpcId).peerVpcId(spec.peerVpcId())
          .tagSpecifications(ec2TagSpec(ResourceType.VPC_PEERING_CONNECTION, ctx, "peering", spec.name() + "-peering"))))
          .vpcPeeringConnection().vpcPeeringConnectionId();
    } else {
      id = existing.vpcPeeringConnectionId();
    }
    return StepResult.done(PEERING_PART.is("peering"), PEERING_ID.is(id));
  }

  private StepResult acceptPeering(StepContext ctx) {
    VpcPeeringConnection peering = findPeering(ctx);
    if (peering == null) {
      return poll.waitFor(ctx, "the peering request is not visible yet");
    }
    VpcPeeringConnectionStateReasonCode state = peering.status().code();
    if (state == VpcPeeringConnectionStateReasonCode.PENDING_ACCEPTANCE) {
      CALLS.call(EC2_ACCEPT_VPC_PEERING_CONNECTION,
          () -> ec2.acceptVpcPeeringConnection(r -> r.vpcPeeringConnectionId(peering.vpcPeeringConnectionId())));
      return StepResult.done();
    }
    if (state == VpcPeeringConnectionStateReasonCode.ACTIVE) {
      return StepResult.done();
    }
    if (state == VpcPeeringConnectionStateReasonCode.INITIATING_REQUEST
        || state == VpcPeeringConnectionStateReasonCode.PROVISIONING) {
      return poll.waitFor(ctx, "peering " + peering.vpcPeeringConnectionId() + " is " + state);
    }
    return StepResult.fail(Failure.userAction("peering_" + state, "peering "
        + peering.vpcPeeringConnectionId() + " is " + state + ": " + peering.status().message(),
        "Check that the peer VPC exists in this account and region and its CIDR does not overlap, then retry.",
        "https://console.aws.amazon.com/vpc/home#PeeringConnections:"));
  }

  // ---- teardown ----------------------------------------------------------------------------------------

  // Teardown deletes everything tagged with the part, should an earlier attempt have made more than one.

  private StepResult deletePeering(StepContext ctx) {
    for (VpcPeeringConnection peering : livePeerings(ctx)) {
      CALLS.deleteIfExists(EC2_DELETE_VPC_PEERING_CONNECTION,
          () -> ec2.deleteVpcPeeringConnection(r -> r.vpcPeeringConnectionId(peering.vpcPeeringConnectionId())));
    }
    return StepResult.done();
  }

  private StepResult deleteSubnet(StepContext ctx, Subnet subnet) {
    for (String id : subnetsOf(ctx, subnetPart(subnet))) {
      CALLS.deleteIfExists(EC2_DELETE_SUBNET, () -> ec2.deleteSubnet(r -> r.subnetId(id)));
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
        CALLS.deleteIfExists(EC2_DELETE_VPC, () -> ec2.deleteVpc(r -> r.vpcId(id)));
      } catch (CloudCallException e) {
        if (!AwsErrors.code(e).equals("DependencyViolation")) {
          throw e;
        }
        return StepResult.fail(Failure.transientFailure(FailureCodes.DEPENDENCY_VIOLATION,
            "VPC " + id + " is still used by " + String.join(", ", blockersOf(id))));
      }
    }
    return StepResult.done();
  }

  /** What keeps a VPC from being deleted: subnets, network interfaces, gateways, non-default security groups. */
  private List<String> blockersOf(String vpcId) {
    List<Filter> inVpc = List.of(Filter.builder().name("vpc-id").values(vpcId).build());
    List<String> blockers = new ArrayList<>();
    CALLS.call(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.filters(inVpc))).subnets()
        .forEach(s -> blockers.add("subnet " + s.subnetId()));
    CALLS.call(EC2_DESCRIBE_NETWORK_INTERFACES, () -> ec2.describeNetworkInterfaces(r -> r.filters(inVpc)))
        .networkInterfaces().forEach(n -> blockers.add("network interface " + n.networkInterfaceId()
            + (n.description() == null || n.description().isBlank() ? "" : " (" + n.description() + ")")));
    CALLS.call(EC2_DESCRIBE_INTERNET_GATEWAYS, () -> ec2.describeInternetGateways(r -> r.filters(
        Filter.builder().name("attachment.vpc-id").values(vpcId).build()))).internetGateways()
        .forEach(g -> blockers.add("internet gateway " + g.internetGatewayId()));
    CALLS.call(EC2_DESCRIBE_SECURITY_GROUPS, () -> ec2.describeSecurityGroups(r -> r.filters(inVpc)))
        .securityGroups().stream().filter(g -> !"default".equals(g.groupName()))
        .forEach(g -> blockers.add("security group " + g.groupId()));
    return blockers.isEmpty() ? List.of("resources AWS did not name") : blockers;
  }

  // ---- lookups -----------------------------------------------------------------------------------------

  private String findVpc(StepContext ctx) {
    return first(vpcsOf(ctx));
  }

  private List<String> vpcsOf(StepContext ctx) {
    return CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.filters(ec2Filters(ctx, "vpc"))).vpcs()
        .stream().filter(v -> AwsTags.ec2PartOf(v.tags(), ctx, "vpc")).map(v -> v.vpcId()).toList());
  }

  private List<String> subnetsOf(StepContext ctx, String part) {
    return CALLS.call(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.filters(ec2Filters(ctx, part)))
        .subnets().stream().filter(s -> AwsTags.ec2PartOf(s.tags(), ctx, part)).map(s -> s.subnetId()).toList());
  }

  private VpcPeeringConnection findPeering(StepContext ctx) {
    List<VpcPeeringConnection> found = livePeerings(ctx);
    return found.isEmpty() ? null : found.get(0);
  }

  private List<VpcPeeringConnection> livePeerings(StepContext ctx) {
    return routing.livePeerings(ctx);
  }

  private static String first(List<String> ids) {
    return ids.isEmpty() ? null : ids.get(0);
  }

  static String subnetPart(Subnet subnet) {
    return "subnet." + subnet.name();
  }
}
