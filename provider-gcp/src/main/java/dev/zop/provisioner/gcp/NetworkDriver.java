package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.api.services.dns.model.ManagedZone;
import com.google.api.services.dns.model.ManagedZonePrivateVisibilityConfig;
import com.google.api.services.dns.model.ManagedZonePrivateVisibilityConfigNetwork;
import com.google.cloud.compute.v1.AddPeeringNetworkRequest;
import com.google.cloud.compute.v1.InsertNetworkRequest;
import com.google.cloud.compute.v1.InsertSubnetworkRequest;
import com.google.cloud.compute.v1.Network;
import com.google.cloud.compute.v1.NetworkPeering;
import com.google.cloud.compute.v1.NetworksAddPeeringRequest;
import com.google.cloud.compute.v1.NetworksRemovePeeringRequest;
import com.google.cloud.compute.v1.RemovePeeringNetworkRequest;
import com.google.cloud.compute.v1.Subnetwork;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.RevisionRules;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.ProviderStep;
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
import java.util.Map;

/**
 * A custom-mode VPC network with regional subnetworks in the space's region, a private DNS zone bound to it, and a peering with
 * another network of the project — added on both sides, since a GCP peering carries traffic only once each
 * network peers with the other. Networks and subnetworks take no labels: the owner pairs are in their
 * description, and a resumed step adopts only what they say its job made. Every change is a Compute Engine
 * operation, recorded and read again on the step's next run instead of being waited on by a thread.
 *
 * <p>With {@code dnsZone}, a private Cloud DNS zone visible from this network only. Not made on GCP (refused by
 * {@link #validate}): NAT gateways.
 */
