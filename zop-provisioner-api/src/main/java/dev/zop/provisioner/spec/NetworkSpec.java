package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.ValidationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A network (VPC, VNet) with subnets, optionally peered with another network and given a private DNS zone.
 * A network with a public subnet gets an internet gateway and a route table that sends its traffic there;
 * private subnets get their own route table, through a NAT gateway when {@code natGateways} asks for one.
 *
 * @param peerVpcId   a network to peer with (request and accept, with routes on both sides); null for none
 * @param dnsZone     a private DNS zone to create, e.g. {@code internal.example.com}; null for none
 * @param natGateways {@code none} (the default: private subnets do not reach the internet), {@code single} (one
 *                    NAT gateway, in the first public subnet, for every private subnet) or {@code perZone} (one in
 *                    each zone that has a public subnet; a private subnet uses the one in its own zone). NAT
 *                    gateways are billed by the hour, and the plan prices them.
 */
public record NetworkSpec(
    String name,
    String cidr,
    List<Subnet> subnets,
    @JsonProperty("peerVpcID") String peerVpcId,
    String dnsZone,
    String natGateways) implements ResourceSpec {

  public static final String NAT_NONE = "none";
  public static final String NAT_SINGLE = "single";
  public static final String NAT_PER_ZONE = "perZone";

  private static final Pattern DOMAIN =
      Pattern.compile("(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}");

  public NetworkSpec {
    subnets = subnets == null ? List.of() : List.copyOf(subnets);
  }

  public NetworkSpec(String name, String cidr, List<Subnet> subnets, String peerVpcId, String dnsZone) {
    this(name, cidr, subnets, peerVpcId, dnsZone, null);
  }

  /** {@link #natGateways()} with the default filled in. */
  @JsonIgnore
  public String natGatewayMode() {
    return natGateways == null ? NAT_NONE : natGateways;
  }

  @JsonIgnore
  public List<Subnet> publicSubnets() {
    return subnets.stream().filter(s -> s != null && s.routedToInternet()).toList();
  }

  @JsonIgnore
  public List<Subnet> privateSubnets() {
    return subnets.stream().filter(s -> s != null && !s.routedToInternet()).toList();
  }

  public static Builder named(String name) {
    return new Builder().name(name);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().name(name).cidr(cidr).subnets(subnets).peerVpcId(peerVpcId).dnsZone(dnsZone)
        .natGateways(natGateways);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.NETWORK;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    c.resourceName("name", name, true);
    long[] network = c.required("cidr", cidr) ? c.cidr("cidr", cidr) : null;
    if (network != null && (network[1] < 16 || network[1] > 28)) {
      c.add("cidr", "out_of_range", "the prefix must be between /16 and /28");
    }
    List<long[]> blocks = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < subnets.size(); i++) {
      String at = "subnets[" + i + "]";
      Subnet subnet = subnets.get(i);
      if (subnet == null) {
        c.add(at, "required", "subnet must not be null");
        continue;
      }
      c.resourceName(at + ".name", subnet.name(), true);
      if (subnet.name() != null && !names.add(subnet.name())) {
        c.add(at + ".name", "duplicate", "subnet names must be unique");
      }
      long[] block = c.required(at + ".cidr", subnet.cidr()) ? c.cidr(at + ".cidr", subnet.cidr()) : null;
      if (block == null) {
        continue;
      }
      if (network != null && !Cidr.contains(network, block)) {
        c.add(at + ".cidr", "outside_network", "must lie inside the network's " + cidr);
      }
      for (long[] other : blocks) {
        if (Cidr.overlaps(other, block)) {
          c.add(at + ".cidr", "overlap", "overlaps another subnet");
          break;
        }
      }
      blocks.add(block);
    }
    c.cloudId("peerVpcID", peerVpcId);
    String nat = natGatewayMode();
    if (!nat.equals(NAT_NONE) && !nat.equals(NAT_SINGLE) && !nat.equals(NAT_PER_ZONE)) {
      c.add("natGateways", "invalid_value", "must be 'none', 'single' or 'perZone'");
    } else if (!nat.equals(NAT_NONE) && publicSubnets().isEmpty()) {
      c.add("natGateways", "requires_public_subnet",
          "a NAT gateway lives in a public subnet: mark at least one subnet \"public\": true");
    } else if (nat.equals(NAT_PER_ZONE)) {
      Set<String> publicZones = new HashSet<>();
      publicSubnets().forEach(s -> publicZones.add(s.zone()));
      if (publicZones.contains(null)) {
        c.add("natGateways", "requires_zones", "perZone needs every public subnet's zone to be named");
      }
    }
    c.matches("dnsZone", dnsZone, DOMAIN, "a lower-case domain name such as internal.example.com");
    return c.errors();
  }

  /** Builds a {@link NetworkSpec}; {@link #build()} validates. */
  public static final class Builder implements SpecBuilder<NetworkSpec> {
    private String name;
    private String cidr;
    private List<Subnet> subnets = new ArrayList<>();
    private String peerVpcId;
    private String dnsZone;
    private String natGateways;

    private Builder() {}

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder cidr(String value) {
      this.cidr = value;
      return this;
    }

    public Builder subnet(String subnetName, String subnetCidr) {
      this.subnets.add(Subnet.of(subnetName, subnetCidr));
      return this;
    }

    public Builder subnet(Subnet value) {
      this.subnets.add(value);
      return this;
    }

    /** {@code none}, {@code single} or {@code perZone}; see {@link NetworkSpec#natGateways()}. */
    public Builder natGateways(String value) {
      this.natGateways = value;
      return this;
    }

    public Builder subnets(List<Subnet> values) {
      this.subnets = new ArrayList<>(values);
      return this;
    }

    public Builder peerVpcId(String value) {
      this.peerVpcId = value;
      return this;
    }

    public Builder dnsZone(String value) {
      this.dnsZone = value;
      return this;
    }

    @Override
    public NetworkSpec build() {
      NetworkSpec spec = new NetworkSpec(name, cidr, subnets, peerVpcId, dnsZone, natGateways);
      ValidationException.throwIfAny(spec.validate());
      return spec;
    }
  }
}
