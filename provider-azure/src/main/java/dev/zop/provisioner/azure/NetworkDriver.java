package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.core.management.SubResource;
import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkPeeringInner;
import com.azure.resourcemanager.network.models.AddressSpace;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.Adoption;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A virtual network with its subnets in the space's resource group and, when asked, a peering added on both
 * sides (a VNet peering carries traffic once each network peers with the other). The network carries its job in
 * its tags; subnets and peerings are its children and go with it. A network that exists is never sent again:
 * ARM replaces a network's subnets with those of the body it is given, so a resumed step adopts it instead.
 *
 * <p>With {@code dnsZone}, a private DNS zone of that name (global, as Azure's private zones are) linked to the
 * network, so names in it resolve from the network's machines; teardown removes the link, then the zone.
 *
 * <p>Not made on Azure yet (refused by {@link #validate}): NAT gateways.
 */
final class NetworkDriver implements ResourceDriver<NetworkSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> NETWORK_PART = OutputKey.text("network.part");
  static final OutputKey<String> VPC_ID = OutputKey.text("vpcId");
  static final OutputKey<String> NETWORK_NAME = OutputKey.text("networkName");
  static final OutputKey.PerPart<String> SUBNET_ID = OutputKey.textPerPart("subnet-%s.id");
  static final OutputKey<String> DNS_ZONE_ID = OutputKey.text("dnsZoneId");
  static final OutputKey<String> DNS_ZONE_LINK = OutputKey.text("dns-zone-link");
  static final OutputKey<String> PEERING_PART = OutputKey.text("peering.part");
  static final OutputKey<String> PEERING_ID = OutputKey.text("peeringId");

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final java.util.function.Supplier<String> location;
  private final StatusPoll poll;
  private final PrivateZones zones;

  NetworkDriver(DriverContext<AzureClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.resourceGroup = context.scope(AzureSession.RESOURCE_GROUP);
    this.location = context.region();
    this.poll = context.poll();
    this.zones = new PrivateZones(clients, calls, resourceGroup, poll);
  }

  @Override
  public Class<NetworkSpec> specType() {
    return NetworkSpec.class;
  }

  @Override
  public List<FieldError> validate(NetworkSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (!spec.natGatewayMode().equals(NetworkSpec.NAT_NONE)) {
      errors.add(FieldError.of("natGateways", "unsupported", "the Azure provider does not make NAT gateways yet"));
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(NetworkDriver.class);
  }

  @Override
  public List<Step> create(NetworkSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("create-network", List.of(VIRTUAL_NETWORKS_READ, VIRTUAL_NETWORKS_WRITE,
        RESOURCE_GROUPS_READ),
            ctx -> createNetwork(ctx, spec)).intending(ctx -> Map.ofEntries(NETWORK_PART.is("network"))));
    for (Subnet subnet : spec.subnets()) {
      steps.add(ProviderStep.each("create-subnet", subnet.name(), List.of(VIRTUAL_NETWORKS_READ, SUBNETS_READ,
          SUBNETS_WRITE), ctx -> createSubnet(ctx, spec, subnet)));
    }
    if (spec.dnsZone() != null) {
      steps.add(ProviderStep.of("create-dns-zone", List.of(PRIVATE_ZONES_READ, PRIVATE_ZONES_WRITE),
          ctx -> zones.ensureZone(ctx, spec.dnsZone(), "dns-zone", DNS_ZONE_ID)));
      steps.add(ProviderStep.of("link-dns-zone", List.of(ZONE_LINKS_READ, ZONE_LINKS_WRITE, VIRTUAL_NETWORKS_READ,
          VIRTUAL_NETWORKS_JOIN), ctx -> zones.ensureLink(ctx, spec.dnsZone(), linkName(spec),
              ctx.outputs().require(VPC_ID), DNS_ZONE_LINK)));
    }
    if (spec.peerVpcId() != null) {
      steps.add(ProviderStep.of("add-peering", List.of(VIRTUAL_NETWORKS_READ, PEERINGS_READ, PEERINGS_WRITE,
          VIRTUAL_NETWORKS_PEER), ctx -> addPeering(ctx, spec)));
    }
    return steps;
  }

  /**
   * A network gains subnets, and a DNS zone where it had none, by the steps its create runs for them; what it has
   * stays as it is ({@link RevisionRules#networkGrows}).
   */
  @Override
  public Revision revise(NetworkSpec current, NetworkSpec revised, Outputs recorded) {
    return RevisionRules.networkGrows(current, revised, create(revised), "create-dns-zone", "link-dns-zone");
  }

  @Override
  public List<Step> teardown(NetworkSpec spec, Outputs recorded) {
    List<Step> steps = new ArrayList<>();
    if (spec.peerVpcId() != null && recorded.has(PEERING_PART)) {
      steps.add(ProviderStep.of("remove-peering", List.of(VIRTUAL_NETWORKS_READ, PEERINGS_READ, PEERINGS_DELETE),
          ctx -> removePeering(ctx, spec)));
    }
    if (spec.dnsZone() != null) {
      steps.add(ProviderStep.of("unlink-dns-zone", List.of(ZONE_LINKS_READ, ZONE_LINKS_DELETE),
          ctx -> zones.removeLink(ctx, spec.dnsZone(), linkName(spec))));
      steps.add(ProviderStep.of("delete-dns-zone", List.of(PRIVATE_ZONES_READ, PRIVATE_ZONES_DELETE),
          ctx -> zones.removeZone(ctx, spec.dnsZone())));
    }
    if (recorded.has(NETWORK_PART)) {
      // subnets are the network's children and go with it
      steps.add(ProviderStep.of("delete-network", List.of(VIRTUAL_NETWORKS_READ, VIRTUAL_NETWORKS_DELETE),
          ctx -> deleteNetwork(ctx, spec)));
    }
    return steps;
  }

  /** The virtual network's address space and each subnet's prefix, read back; the network or a subnet gone. */
  @Override
  public CloudRead<List<Drift>> observe(NetworkSpec spec, Outputs recorded) {
    if (!recorded.has(NETWORK_PART)) {
      return null;
    }
    return ProviderRead.of(List.of(VIRTUAL_NETWORKS_READ, SUBNETS_READ), () -> {
      DriftFindings found = new DriftFindings();
      VirtualNetworkInner network = findNetwork(spec.name());
      String resource = "virtual network " + spec.name();
      if (network == null) {
        return found.missing(resource).list();
      }
      List<String> prefixes = network.addressSpace() == null ? List.of() : network.addressSpace().addressPrefixes();
      found.compare(resource, "cidr", spec.cidr(), String.join(",", prefixes));
      for (int i = 0; i < spec.subnets().size(); i++) {
        Subnet subnet = spec.subnets().get(i);
        if (!recorded.has(SUBNET_ID.of(subnet.name()))) {
          continue;
        }
        SubnetInner cloud = findSubnet(spec, subnet);
        if (cloud == null) {
          found.missing("subnet " + spec.name() + "/" + subnet.name());
        } else {
          found.compare("subnet " + spec.name() + "/" + subnet.name(), "subnets[" + i + "].cidr", subnet.cidr(),
              cloud.addressPrefix());
        }
      }
      return found.list();
    });
  }

  /**
   * A virtual network of the space's resource group by its name, with its subnets: the config they have, and the
   * job its {@code zop-job} tag names.
   */
  @Override
  public CloudRead<Adoption<NetworkSpec>> findExisting(String externalId) {
    return ProviderRead.of(List.of(VIRTUAL_NETWORKS_READ), () -> {
      VirtualNetworkInner network = findNetwork(externalId);
      if (network == null) {
        return null;
      }
      List<Subnet> subnets = new ArrayList<>();
      Map<String, String> state = new java.util.LinkedHashMap<>();
      List<String> resources = new ArrayList<>(List.of("virtual network " + externalId));
      state.put(NETWORK_PART.name(), "network");
      state.put(VPC_ID.name(), network.id());
      state.put(NETWORK_NAME.name(), externalId);
      for (SubnetInner subnet : network.subnets() == null ? List.<SubnetInner>of() : network.subnets()) {
        subnets.add(Subnet.of(subnet.name(), subnet.addressPrefix()));
        state.put(SUBNET_ID.of(subnet.name()).name(), subnet.id());
        resources.add("subnet " + externalId + "/" + subnet.name());
      }
      NetworkSpec config = NetworkSpec.named(externalId).cidr(network.addressSpace().addressPrefixes().get(0))
          .subnets(subnets).build();
      return new Adoption<>(config, state, resources, AzureTags.OWNER.ownerOf(network.tags()));
    });
  }

  /**
   * The network found again, refused when another job's tag is on it, and tagged as this job's: the network as it
   * is (subnets and all) PUT again with the tags added, as ARM replaces a resource's tags only with the resource.
   * Its subnets are its children and are recorded with it.
   */
  @Override
  public List<Step> adopt(NetworkSpec found, String externalId) {
    return List.of(ProviderStep.of("adopt-network", List.of(VIRTUAL_NETWORKS_READ, VIRTUAL_NETWORKS_WRITE), ctx -> {
      VirtualNetworkInner network = findNetwork(externalId);
      if (network == null) {
        return StepResult.fail(Failure.userAction(dev.zop.provisioner.kit.FailureCodes.RESOURCE_MISSING,
            "virtual network " + externalId + " is gone since the import was planned", "Plan the import again.",
            null));
      }
      Failure owned = AzureTags.OWNER.refuseOwned(network.tags(), ctx, "virtual network", externalId);
      if (owned != null) {
        return StepResult.fail(owned);
      }
      if (!AzureTags.OWNER.owns(network.tags(), ctx)) {
        Map<String, String> tags = new java.util.LinkedHashMap<>(network.tags() == null ? Map.of() : network.tags());
        tags.putAll(AzureTags.OWNER.of(ctx, "network"));
        network.withTags(tags);
        calls.call(VIRTUAL_NETWORKS_WRITE, () -> clients.network().serviceClient().getVirtualNetworks()
            .beginCreateOrUpdate(resourceGroup, externalId, network));
        return poll.waitFor(ctx, "virtual network " + externalId + " is being tagged");
      }
      String state = String.valueOf(network.provisioningState());
      if (!state.equalsIgnoreCase("Succeeded")) {
        return poll.waitFor(ctx, "virtual network " + externalId + " is " + state);
      }
      Map<String, String> outputs = new java.util.LinkedHashMap<>();
      outputs.put(NETWORK_PART.name(), "network");
      outputs.put(VPC_ID.name(), network.id());
      outputs.put(NETWORK_NAME.name(), externalId);
      for (SubnetInner subnet : network.subnets() == null ? List.<SubnetInner>of() : network.subnets()) {
        outputs.put(SUBNET_ID.of(subnet.name()).name(), subnet.id());
      }
      return StepResult.done(outputs);
    }));
  }

  @Override
  public String pricesAsOf() {
    return AzurePrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(NetworkSpec spec, String priceRegion) {
    // virtual networks and subnets cost nothing; peering and egress traffic are billed by the GB
    return List.of(CostComponent.unknown("peering and data transfer", "GB", BigDecimal.ZERO,
        "billed by traffic, which the spec does not say"));
  }

  private VirtualNetworkInner findNetwork(String name) {
    return calls.findOrNull(VIRTUAL_NETWORKS_READ, () -> clients.network().serviceClient().getVirtualNetworks()
        .getByResourceGroup(resourceGroup, name));
  }

  private StepResult createNetwork(StepContext ctx, NetworkSpec spec) {
    VirtualNetworkInner existing = findNetwork(spec.name());
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(NETWORK_PART.is("network")));
      VirtualNetworkInner wanted = new VirtualNetworkInner()
          .withAddressSpace(new AddressSpace().withAddressPrefixes(List.of(spec.cidr())));
      wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "network"));
      calls.call(VIRTUAL_NETWORKS_WRITE, () -> clients.network().serviceClient().getVirtualNetworks()
          .beginCreateOrUpdate(resourceGroup, spec.name(), wanted));
      existing = findNetwork(spec.name());
      if (existing == null) {
        return poll.waitFor(ctx, "virtual network " + spec.name() + " is being created");
      }
    }
    Failure foreign = AzureTags.OWNER.refuseForeign(existing.tags(), ctx, "virtual network", spec.name());
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    String state = String.valueOf(existing.provisioningState());
    if (!state.equalsIgnoreCase("Succeeded")) {
      return poll.waitFor(ctx, "virtual network " + spec.name() + " is " + state);
    }
    return StepResult.done(NETWORK_PART.is("network"), VPC_ID.is(existing.id()), NETWORK_NAME.is(spec.name()));
  }

  private StepResult createSubnet(StepContext ctx, NetworkSpec spec, Subnet subnet) {
    String part = "subnet-" + subnet.name();
    SubnetInner existing = findSubnet(spec, subnet);
    if (existing == null) {
      calls.call(SUBNETS_WRITE, () -> clients.network().serviceClient().getSubnets().beginCreateOrUpdate(
          resourceGroup, spec.name(), subnet.name(), new SubnetInner().withAddressPrefix(subnet.cidr())));
      existing = findSubnet(spec, subnet);
      if (existing == null) {
        return poll.waitFor(ctx, "subnet " + subnet.name() + " is being created");
      }
    }
    String state = String.valueOf(existing.provisioningState());
    if (!state.equalsIgnoreCase("Succeeded")) {
      return poll.waitFor(ctx, "subnet " + subnet.name() + " is " + state);
    }
    return StepResult.done(SUBNET_ID.of(subnet.name()).is(existing.id()));
  }

  private SubnetInner findSubnet(NetworkSpec spec, Subnet subnet) {
    return calls.findOrNull(SUBNETS_READ, () -> clients.network().serviceClient().getSubnets()
        .get(resourceGroup, spec.name(), subnet.name()));
  }

  // ---- private DNS ---------------------------------------------------------------------------------------

  static String linkName(NetworkSpec spec) {
    return spec.name() + "-link";
  }

  // ---- peering -----------------------------------------------------------------------------------------

  /** The peer as a network name in the space's resource group; peerVpcID may be its name or its ARM id. */
  static String peerName(NetworkSpec spec) {
    return spec.peerVpcId().substring(spec.peerVpcId().lastIndexOf('/') + 1);
  }

  static String peeringName(String from, String to) {
    String name = (from + "-to-" + to).toLowerCase(Locale.ROOT);
    return name.length() <= 80 ? name : name.substring(0, 80);
  }

  private StepResult addPeering(StepContext ctx, NetworkSpec spec) {
    String peer = peerName(spec);
    VirtualNetworkInner ours = findNetwork(spec.name());
    VirtualNetworkInner theirs = findNetwork(peer);
    if (theirs == null) {
      return StepResult.fail(Failure.userAction("peer_network_missing", "virtual network " + peer
          + " does not exist in resource group " + resourceGroup, "Name an existing network of the resource group"
          + " in peerVpcID, then retry.", null));
    }
    ctx.recordIntent(Map.ofEntries(PEERING_PART.is("peering")));
    ensurePeering(spec.name(), peeringName(spec.name(), peer), theirs.id());
    ensurePeering(peer, peeringName(peer, spec.name()), ours.id());
    return StepResult.done(PEERING_PART.is("peering"), PEERING_ID.is(peeringName(spec.name(), peer)));
  }

  private void ensurePeering(String network, String name, String remoteId) {
    if (findPeering(network, name) != null) {
      return;
    }
    VirtualNetworkPeeringInner peering = new VirtualNetworkPeeringInner()
        .withRemoteVirtualNetwork(new SubResource().withId(remoteId)).withAllowVirtualNetworkAccess(true);
    calls.call(PEERINGS_WRITE, () -> clients.network().serviceClient().getVirtualNetworkPeerings()
        .beginCreateOrUpdate(resourceGroup, network, name, peering));
  }

  /** Removes both sides of the peering and waits until both are gone: the network cannot go while they stay. */
  private StepResult removePeering(StepContext ctx, NetworkSpec spec) {
    String peer = peerName(spec);
    String pending = null;
    for (String[] side : new String[][] {{spec.name(), peeringName(spec.name(), peer)},
        {peer, peeringName(peer, spec.name())}}) {
      VirtualNetworkPeeringInner existing = findPeering(side[0], side[1]);
      if (existing == null) {
        continue;
      }
      // a delete accepted earlier (before a crash, or on the last poll) is still running
      if (!"Deleting".equalsIgnoreCase(String.valueOf(existing.provisioningState()))) {
        calls.deleteIfExists(PEERINGS_DELETE, () -> clients.network().serviceClient().getVirtualNetworkPeerings()
            .beginDelete(resourceGroup, side[0], side[1]));
      }
      if (findPeering(side[0], side[1]) != null) {
        pending = side[1];
      }
    }
    return pending == null ? StepResult.done() : poll.waitFor(ctx, "peering " + pending + " is being deleted");
  }

  private VirtualNetworkPeeringInner findPeering(String network, String name) {
    return calls.findOrNull(PEERINGS_READ, () -> clients.network().serviceClient().getVirtualNetworkPeerings()
        .get(resourceGroup, network, name));
  }

  private StepResult deleteNetwork(StepContext ctx, NetworkSpec spec) throws Exception {
    return poll.deleteAndWait(ctx, "virtual network " + spec.name(), () -> findNetwork(spec.name()),
        network -> AzureTags.OWNER.owns(network.tags(), ctx), network -> false,
        network -> calls.deleteIfExists(VIRTUAL_NETWORKS_DELETE, () -> clients.network().serviceClient()
            .getVirtualNetworks().beginDelete(resourceGroup, spec.name())));
  }
}
