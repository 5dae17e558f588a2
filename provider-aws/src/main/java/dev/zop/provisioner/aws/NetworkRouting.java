package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;
import static dev.zop.provisioner.aws.AwsTags.ec2Filters;
import static dev.zop.provisioner.aws.AwsTags.ec2PartOf;
import static dev.zop.provisioner.aws.AwsTags.ec2TagSpec;
import static dev.zop.provisioner.aws.NetworkDriver.IGW_PART;
import static dev.zop.provisioner.aws.NetworkDriver.INTERNET_GATEWAY_ID;
import static dev.zop.provisioner.aws.NetworkDriver.PART;
import static dev.zop.provisioner.aws.NetworkDriver.PART_ID;
import static dev.zop.provisioner.aws.NetworkDriver.PEER_ROUTE_TABLE_IDS;
import static dev.zop.provisioner.aws.NetworkDriver.PRIVATE_SUBNET_IDS;
import static dev.zop.provisioner.aws.NetworkDriver.PUBLIC_SUBNET_IDS;
import static dev.zop.provisioner.aws.NetworkDriver.VPC_ID;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Address;
import software.amazon.awssdk.services.ec2.model.DomainType;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.InternetGateway;
import software.amazon.awssdk.services.ec2.model.NatGateway;
import software.amazon.awssdk.services.ec2.model.NatGatewayState;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Route;
import software.amazon.awssdk.services.ec2.model.RouteTable;
import software.amazon.awssdk.services.ec2.model.RouteTableAssociation;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnection;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnectionStateReasonCode;

/**
 * What lets a network carry traffic: an internet gateway and a public route table for public subnets, NAT
 * gateways and private route tables for private ones, and routes across a peering on both sides.
 *
 * <p>Every piece is tagged with the job and its part and found again by those tags, and each run makes every
 * attribute right (a default route's target, a subnet's association, public addresses on launch) instead of
 * trusting that an earlier run finished: a step re-run after a crash adopts what exists and adds no second
 * gateway, table or route. Routes cannot be tagged; they are recognised by destination and target.
 */
final class NetworkRouting {

  static final String DEFAULT_ROUTE = "0.0.0.0/0";
  static final String PUBLIC_TABLE = "rt.public";
  static final String PEERING_ROUTES = "peeringRoutes";

  private static final Set<NatGatewayState> GONE = Set.of(NatGatewayState.DELETED, NatGatewayState.FAILED);

  private final Ec2Client ec2;
  private final StatusPoll poll;

  NetworkRouting(Ec2Client ec2, StatusPoll poll) {
    this.ec2 = ec2;
    this.poll = poll;
  }

  // ---- the layout, derived from the spec alone, so teardown plans exactly what create made ---------------

  /** A NAT gateway: its part, the public subnet it lives in, and the private route table that sends to it. */
  record NatSlot(String part, Subnet home, String tablePart, String zone) {
    String addressPart() {
      return "eip." + part;
    }
  }

  static List<NatSlot> natSlots(NetworkSpec spec) {
    return switch (spec.natGatewayMode()) {
      case NetworkSpec.NAT_SINGLE -> List.of(new NatSlot("nat", spec.publicSubnets().get(0), "rt.private", null));
      case NetworkSpec.NAT_PER_ZONE -> {
        Map<String, Subnet> byZone = new LinkedHashMap<>();
        spec.publicSubnets().forEach(s -> byZone.putIfAbsent(s.zone(), s));
        yield byZone.entrySet().stream().map(e -> new NatSlot("nat." + e.getKey(), e.getValue(),
            "rt.private." + e.getKey(), e.getKey())).toList();
      }
      default -> List.of();
    };
  }

  /** The private route tables: one per NAT gateway, or one with only the local route when there is none. */
  static List<String> privateTableParts(NetworkSpec spec) {
    if (spec.privateSubnets().isEmpty()) {
      return List.of();
    }
    List<NatSlot> nats = natSlots(spec);
    return nats.isEmpty() ? List.of("rt.private") : nats.stream().map(NatSlot::tablePart).toList();
  }

