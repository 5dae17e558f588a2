package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.spi.Discovery;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.route53.Route53Client;

/** VPCs, subnets and EKS clusters of the region, and the account's Route 53 hosted zones; pages followed. */
final class AwsDiscovery implements Discovery {
  private final Ec2Client ec2;
  private final EksClient eks;
  private final Route53Client route53;

  AwsDiscovery(Ec2Client ec2, EksClient eks, Route53Client route53) {
    this.ec2 = ec2;
    this.eks = eks;
    this.route53 = route53;
  }

  @Override
  public List<DiscoveredNetwork> networks() {
    List<DiscoveredNetwork> out = new ArrayList<>();
    CALLS.call(EC2_DESCRIBE_VPCS, () -> {
      ec2.describeVpcsPaginator().vpcs().forEach(v -> out.add(new DiscoveredNetwork(v.vpcId(), name(v.tags()),
          v.cidrBlock(), Boolean.TRUE.equals(v.isDefault()))));
      return null;
    });
    return out;
  }

  @Override
  public List<DiscoveredSubnet> subnets(String networkId) {
    List<DiscoveredSubnet> out = new ArrayList<>();
    CALLS.call(EC2_DESCRIBE_SUBNETS, () -> {
      ec2.describeSubnetsPaginator(r -> {
        if (networkId != null) {
          r.filters(f -> f.name("vpc-id").values(networkId));
        }
      }).subnets().forEach(s -> out.add(new DiscoveredSubnet(s.subnetId(), s.vpcId(), s.cidrBlock(),
          s.availabilityZone())));
      return null;
    });
    return out;
  }

  @Override
  public List<DiscoveredCluster> clusters() {
    List<DiscoveredCluster> out = new ArrayList<>();
    List<String> names = new ArrayList<>();
    CALLS.call(EKS_LIST_CLUSTERS, () -> {
      eks.listClustersPaginator().clusters().forEach(names::add);
      return null;
    });
    for (String name : names) {
      Cluster c = CALLS.call(EKS_DESCRIBE_CLUSTER, () -> eks.describeCluster(r -> r.name(name))).cluster();
      out.add(new DiscoveredCluster(c.name(), c.version(), c.statusAsString(), c.endpoint()));
    }
    return out;
  }

  @Override
  public List<DiscoveredDnsZone> dnsZones() {
    List<DiscoveredDnsZone> out = new ArrayList<>();
    CALLS.call(ROUTE53_LIST_HOSTED_ZONES, () -> {
      route53.listHostedZonesPaginator().hostedZones().forEach(z -> out.add(new DiscoveredDnsZone(
          z.id().replace("/hostedzone/", ""), z.name().endsWith(".") ? z.name().substring(0, z.name().length() - 1)
              : z.name(), z.config() != null && Boolean.TRUE.equals(z.config().privateZone()))));
      return null;
    });
    return out;
  }

  private static String name(List<Tag> tags) {
    return tags.stream().filter(t -> t.key().equals(AwsTags.NAME)).map(Tag::value).findFirst().orElse(null);
  }
}
