package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.Namespaces;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.Spaces;
import dev.zop.provisioner.wire.Requests.CreateNamespace;
import dev.zop.provisioner.wire.Requests.SpaceStatusChange;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.discovery.SpaceDiscovery;
import java.util.List;
import okhttp3.HttpUrl;

/** {@link Spaces} over {@code /spaces}. */
public final class RemoteSpaces implements Spaces {
  private static final TypeReference<List<Namespace>> NAMESPACES = new TypeReference<>() {};
  private static final TypeReference<List<DiscoveredNetwork>> NETWORKS = new TypeReference<>() {};
  private static final TypeReference<List<DiscoveredSubnet>> SUBNETS = new TypeReference<>() {};
  private static final TypeReference<List<DiscoveredDnsZone>> ZONES = new TypeReference<>() {};
  static final TypeReference<List<DiscoveredCluster>> CLUSTERS = new TypeReference<>() {};

  private final HttpTransport http;

  public RemoteSpaces(HttpTransport http) {
    this.http = http;
  }

  @Override
  public Space create(SpaceRequest request) {
    return http.send("POST", request, Space.class, "spaces");
  }

  @Override
  public Space get(SpaceId id) {
    return http.get(Space.class, "spaces", id.value());
  }

  @Override
  public List<Space> list() {
    return http.all(Space.class, "spaces");
  }

  @Override
  public Space setStatus(SpaceId id, SpaceStatus status) {
    return http.send("PATCH", new SpaceStatusChange(status.wireName()), Space.class, "spaces", id.value(),
        "status");
  }

  @Override
  public Kubeconfig kubeconfig(SpaceId id) {
    return http.send("POST", null, Kubeconfig.class, "spaces", id.value(), "kubeconfig");
  }

  @Override
  public Namespaces namespaces(SpaceId id) {
    String space = id.value();
    return new Namespaces() {
      @Override
      public List<Namespace> list() {
        return http.get(NAMESPACES.getType(), "space-discovery", space, "namespaces");
      }

      @Override
      public Namespace create(String name) {
        return http.send("POST", new CreateNamespace(name), Namespace.class, "space-discovery", space,
            "namespaces");
      }
    };
  }

  @Override
  public dev.zop.provisioner.discovery.Offerings offerings(SpaceId id) {
    return http.get(dev.zop.provisioner.discovery.Offerings.class, "space-discovery", id.value(), "offerings");
  }

  @Override
  public dev.zop.provisioner.SpaceCost cost(SpaceId id) {
    return http.get(dev.zop.provisioner.SpaceCost.class, "spaces", id.value(), "cost");
  }

  @Override
  public List<dev.zop.provisioner.SpaceCost> costs() {
    return http.get(new com.fasterxml.jackson.core.type.TypeReference<List<dev.zop.provisioner.SpaceCost>>() {}
        .getType(), "space-costs");
  }

  @Override
  public SpaceDiscovery discovery(SpaceId id) {
    String space = id.value();
    get(id); // a space that does not exist fails here, as it does embedded
    return new SpaceDiscovery() {
      @Override
      public List<DiscoveredNetwork> networks() {
        return http.get(NETWORKS.getType(), "space-discovery", space, "networks");
      }

      @Override
      public List<DiscoveredSubnet> subnets(String networkId) {
        HttpUrl.Builder url = http.url("space-discovery", space, "subnets");
        if (networkId != null) {
          url.addQueryParameter("networkID", networkId);
        }
        return http.get(url.build(), SUBNETS.getType());
      }

      @Override
      public List<DiscoveredDnsZone> dnsZones() {
        return http.get(ZONES.getType(), "space-discovery", space, "dns-zones");
      }

      @Override
      public List<DiscoveredCluster> clusters() {
        return http.get(CLUSTERS.getType(), "space-discovery", space, "clusters");
      }
    };
  }

  @Override
  public void delete(SpaceId id) {
    http.send("DELETE", null, Void.class, "spaces", id.value());
  }
}