  static List<String> tableParts(NetworkSpec spec) {
    List<String> parts = new ArrayList<>();
    if (!spec.publicSubnets().isEmpty()) {
      parts.add(PUBLIC_TABLE);
    }
    parts.addAll(privateTableParts(spec));
    return parts;
  }

  // ---- steps -------------------------------------------------------------------------------------------

  List<Step> createSteps(NetworkSpec spec) {
    List<Step> steps = new ArrayList<>();
    if (!spec.publicSubnets().isEmpty()) {
      steps.add(ProviderStep.of("create-internet-gateway", List.of(EC2_DESCRIBE_INTERNET_GATEWAYS,
          EC2_CREATE_INTERNET_GATEWAY, EC2_ATTACH_INTERNET_GATEWAY, EC2_CREATE_TAGS),
          ctx -> createInternetGateway(ctx, spec)));
      steps.add(ProviderStep.of("route-public-subnets", List.of(EC2_DESCRIBE_ROUTE_TABLES, EC2_CREATE_ROUTE_TABLE,
          EC2_CREATE_TAGS, EC2_CREATE_ROUTE, EC2_REPLACE_ROUTE, EC2_ASSOCIATE_ROUTE_TABLE,
          EC2_REPLACE_ROUTE_TABLE_ASSOCIATION, EC2_MODIFY_SUBNET_ATTRIBUTE), ctx -> routePublicSubnets(ctx, spec)));
    }
    for (NatSlot slot : natSlots(spec)) {
      steps.add(ProviderStep.of("create-" + slot.part().replace('.', '-') + "-gateway", List.of(
          EC2_DESCRIBE_ADDRESSES, EC2_ALLOCATE_ADDRESS, EC2_DESCRIBE_NAT_GATEWAYS, EC2_CREATE_NAT_GATEWAY,
          EC2_CREATE_TAGS), ctx -> createNatGateway(ctx, spec, slot)));
    }
    if (!spec.privateSubnets().isEmpty()) {
      steps.add(ProviderStep.of("route-private-subnets", List.of(EC2_DESCRIBE_ROUTE_TABLES, EC2_CREATE_ROUTE_TABLE,
          EC2_CREATE_TAGS, EC2_CREATE_ROUTE, EC2_REPLACE_ROUTE, EC2_ASSOCIATE_ROUTE_TABLE,
          EC2_REPLACE_ROUTE_TABLE_ASSOCIATION, EC2_DESCRIBE_SUBNETS), ctx -> routePrivateSubnets(ctx, spec)));
    }
    return steps;
  }

  /** After the peering is active: routes to the peer from each of our tables, and back from each of the peer's. */
  Step routePeeringStep(NetworkSpec spec) {
    return ProviderStep.of("route-peering", List.of(EC2_DESCRIBE_VPC_PEERING_CONNECTIONS, EC2_DESCRIBE_VPCS,
        EC2_DESCRIBE_ROUTE_TABLES, EC2_CREATE_ROUTE, EC2_REPLACE_ROUTE), ctx -> routePeering(ctx, spec));
  }

  /** Before the peering goes: the peer's routes to us (ours go with our tables). */
  List<Step> unroutePeeringSteps(NetworkSpec spec, Outputs recorded) {
    if (!recorded.has(PART.of(PEERING_ROUTES))) {
      return List.of();
    }
    return List.of(ProviderStep.of("unroute-peering", List.of(EC2_DESCRIBE_VPC_PEERING_CONNECTIONS,
        EC2_DESCRIBE_ROUTE_TABLES, EC2_DELETE_ROUTE), ctx -> unroutePeering(ctx, spec)));
  }

