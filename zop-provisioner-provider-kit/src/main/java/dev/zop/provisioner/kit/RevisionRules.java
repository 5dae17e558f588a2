package dev.zop.provisioner.kit;

import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.Step;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The refusals every provider makes of a revision alike. */
public final class RevisionRules {
  private RevisionRules() {}

  /**
   * Kubernetes moves one minor version at a time and never back, as every managed service allows: anything else is
   * refused on {@code version} ({@code kubernetes_downgrade}, {@code kubernetes_minor_skipped}).
   *
   * @param service who upgrades, for the message ({@code EKS})
   */
  public static Revision oneMinorUp(Revision revision, String service, String current, String revised) {
    int from = minor(current);
    int to = minor(revised);
    if (to < from) {
      revision.refuse("version", "kubernetes_downgrade", service + " cannot go back from " + current + " to "
          + revised);
    } else if (to > from + 1) {
      revision.refuse("version", "kubernetes_minor_skipped", service + " upgrades one minor version at a time: "
          + current + " to 1." + (from + 1) + " first");
    }
    return revision;
  }

  /**
   * A datastore keeps its data: its storage never shrinks ({@code storage_shrink}) and its engine never changes
   * ({@code engine_change}).
   *
   * @param what the datastore, for the message ({@code an RDS instance})
   */
  public static Revision keepsData(Revision revision, String what, DatastoreSpec current, DatastoreSpec revised) {
    if (current.allocatedStorageGb() != null && revised.allocatedStorageGb() != null
        && revised.allocatedStorageGb() < current.allocatedStorageGb()) {
      revision.refuse("allocatedStorageGB", "storage_shrink", "the storage of " + what + " cannot shrink ("
          + current.allocatedStorageGb() + " GB to " + revised.allocatedStorageGb() + " GB) without losing data");
    }
    if (revised.engine() != current.engine()) {
      revision.refuse("engine", "engine_change", "the engine of " + what + " cannot change; create a new datastore"
          + " and move the data");
    }
    return revision;
  }

  /**
   * A network grows where it stands, without touching what runs in it: subnets added, and a DNS zone where it had
   * none, each made by the step its create would run for it ({@code create-subnet-<name>}, and {@code zoneSteps}).
   * A subnet changed or dropped ({@code subnet_change}, {@code subnet_removal}) and a zone renamed or dropped
   * ({@code dns_zone_change}) are refused: resources in them would lose their addresses or names.
   *
   * @param create the provider's create steps for the revised spec
   */
  public static Revision networkGrows(NetworkSpec current, NetworkSpec revised, List<Step> create,
      String... zoneSteps) {
    Map<String, Subnet> had = current.subnets().stream().collect(Collectors.toMap(Subnet::name, Function.identity()));
    Set<String> added = revised.subnets().stream().map(Subnet::name).filter(n -> !had.containsKey(n))
        .map(n -> "create-subnet-" + n).collect(Collectors.toSet());
    boolean zoneAdded = current.dnsZone() == null && revised.dnsZone() != null;
    Set<String> zone = zoneAdded ? Set.of(zoneSteps) : Set.of();
    Revision revision = Revision.of(create.stream().filter(s -> added.contains(s.name()) || zone.contains(s.name()))
        .toList()).inPlace("subnets", "dnsZone");
    for (Subnet subnet : current.subnets()) {
      Subnet now = revised.subnets().stream().filter(s -> s.name().equals(subnet.name())).findFirst().orElse(null);
      if (now == null) {
        revision.refuse("subnets", "subnet_removal", "subnet " + subnet.name() + " stays: what runs in it would"
            + " lose its addresses; a network only gains subnets");
      } else if (!now.equals(subnet)) {
        revision.refuse("subnets", "subnet_change", "subnet " + subnet.name() + " keeps its range, zone and"
            + " exposure; add a subnet instead");
      }
    }
    if (current.dnsZone() != null && !Objects.equals(current.dnsZone(), revised.dnsZone())) {
      revision.refuse("dnsZone", "dns_zone_change", "the DNS zone " + current.dnsZone() + " stays: its records"
          + " would be lost; a network without a zone can gain one");
    }
    return revision;
  }

  private static int minor(String version) {
    return version == null ? 0 : Integer.parseInt(version.replaceAll("^\\d+\\.(\\d+).*$", "$1"));
  }
}
