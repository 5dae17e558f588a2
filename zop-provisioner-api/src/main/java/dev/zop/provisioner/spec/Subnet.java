package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A subnet of a network spec.
 *
 * @param zone     the availability zone; null lets the provider spread subnets across zones
 * @param isPublic {@code true} for a subnet routed to the internet through the network's internet gateway (load
 *                 balancers, NAT gateways, bastions); {@code false} or null for a private subnet, which reaches
 *                 the internet only through a NAT gateway when the network has one
 */
public record Subnet(String name, String cidr, String zone, @JsonProperty("public") Boolean isPublic) {

  public Subnet(String name, String cidr, String zone) {
    this(name, cidr, zone, null);
  }

  public static Subnet of(String name, String cidr) {
    return new Subnet(name, cidr, null, null);
  }

  /** A subnet routed to the internet gateway. */
  public static Subnet publicSubnet(String name, String cidr, String zone) {
    return new Subnet(name, cidr, zone, true);
  }

  /** A subnet with no route from the internet; it reaches out through a NAT gateway if the network has one. */
  public static Subnet privateSubnet(String name, String cidr, String zone) {
    return new Subnet(name, cidr, zone, false);
  }

  @JsonIgnore
  public boolean routedToInternet() {
    return Boolean.TRUE.equals(isPublic);
  }
}