  /** Before the subnets go, in dependency order: route tables, NAT gateways and their addresses, the gateway. */
  List<Step> teardownSteps(NetworkSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    List<String> tables = tableParts(spec).stream().filter(p -> recorded.has(PART.of(p))).toList();
    if (!tables.isEmpty()) {
      steps.add(ProviderStep.of("delete-route-tables", List.of(EC2_DESCRIBE_ROUTE_TABLES,
          EC2_DISASSOCIATE_ROUTE_TABLE, EC2_DELETE_ROUTE_TABLE), ctx -> deleteRouteTables(ctx, tables)));
    }
    for (NatSlot slot : natSlots(spec)) {
      if (recorded.has(PART.of(slot.part())) || recorded.has(PART.of(slot.addressPart()))) {
        steps.add(ProviderStep.of("delete-" + slot.part().replace('.', '-') + "-gateway", List.of(
            EC2_DESCRIBE_NAT_GATEWAYS, EC2_DELETE_NAT_GATEWAY, EC2_DESCRIBE_ADDRESSES, EC2_RELEASE_ADDRESS),
            ctx -> deleteNatGateway(ctx, slot)));
      }
    }
    if (recorded.has(IGW_PART)) {
      steps.add(ProviderStep.of("delete-internet-gateway", List.of(EC2_DESCRIBE_INTERNET_GATEWAYS,
          EC2_DETACH_INTERNET_GATEWAY, EC2_DELETE_INTERNET_GATEWAY), this::deleteInternetGateway));
    }
    return steps;
  }

  // ---- internet gateway --------------------------------------------------------------------------------

  private StepResult createInternetGateway(StepContext ctx, NetworkSpec spec) {
    String vpcId = ctx.outputs().require(VPC_ID);
    List<InternetGateway> found = internetGatewaysOf(ctx);
    InternetGateway gateway;
    if (found.isEmpty()) {
      ctx.recordIntent(Map.ofEntries(IGW_PART.is("igw")));
      gateway = CALLS.call(EC2_CREATE_INTERNET_GATEWAY, () -> ec2.createInternetGateway(r -> r
          .tagSpecifications(ec2TagSpec(ResourceType.INTERNET_GATEWAY, ctx, "igw", spec.name())))).internetGateway();
    } else {
      gateway = found.get(0);
    }
    if (gateway.attachments().stream().noneMatch(a -> vpcId.equals(a.vpcId()))) {
      CALLS.run(EC2_ATTACH_INTERNET_GATEWAY, () -> ec2.attachInternetGateway(r -> r
          .internetGatewayId(gateway.internetGatewayId()).vpcId(vpcId)));
    }
    return StepResult.done(IGW_PART.is("igw"), INTERNET_GATEWAY_ID.is(gateway.internetGatewayId()));
  }

  private StepResult deleteInternetGateway(StepContext ctx) {
    for (InternetGateway gateway : internetGatewaysOf(ctx)) {
      try {
        gateway.attachments().forEach(a -> CALLS.deleteIfExists(EC2_DETACH_INTERNET_GATEWAY,
            () -> ec2.detachInternetGateway(r -> r.internetGatewayId(gateway.internetGatewayId()).vpcId(a.vpcId()))));
      } catch (CloudCallException e) {
        if (!AwsErrors.code(e).equals("DependencyViolation")) {
          throw e;
        }
        // public addresses still mapped in the VPC (instances, load balancers someone else put there)
        return StepResult.fail(Failure.transientFailure(FailureCodes.DEPENDENCY_VIOLATION, "internet gateway "
            + gateway.internetGatewayId() + " still serves public addresses in the VPC: " + e.getMessage()));
      }
      CALLS.deleteIfExists(EC2_DELETE_INTERNET_GATEWAY,
          () -> ec2.deleteInternetGateway(r -> r.internetGatewayId(gateway.internetGatewayId())));
    }
    return StepResult.done();
  }

  private List<InternetGateway> internetGatewaysOf(StepContext ctx) {
    return CALLS.call(EC2_DESCRIBE_INTERNET_GATEWAYS,
        () -> ec2.describeInternetGateways(r -> r.filters(ec2Filters(ctx, "igw")))).internetGateways().stream()
        .filter(g -> ec2PartOf(g.tags(), ctx, "igw")).toList();
  }

  // ---- NAT gateways ------------------------------------------------------------------------------------

