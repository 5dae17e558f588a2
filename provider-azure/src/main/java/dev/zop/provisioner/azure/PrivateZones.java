package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.core.management.SubResource;
import com.azure.resourcemanager.privatedns.fluent.models.PrivateZoneInner;
import com.azure.resourcemanager.privatedns.fluent.models.VirtualNetworkLinkInner;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.Map;

/**
 * Private DNS zones and their links to virtual networks, in a resource group: a network's own zone, and the zone
 * a flexible server with private access publishes its name in. Zones are global resources, whatever the
 * network's region; each carries its job in its tags like everything else the provider makes.
 */
final class PrivateZones {
  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final StatusPoll poll;

  PrivateZones(AzureClients clients, CloudCalls calls, String resourceGroup, StatusPoll poll) {
    this.clients = clients;
    this.calls = calls;
    this.resourceGroup = resourceGroup;
    this.poll = poll;
  }

  private ArmResource<PrivateZoneInner> zone(String zone) {
    return new ArmResource<>("private DNS zone", zone, () -> calls.findOrNull(PRIVATE_ZONES_READ,
        () -> clients.privateDns().serviceClient().getPrivateZones().getByResourceGroup(resourceGroup, zone)),
        PrivateZoneInner::tags, PrivateZoneInner::provisioningState);
  }

  private ArmResource<VirtualNetworkLinkInner> link(String zone, String link) {
    return new ArmResource<>("DNS zone link", link, () -> calls.findOrNull(ZONE_LINKS_READ,
        () -> clients.privateDns().serviceClient().getVirtualNetworkLinks().get(resourceGroup, zone, link)),
        VirtualNetworkLinkInner::tags, VirtualNetworkLinkInner::provisioningState);
  }

  /** The zone, made if missing; done with its id under {@code output}. */
  StepResult ensureZone(StepContext ctx, String zone, String part, OutputKey<String> output) {
    return zone(zone).ensure(ctx, poll, () -> {
      PrivateZoneInner wanted = new PrivateZoneInner();
      wanted.withLocation("global").withTags(AzureTags.OWNER.of(ctx, part));
      calls.call(PRIVATE_ZONES_WRITE, () -> clients.privateDns().serviceClient().getPrivateZones()
          .beginCreateOrUpdate(resourceGroup, zone, wanted));
    }, z -> true, z -> Map.ofEntries(output.is(z.id())));
  }

  /** The zone's link to a network (by ARM id), without registration of the network's machines. */
  StepResult ensureLink(StepContext ctx, String zone, String link, String networkId, OutputKey<String> part) {
    return link(zone, link).ensure(ctx, poll, () -> {
      VirtualNetworkLinkInner wanted = new VirtualNetworkLinkInner()
          .withVirtualNetwork(new SubResource().withId(networkId)).withRegistrationEnabled(false);
      wanted.withLocation("global").withTags(AzureTags.OWNER.of(ctx, part.name()));
      calls.call(ZONE_LINKS_WRITE, () -> clients.privateDns().serviceClient().getVirtualNetworkLinks()
          .beginCreateOrUpdate(resourceGroup, zone, link, wanted));
    }, l -> true, l -> Map.ofEntries(part.is(l.name())));
  }

  StepResult removeLink(StepContext ctx, String zone, String link) throws Exception {
    return link(zone, link).remove(ctx, poll, () -> calls.deleteIfExists(ZONE_LINKS_DELETE, () -> clients
        .privateDns().serviceClient().getVirtualNetworkLinks().beginDelete(resourceGroup, zone, link)));
  }

  StepResult removeZone(StepContext ctx, String zone) throws Exception {
    return zone(zone).remove(ctx, poll, () -> calls.deleteIfExists(PRIVATE_ZONES_DELETE, () -> clients
        .privateDns().serviceClient().getPrivateZones().beginDelete(resourceGroup, zone)));
  }
}