final class NetworkDriver implements ResourceDriver<NetworkSpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> NETWORK_PART = GcpState.PART.of("network");
  static final OutputKey<String> VPC_ID = OutputKey.text("vpcId");
  static final OutputKey<String> NETWORK_SELF_LINK = OutputKey.text("networkSelfLink");
  static final OutputKey<String> DNS_ZONE_PART = GcpState.PART.of("dnsZone");
  static final OutputKey<String> DNS_ZONE_NAME = OutputKey.text("dnsZone.name");
  static final OutputKey<String> DNS_ZONE_ID = OutputKey.text("dnsZoneId");
  static final OutputKey<String> PEERING_PART = GcpState.PART.of("peering");
  static final OutputKey<String> PEERING_ID = OutputKey.text("peeringId");

  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;
  private final StatusPoll poll;
  private final ComputeResources resources;

  NetworkDriver(DriverContext<GcpClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.project = context.scope(GcpSession.PROJECT);
    this.region = context.region().get();
    this.poll = context.poll();
    this.resources = new ComputeResources(calls, new ComputeOperations(clients, calls, project, poll), poll);
  }

  @Override
  public Class<NetworkSpec> specType() {
    return NetworkSpec.class;
  }

  @Override
  public List<FieldError> validate(NetworkSpec spec) {
    List<FieldError> errors = new ArrayList<>();
    if (!spec.natGatewayMode().equals(NetworkSpec.NAT_NONE)) {
      errors.add(FieldError.of("natGateways", "unsupported",
          "the GCP provider does not make Cloud NAT yet; every GCP network has a default route to the internet"));
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(NetworkDriver.class).and(OutputKeys.of(GcpState.PART, GcpState.OPERATION, GcpState.ID,
        GcpState.SELF_LINK));
  }

  @Override
  public List<Step> create(NetworkSpec spec) {
    List<Step> steps = new ArrayList<>();
    steps.add(ProviderStep.of("create-network", List.of(COMPUTE_NETWORKS_GET, COMPUTE_NETWORKS_CREATE,
        COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> createNetwork(ctx, spec)));
    for (Subnet subnet : spec.subnets()) {
      steps.add(ProviderStep.each("create-subnet", subnet.name(), List.of(COMPUTE_SUBNETWORKS_GET,
          COMPUTE_SUBNETWORKS_CREATE, COMPUTE_REGION_OPERATIONS_GET), ctx -> createSubnet(ctx, spec, subnet)));
    }
    if (spec.dnsZone() != null) {
      steps.add(ProviderStep.of("create-dns-zone", List.of(DNS_MANAGED_ZONES_GET, DNS_MANAGED_ZONES_CREATE,
          DNS_NETWORKS_BIND_PRIVATE_DNS_ZONE), ctx -> createZone(ctx, spec)));
    }
    if (spec.peerVpcId() != null) {
      steps.add(ProviderStep.of("add-peering", List.of(COMPUTE_NETWORKS_GET, COMPUTE_NETWORKS_ADD_PEERING,
          COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> addPeering(ctx, spec)));
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
    List<Step> steps = new ArrayList<>();
    if (spec.peerVpcId() != null && recorded.has(PEERING_PART)) {
      steps.add(ProviderStep.of("remove-peering", List.of(COMPUTE_NETWORKS_GET, COMPUTE_NETWORKS_REMOVE_PEERING,
          COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> removePeering(ctx, spec)));
    }
    if (spec.dnsZone() != null && recorded.has(DNS_ZONE_PART)) {
      steps.add(ProviderStep.of("delete-dns-zone", List.of(DNS_MANAGED_ZONES_GET, DNS_MANAGED_ZONES_DELETE),
          ctx -> deleteZone(ctx, spec)));
    }
    for (int i = spec.subnets().size() - 1; i >= 0; i--) {
      Subnet subnet = spec.subnets().get(i);
      if (recorded.has(GcpState.PART.of(subnetPart(subnet)))) {
        steps.add(ProviderStep.each("delete-subnet", subnet.name(), List.of(COMPUTE_SUBNETWORKS_GET,
            COMPUTE_SUBNETWORKS_DELETE, COMPUTE_REGION_OPERATIONS_GET), ctx -> deleteSubnet(ctx, spec, subnet)));
      }
    }
    if (recorded.has(NETWORK_PART)) {
      steps.add(ProviderStep.of("delete-network", List.of(COMPUTE_NETWORKS_GET, COMPUTE_NETWORKS_DELETE,
          COMPUTE_GLOBAL_OPERATIONS_GET), ctx -> deleteNetwork(ctx, spec)));
    }
    return steps;
  }

  @Override
  public String pricesAsOf() {
    return GcpPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(NetworkSpec spec, String priceRegion) {
    // VPC networks, subnetworks and peerings cost nothing by themselves; traffic is billed by use
    return List.of(CostComponent.unknown("data transfer", "GB", BigDecimal.ZERO,
        "billed by traffic, which the spec does not say"));
  }

  // ---- network -----------------------------------------------------------------------------------------

  private StepResult createNetwork(StepContext ctx, NetworkSpec spec) {
    return resources.ensure(ctx, new ComputeResources.Wanted<>("network", "network", spec.name(), null,
        () -> findNetwork(spec.name()), COMPUTE_NETWORKS_CREATE, () -> clients.networks().insertCallable().call(
            InsertNetworkRequest.newBuilder().setProject(project).setNetworkResource(Network.newBuilder()
                .setName(spec.name()).setAutoCreateSubnetworks(false)
                .setDescription(GcpOwner.description(ctx, "network"))
                .setRoutingConfig(com.google.cloud.compute.v1.NetworkRoutingConfig.newBuilder()
                    .setRoutingMode("REGIONAL"))).build()),
        network -> Map.ofEntries(VPC_ID.is(spec.name()), NETWORK_SELF_LINK.is(network.getSelfLink()))));
  }

  private StepResult deleteNetwork(StepContext ctx, NetworkSpec spec) {
    return resources.remove(ctx, "network " + spec.name(), () -> findNetwork(spec.name()), COMPUTE_NETWORKS_DELETE,
        () -> clients.networks().deleteCallable().call(com.google.cloud.compute.v1.DeleteNetworkRequest.newBuilder()
            .setProject(project).setNetwork(spec.name()).build()));
  }

  private Network findNetwork(String name) {
    return calls.findOrNull(COMPUTE_NETWORKS_GET, () -> clients.networks().get(project, name));
  }

  // ---- subnetworks -------------------------------------------------------------------------------------

  private StepResult createSubnet(StepContext ctx, NetworkSpec spec, Subnet subnet) {
    String part = subnetPart(subnet);
    String name = subnetName(spec, subnet);
    return resources.ensure(ctx, new ComputeResources.Wanted<>(part, "subnetwork", name, region,
        () -> findSubnet(name), COMPUTE_SUBNETWORKS_CREATE, () -> clients.subnetworks().insertCallable().call(
            InsertSubnetworkRequest.newBuilder().setProject(project).setRegion(region)
                .setSubnetworkResource(Subnetwork.newBuilder().setName(name).setIpCidrRange(subnet.cidr())
                    .setNetwork(ctx.outputs().require(NETWORK_SELF_LINK)).setRegion(region)
                    .setDescription(GcpOwner.description(ctx, part))
                    // a private subnet's instances reach Google's APIs without external addresses
                    .setPrivateIpGoogleAccess(!subnet.routedToInternet()))
                .build()),
        subnetwork -> Map.ofEntries(GcpState.ID.of(part).is(name),
            GcpState.SELF_LINK.of(part).is(subnetwork.getSelfLink()))));
  }

  private StepResult deleteSubnet(StepContext ctx, NetworkSpec spec, Subnet subnet) {
    String name = subnetName(spec, subnet);
    return resources.remove(ctx, "subnetwork " + name, () -> findSubnet(name), COMPUTE_SUBNETWORKS_DELETE,
        () -> clients.subnetworks().deleteCallable().call(com.google.cloud.compute.v1.DeleteSubnetworkRequest
            .newBuilder().setProject(project).setRegion(region).setSubnetwork(name).build()));
  }

  private Subnetwork findSubnet(String name) {
    return calls.findOrNull(COMPUTE_SUBNETWORKS_GET, () -> clients.subnetworks().get(project, region, name));
  }

  /** Subnetwork names are unique per region of the project: the network's name keeps them apart. */
  static String subnetName(NetworkSpec spec, Subnet subnet) {
    return spec.name() + "-" + subnet.name();
  }

  static String subnetPart(Subnet subnet) {
    return "subnet-" + subnet.name();
  }

  // ---- Cloud DNS ---------------------------------------------------------------------------------------

  /** A network has at most one private zone: its name follows from the network's. */
  static String zoneName(NetworkSpec spec) {
    return spec.name() + "-dns";
  }

  /**
   * A private managed zone visible only from this network. Cloud DNS creates a zone in one call that answers
   * the zone, so a resumed step finds it by name and adopts it when its labels say its job made it.
   */
  private StepResult createZone(StepContext ctx, NetworkSpec spec) {
    ManagedZone existing = findZone(spec);
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(DNS_ZONE_PART.is("dnsZone")));
      ManagedZone wanted = new ManagedZone().setName(zoneName(spec)).setDnsName(spec.dnsZone() + ".")
          .setDescription("private zone of network " + spec.name()).setVisibility("private")
          .setLabels(new java.util.LinkedHashMap<>(GcpOwner.labels(ctx, "dns-zone")))
          .setPrivateVisibilityConfig(new ManagedZonePrivateVisibilityConfig().setNetworks(new ArrayList<>(List.of(
              new ManagedZonePrivateVisibilityConfigNetwork()
                  .setNetworkUrl(ctx.outputs().require(NETWORK_SELF_LINK))))));
      try {
        existing = calls.call(DNS_MANAGED_ZONES_CREATE, () -> GcpClients.io(() -> clients.dns().api().managedZones()
            .create(project, wanted).execute()));
      } catch (CloudCallException e) {
        if (!GcpErrors.isAlreadyExists(e)) {
          throw e;
        }
        existing = findZone(spec);
      }
    }
    Failure foreign = GcpOwner.TAGS.refuseForeign(existing.getLabels(), ctx, "DNS zone", zoneName(spec));
    return foreign != null ? StepResult.fail(foreign) : StepResult.done(DNS_ZONE_PART.is("dnsZone"),
        DNS_ZONE_ID.is(zoneName(spec)), DNS_ZONE_NAME.is(spec.dnsZone()));
  }

  private StepResult deleteZone(StepContext ctx, NetworkSpec spec) {
    ManagedZone existing = findZone(spec);
    if (existing != null && GcpOwner.TAGS.owns(existing.getLabels(), ctx)) {
      calls.deleteIfExists(DNS_MANAGED_ZONES_DELETE, () -> GcpClients.io(() -> clients.dns().api().managedZones()
          .delete(project, zoneName(spec)).execute()));
    }
    return StepResult.done();
  }

  private ManagedZone findZone(NetworkSpec spec) {
    return calls.findOrNull(DNS_MANAGED_ZONES_GET, () -> GcpClients.io(() -> clients.dns().api().managedZones()
        .get(project, zoneName(spec)).execute()));
  }



  // ---- peering -----------------------------------------------------------------------------------------

  /** Each side's peering, added where it is missing; the peering is active once both exist. */
  private StepResult addPeering(StepContext ctx, NetworkSpec spec) {
    String peer = peerName(spec);
    Network ours = findNetwork(spec.name());
    Network theirs = findNetwork(peer);
    if (theirs == null) {
      return StepResult.fail(Failure.userAction("peer_network_missing", "network " + peer + " does not exist in"
          + " project " + project, "Name an existing network of the project in peerVpcID, then retry.",
          "https://console.cloud.google.com/networking/networks/list?project=" + project));
    }
    ctx.recordIntent(Map.ofEntries(PEERING_PART.is("peering")));
    if (!peersWith(ours, peer)) {
      addPeering(spec.name(), peeringName(spec.name(), peer), theirs.getSelfLink());
    }
    if (!peersWith(theirs, spec.name())) {
      addPeering(peer, peeringName(peer, spec.name()), ours.getSelfLink());
    }
    return StepResult.done(PEERING_PART.is("peering"), PEERING_ID.is(peeringName(spec.name(), peer)));
  }

  private void addPeering(String network, String name, String peerSelfLink) {
    try {
      calls.call(COMPUTE_NETWORKS_ADD_PEERING, () -> clients.networks().addPeeringCallable().call(
          AddPeeringNetworkRequest.newBuilder().setProject(project).setNetwork(network)
              .setNetworksAddPeeringRequestResource(NetworksAddPeeringRequest.newBuilder().setNetworkPeering(
                  NetworkPeering.newBuilder().setName(name).setNetwork(peerSelfLink).setExchangeSubnetRoutes(true)))
              .build()));
    } catch (CloudCallException e) {
      // an earlier attempt's peering, accepted but unrecorded: Google refuses a second one of the same name
      GcpErrors.Answer answer = GcpErrors.answerOf(e.getCause());
      boolean taken = GcpErrors.isAlreadyExists(e) || answer != null && answer.status() == 400
          && String.valueOf(answer.message()).contains("already exists");
      if (!taken) {
        throw e;
      }
    }
  }

  private StepResult removePeering(StepContext ctx, NetworkSpec spec) {
    String peer = peerName(spec);
    removePeering(spec.name(), peeringName(spec.name(), peer));
    removePeering(peer, peeringName(peer, spec.name()));
    return StepResult.done();
  }

  private void removePeering(String network, String name) {
    Network found = findNetwork(network);
    if (found == null || found.getPeeringsList().stream().noneMatch(p -> p.getName().equals(name))) {
      return;
    }
    calls.deleteIfExists(COMPUTE_NETWORKS_REMOVE_PEERING, () -> clients.networks().removePeeringCallable().call(
        RemovePeeringNetworkRequest.newBuilder().setProject(project).setNetwork(network)
            .setNetworksRemovePeeringRequestResource(NetworksRemovePeeringRequest.newBuilder().setName(name))
            .build()));
  }

  private static boolean peersWith(Network network, String peer) {
    return network.getPeeringsList().stream().anyMatch(p -> p.getNetwork().endsWith("/networks/" + peer));
  }

  /** The peer as a network name: peerVpcID may be a name or a network's path or URL. */
  static String peerName(NetworkSpec spec) {
    String peer = spec.peerVpcId();
    return peer.substring(peer.lastIndexOf('/') + 1);
  }

  /** Peering names are per network, at most 63 characters. */
  static String peeringName(String from, String to) {
    String name = from + "-to-" + to;
    return name.length() <= 63 ? name : name.substring(0, 63);
  }
}
