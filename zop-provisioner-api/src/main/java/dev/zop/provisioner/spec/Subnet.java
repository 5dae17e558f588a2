package dev.zop.provisioner.spec;

/**
 * A subnet of a network spec.
 *
 * @param zone the availability zone; null lets the provider spread subnets across zones
 */
public record Subnet(String name, String cidr, String zone) {
  public static Subnet of(String name, String cidr) {
    return new Subnet(name, cidr, null);
  }
}