  /**
   * The address and the gateway, then waits until the gateway is available. A gateway that failed is left to
   * AWS (it deletes failed ones) and a new one made with a new client token; a pending one is waited on.
   */
  private StepResult createNatGateway(StepContext ctx, NetworkSpec spec, NatSlot slot) {
    List<NatGateway> mine = natGatewaysOf(ctx, slot.part());
    NatGateway live = mine.stream().filter(n -> !GONE.contains(n.state())).findFirst().orElse(null);
    if (live == null) {
      String allocationId = ensureAddress(ctx, spec, slot);
      String subnetId = ctx.outputs().require(PART_ID.of(NetworkDriver.subnetPart(slot.home())));
      long failed = mine.stream().filter(n -> n.state() == NatGatewayState.FAILED).count();
      ctx.recordIntent(Map.ofEntries(PART.of(slot.part()).is(slot.part())));
      live = CALLS.call(EC2_CREATE_NAT_GATEWAY, () -> ec2.createNatGateway(r -> r.subnetId(subnetId)
          .allocationId(allocationId).clientToken(ctx.clientToken(slot.part() + "#" + failed))
          .tagSpecifications(ec2TagSpec(ResourceType.NATGATEWAY, ctx, slot.part(), spec.name() + "-" + slot.part()))))
          .natGateway();
    }
    if (live.state() != NatGatewayState.AVAILABLE) {
      return poll.waitFor(ctx, "NAT gateway " + live.natGatewayId() + " is " + live.stateAsString());
    }
    return StepResult.done(PART.of(slot.part()).is(slot.part()), PART_ID.of(slot.part()).is(live.natGatewayId()),
        PART.of(slot.addressPart()).is(slot.addressPart()));
  }

  private String ensureAddress(StepContext ctx, NetworkSpec spec, NatSlot slot) {
    List<Address> found = addressesOf(ctx, slot.addressPart());
    if (!found.isEmpty()) {
      return found.get(0).allocationId();
    }
    ctx.recordIntent(Map.ofEntries(PART.of(slot.addressPart()).is(slot.addressPart())));
    return CALLS.call(EC2_ALLOCATE_ADDRESS, () -> ec2.allocateAddress(r -> r.domain(DomainType.VPC)
        .tagSpecifications(ec2TagSpec(ResourceType.ELASTIC_IP, ctx, slot.addressPart(),
            spec.name() + "-" + slot.part())))).allocationId();
  }

  /** Deletes the gateway, waits until it is gone (its address stays in use until then), then frees the address. */
  private StepResult deleteNatGateway(StepContext ctx, NatSlot slot) {
    List<NatGateway> remaining = new ArrayList<>();
    for (NatGateway gateway : natGatewaysOf(ctx, slot.part())) {
      if (GONE.contains(gateway.state())) {
        continue;
      }
      if (gateway.state() != NatGatewayState.DELETING) {
        CALLS.deleteIfExists(EC2_DELETE_NAT_GATEWAY,
            () -> ec2.deleteNatGateway(r -> r.natGatewayId(gateway.natGatewayId())));
      }
      remaining.add(gateway);
    }
    if (!remaining.isEmpty()) {
      // a gateway we have just asked to delete is looked at again on the next run
      List<NatGateway> still = natGatewaysOf(ctx, slot.part()).stream().filter(n -> !GONE.contains(n.state()))
          .toList();
      if (!still.isEmpty()) {
        return poll.waitFor(ctx, "NAT gateway " + still.get(0).natGatewayId() + " is " + still.get(0).stateAsString());
      }
    }
    for (Address address : addressesOf(ctx, slot.addressPart())) {
      CALLS.deleteIfExists(EC2_RELEASE_ADDRESS, () -> ec2.releaseAddress(r -> r.allocationId(address.allocationId())));
    }
    return StepResult.done();
  }

  /**
   * Gateways this job made as {@code part}, in every state. The tag filter is checked again here: it is what
   * says the gateway is ours, whatever an endpoint does with filters it does not know.
   */
  private List<NatGateway> natGatewaysOf(StepContext ctx, String part) {
    return CALLS.call(EC2_DESCRIBE_NAT_GATEWAYS, () -> ec2.describeNatGateways(r -> r.filter(ec2Filters(ctx, part))))
        .natGateways().stream().filter(n -> ec2PartOf(n.tags(), ctx, part)).toList();
  }

