package dev.zop.provisioner.gcp;

import com.google.api.client.http.javanet.NetHttpTransport;
import com.google.api.services.dns.Dns;
import com.google.api.services.dns.model.ManagedZone;
import com.google.api.services.dns.model.ManagedZonesListResponse;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Cloud DNS managed zones in {@link GcpFake}, from the discovery-generated client ({@link DiscoveryApiFake}). A
 * zone's create answers the zone itself (Cloud DNS has no operation for it); its DNS name must end with a dot.
 */
public final class CloudDnsFake extends DiscoveryApiFake {
  private final Map<String, ManagedZone> zones = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong(7_000_000L);

  CloudDnsFake(GcpFake fake) {
    super(fake);
    try {
      Dns client = new Dns.Builder(new NetHttpTransport(), JSON, null).setApplicationName("fake").build();
      route(client.managedZones().create("p", new ManagedZone()), "dns.managedZones.create", "create");
      route(client.managedZones().get("p", "z"), "dns.managedZones.get", "get");
      route(client.managedZones().list("p"), "dns.managedZones.list", "list");
      route(client.managedZones().delete("p", "z"), "dns.managedZones.delete", "delete");
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  void reset() {
    zones.clear();
  }

  /** Zones held, by project and name. */
  public Map<String, ManagedZone> zones() {
    return new TreeMap<>(zones);
  }

  @Override
  Reply answer(Route route, Map<String, String> vars, HttpExchange exchange) throws IOException {
    String project = vars.get("project");
    try {
      switch (route.method()) {
        case "create" -> {
          ManagedZone wanted = parse(exchange, ManagedZone.class);
          if (wanted.getName() == null || wanted.getDnsName() == null || !wanted.getDnsName().endsWith(".")) {
            return Reply.error(new GcpFake.Fault(400, "INVALID_ARGUMENT", "invalid",
                "Invalid value for 'entity.managedZone.dnsName': a fully qualified name ending with '.'"));
          }
          String key = project + "/" + wanted.getName();
          if (zones.containsKey(key)) {
            return Reply.error(new GcpFake.Fault(409, "ALREADY_EXISTS", "alreadyExists",
                "The resource 'entity.managedZone' named '" + wanted.getName() + "' already exists"));
          }
          ManagedZone stored = wanted.clone().setId(BigInteger.valueOf(ids.incrementAndGet()))
              .setKind("dns#managedZone").setNameServers(new ArrayList<>(java.util.List.of(
                  "ns-gcp-private.googledomains.com.")));
          zones.put(key, stored);
          fake.acceptedChange(route.permission());
          return Reply.ok(stored);
        }
        case "get" -> {
          ManagedZone found = zones.get(project + "/" + vars.get("managedZone"));
          return found == null ? missing() : Reply.ok(found);
        }
        case "list" -> {
          return Reply.ok(new ManagedZonesListResponse().setManagedZones(new ArrayList<>(zones.entrySet().stream()
              .filter(e -> e.getKey().startsWith(project + "/")).map(Map.Entry::getValue).toList())));
        }
        case "delete" -> {
          if (zones.remove(project + "/" + vars.get("managedZone")) == null) {
            return missing();
          }
          fake.acceptedChange(route.permission());
          return new Reply(204, "");
        }
        default -> throw new IllegalStateException(route.method());
      }
    } catch (BadRequest e) {
      return e.reply();
    }
  }

  private static Reply missing() {
    return Reply.error(new GcpFake.Fault(404, "NOT_FOUND", "notFound",
        "The 'parameters.managedZone' resource named 'zone' does not exist."));
  }
}