  private List<Address> addressesOf(StepContext ctx, String part) {
    return CALLS.call(EC2_DESCRIBE_ADDRESSES, () -> ec2.describeAddresses(r -> r.filters(ec2Filters(ctx, part))))
        .addresses().stream().filter(a -> ec2PartOf(a.tags(), ctx, part)).toList();
  }

  // ---- route tables ------------------------------------------------------------------------------------

  private StepResult routePublicSubnets(StepContext ctx, NetworkSpec spec) {
    String gatewayId = ctx.outputs().require(INTERNET_GATEWAY_ID);
    String table = ensureTable(ctx, spec, PUBLIC_TABLE);
    ensureRoute(table, DEFAULT_ROUTE, RouteTarget.gateway(gatewayId));
    List<String> subnets = new ArrayList<>();
    for (Subnet subnet : spec.publicSubnets()) {
      String subnetId = ctx.outputs().require(PART_ID.of(NetworkDriver.subnetPart(subnet)));
      ensureAssociated(table, subnetId);
      // instances launched here get a public address, as a public subnet's do in the console
      CALLS.run(EC2_MODIFY_SUBNET_ATTRIBUTE, () -> ec2.modifySubnetAttribute(r -> r.subnetId(subnetId)
          .mapPublicIpOnLaunch(v -> v.value(true))));
      subnets.add(subnetId);
    }
    return StepResult.done(PART.of(PUBLIC_TABLE).is(PUBLIC_TABLE), PART_ID.of(PUBLIC_TABLE).is(table),
        PUBLIC_SUBNET_IDS.is(String.join(",", subnets)));
  }

  /** Each private subnet to the table of the NAT gateway in its own zone, else to the first one's. */
  private StepResult routePrivateSubnets(StepContext ctx, NetworkSpec spec) {
    Map<String, String> outputs = new HashMap<>();
    Map<String, String> tableByZone = new LinkedHashMap<>();
    List<NatSlot> nats = natSlots(spec);
    if (nats.isEmpty()) {
      String table = ensureTable(ctx, spec, "rt.private");
      outputs.putAll(Map.ofEntries(PART.of("rt.private").is("rt.private"), PART_ID.of("rt.private").is(table)));
      tableByZone.put(null, table);
    }
    for (NatSlot nat : nats) {
      String table = ensureTable(ctx, spec, nat.tablePart());
      ensureRoute(table, DEFAULT_ROUTE, RouteTarget.nat(ctx.outputs().require(PART_ID.of(nat.part()))));
      outputs.putAll(Map.ofEntries(PART.of(nat.tablePart()).is(nat.tablePart()),
          PART_ID.of(nat.tablePart()).is(table)));
      tableByZone.put(nat.zone(), table);
    }
    Map<String, String> ids = new LinkedHashMap<>();
    for (Subnet subnet : spec.privateSubnets()) {
      ids.put(ctx.outputs().require(PART_ID.of(NetworkDriver.subnetPart(subnet))), subnet.zone());
    }
    if (tableByZone.size() > 1) {
      // zones AWS chose for subnets that named none
      CALLS.call(EC2_DESCRIBE_SUBNETS, () -> ec2.describeSubnets(r -> r.subnetIds(ids.keySet()))).subnets()
          .forEach(s -> ids.put(s.subnetId(), s.availabilityZone()));
    }
    String fallback = tableByZone.values().iterator().next();
    ids.forEach((subnetId, zone) -> ensureAssociated(tableByZone.getOrDefault(zone, fallback), subnetId));
    outputs.putAll(Map.ofEntries(PRIVATE_SUBNET_IDS.is(String.join(",", ids.keySet()))));
    return StepResult.done(outputs);
  }

  private String ensureTable(StepContext ctx, NetworkSpec spec, String part) {
    List<RouteTable> found = tablesOf(ctx, part);
    if (!found.isEmpty()) {
      return found.get(0).routeTableId();
    }
    String vpcId = ctx.outputs().require(VPC_ID);
    ctx.recordIntent(Map.ofEntries(PART.of(part).is(part)));
    return CALLS.call(EC2_CREATE_ROUTE_TABLE, () -> ec2.createRouteTable(r -> r.vpcId(vpcId)
        .tagSpecifications(ec2TagSpec(ResourceType.ROUTE_TABLE, ctx, part,
            spec.name() + "-" + part.substring("rt.".length()))))).routeTable().routeTableId();
  }

  /** Where a route sends its traffic: exactly one of the three is set. */
  record RouteTarget(String gatewayId, String natGatewayId, String peeringId) {
    static RouteTarget gateway(String id) {
      return new RouteTarget(id, null, null);
    }

    static RouteTarget nat(String id) {
      return new RouteTarget(null, id, null);
    }

    static RouteTarget peering(String id) {
      return new RouteTarget(null, null, id);
    }

    boolean isTargetOf(Route route) {
      return Objects.equals(gatewayId, route.gatewayId()) && Objects.equals(natGatewayId, route.natGatewayId())
          && Objects.equals(peeringId, route.vpcPeeringConnectionId());
    }
  }

  /** Adds the route, or points an existing route for the destination at the right target. */
  private void ensureRoute(String tableId, String destination, RouteTarget target) {
    RouteTable table = CALLS.call(EC2_DESCRIBE_ROUTE_TABLES, () -> ec2.describeRouteTables(r -> r
        .routeTableIds(tableId))).routeTables().get(0);
    Route existing = table.routes().stream().filter(r -> destination.equals(r.destinationCidrBlock())).findFirst()
        .orElse(null);
    if (existing == null) {
      CALLS.run(EC2_CREATE_ROUTE, () -> ec2.createRoute(r -> r.routeTableId(tableId).destinationCidrBlock(destination)
          .gatewayId(target.gatewayId()).natGatewayId(target.natGatewayId())
          .vpcPeeringConnectionId(target.peeringId())));
    } else if (!target.isTargetOf(existing) || "blackhole".equals(existing.stateAsString())) {
      CALLS.run(EC2_REPLACE_ROUTE, () -> ec2.replaceRoute(r -> r.routeTableId(tableId).destinationCidrBlock(destination)
          .gatewayId(target.gatewayId()).natGatewayId(target.natGatewayId())
          .vpcPeeringConnectionId(target.peeringId())));
    }
  }

  /** A subnet can have one table: associates it, or moves its association here from wherever it is. */
  private void ensureAssociated(String tableId, String subnetId) {
    List<RouteTable> current = CALLS.call(EC2_DESCRIBE_ROUTE_TABLES, () -> ec2.describeRouteTables(r -> r
        .filters(Filter.builder().name("association.subnet-id").values(subnetId).build()))).routeTables();
    for (RouteTable table : current) {
      for (RouteTableAssociation association : table.associations()) {
        if (!subnetId.equals(association.subnetId())) {
          continue;
        }
        if (!table.routeTableId().equals(tableId)) {
          CALLS.run(EC2_REPLACE_ROUTE_TABLE_ASSOCIATION, () -> ec2.replaceRouteTableAssociation(r -> r
              .associationId(association.routeTableAssociationId()).routeTableId(tableId)));
        }
        return;
      }
    }
    CALLS.run(EC2_ASSOCIATE_ROUTE_TABLE, () -> ec2.associateRouteTable(r -> r.routeTableId(tableId).subnetId(subnetId)));
  }

  private StepResult deleteRouteTables(StepContext ctx, List<String> parts) {
    for (String part : parts) {
      for (RouteTable table : tablesOf(ctx, part)) {
        for (RouteTableAssociation association : table.associations()) {
          if (!Boolean.TRUE.equals(association.main())) {
            CALLS.deleteIfExists(EC2_DISASSOCIATE_ROUTE_TABLE, () -> ec2.disassociateRouteTable(r -> r
                .associationId(association.routeTableAssociationId())));
          }
        }
        CALLS.deleteIfExists(EC2_DELETE_ROUTE_TABLE, () -> ec2.deleteRouteTable(r -> r
            .routeTableId(table.routeTableId())));
      }
    }
    return StepResult.done();
  }

  private List<RouteTable> tablesOf(StepContext ctx, String part) {
    return CALLS.call(EC2_DESCRIBE_ROUTE_TABLES, () -> ec2.describeRouteTables(r -> r.filters(ec2Filters(ctx, part))))
        .routeTables().stream().filter(t -> ec2PartOf(t.tags(), ctx, part)).toList();
  }

  // ---- peering routes ----------------------------------------------------------------------------------

  private StepResult routePeering(StepContext ctx, NetworkSpec spec) {
    VpcPeeringConnection peering = livePeerings(ctx).stream()
        .filter(p -> p.status().code() == VpcPeeringConnectionStateReasonCode.ACTIVE).findFirst().orElse(null);
    if (peering == null) {
      return poll.waitFor(ctx, "the peering is not active yet");
    }
    String peeringId = peering.vpcPeeringConnectionId();
    String peerCidr = CALLS.call(EC2_DESCRIBE_VPCS, () -> ec2.describeVpcs(r -> r.vpcIds(spec.peerVpcId())))
        .vpcs().get(0).cidrBlock();
    ctx.recordIntent(Map.ofEntries(PART.of(PEERING_ROUTES).is(PEERING_ROUTES)));
    List<String> ours = new ArrayList<>();
    for (String part : tableParts(spec)) {
      tablesOf(ctx, part).forEach(t -> ours.add(t.routeTableId()));
    }
    ours.forEach(table -> ensureRoute(table, peerCidr, RouteTarget.peering(peeringId)));
    List<String> theirs = peerTables(spec);
    theirs.forEach(table -> ensureRoute(table, spec.cidr(), RouteTarget.peering(peeringId)));
    return StepResult.done(PART.of(PEERING_ROUTES).is(PEERING_ROUTES),
        PEER_ROUTE_TABLE_IDS.is(String.join(",", theirs)));
  }

  private StepResult unroutePeering(StepContext ctx, NetworkSpec spec) {
    Set<String> peerings = livePeerings(ctx).stream().map(VpcPeeringConnection::vpcPeeringConnectionId)
        .collect(Collectors.toSet());
    for (RouteTable table : CALLS.call(EC2_DESCRIBE_ROUTE_TABLES, () -> ec2.describeRouteTables(r -> r.filters(
        Filter.builder().name("vpc-id").values(spec.peerVpcId()).build()))).routeTables().stream()
        .filter(t -> spec.peerVpcId().equals(t.vpcId())).toList()) {
      for (Route route : table.routes()) {
        if (route.vpcPeeringConnectionId() != null && peerings.contains(route.vpcPeeringConnectionId())) {
          CALLS.deleteIfExists(EC2_DELETE_ROUTE, () -> ec2.deleteRoute(r -> r.routeTableId(table.routeTableId())
              .destinationCidrBlock(route.destinationCidrBlock())));
        }
      }
    }
    return StepResult.done();
  }

  private List<String> peerTables(NetworkSpec spec) {
    return CALLS.call(EC2_DESCRIBE_ROUTE_TABLES, () -> ec2.describeRouteTables(r -> r.filters(
        Filter.builder().name("vpc-id").values(spec.peerVpcId()).build()))).routeTables().stream()
        .filter(t -> spec.peerVpcId().equals(t.vpcId())).map(RouteTable::routeTableId).toList();
  }

  /**
   * Peerings this job requested that are neither deleted nor rejected: the tag filter narrows the answer, and the
   * tags on what comes back decide, since a filter the API ignores would hand over another job's peering.
   */
  List<VpcPeeringConnection> livePeerings(StepContext ctx) {
    return CALLS.call(EC2_DESCRIBE_VPC_PEERING_CONNECTIONS,
        () -> ec2.describeVpcPeeringConnections(r -> r.filters(ec2Filters(ctx, "peering")))).vpcPeeringConnections()
        .stream().filter(p -> ec2PartOf(p.tags(), ctx, "peering"))
        .filter(p -> p.status().code() != VpcPeeringConnectionStateReasonCode.DELETED
            && p.status().code() != VpcPeeringConnectionStateReasonCode.REJECTED).toList();
  }
}
