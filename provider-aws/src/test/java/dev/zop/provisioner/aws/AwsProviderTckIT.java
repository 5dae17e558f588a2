package dev.zop.provisioner.aws;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import dev.zop.provisioner.testkit.tck.ProviderTck;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.ec2.model.VpcPeeringConnectionStateReasonCode;

/** The AWS provider against the provider TCK, on a moto server. */
class AwsProviderTckIT extends ProviderTck {
  private static final MotoServer MOTO = MotoServer.get();
  private final CallRecorder recorder = new CallRecorder();
  private final HaltSwitch halts = new HaltSwitch();
  private final AwsProvider provider = AwsProvider.withInterceptors(recorder, new HaltingInterceptor(halts))
      .pollingEvery(java.time.Duration.ofMillis(50));
  private Ec2Client ec2;
  private EcrClient ecr;
  private RdsClient rds;
  private software.amazon.awssdk.services.eks.EksClient eks;
  private software.amazon.awssdk.services.iam.IamClient iam;
  private software.amazon.awssdk.services.route53.Route53Client route53;
  private software.amazon.awssdk.services.autoscaling.AutoScalingClient autoscaling;
  private software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client elb;
  private ElastiCacheClient elasticache;
  private String peerVpc;
  private List<String> clusterSubnets;

  @BeforeEach
  void resetMoto() {
    MOTO.reset();
    ec2 = MOTO.client(Ec2Client.builder());
    ecr = MOTO.client(EcrClient.builder());
    rds = MOTO.client(RdsClient.builder());
    elasticache = MOTO.client(ElastiCacheClient.builder());
    eks = MOTO.client(software.amazon.awssdk.services.eks.EksClient.builder());
    iam = MOTO.client(software.amazon.awssdk.services.iam.IamClient.builder());
    autoscaling = MOTO.client(software.amazon.awssdk.services.autoscaling.AutoScalingClient.builder());
    elb = MOTO.client(software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client.builder());
    route53 = MOTO.client(software.amazon.awssdk.services.route53.Route53Client.builder());
    peerVpc = ec2.createVpc(r -> r.cidrBlock("172.16.0.0/16")).vpc().vpcId();
    clusterSubnets = List.of(
        ec2.createSubnet(r -> r.vpcId(peerVpc).cidrBlock("172.16.1.0/24").availabilityZone("us-east-1a")).subnet()
            .subnetId(),
        ec2.createSubnet(r -> r.vpcId(peerVpc).cidrBlock("172.16.2.0/24").availabilityZone("us-east-1b")).subnet()
            .subnetId());
  }

  @Override
  protected CloudProvider provider() {
    return provider;
  }

  @Override
  protected CloudAccount account() {
    return new CloudAccount(CloudAccountId.of("ca_moto"), "aws", "moto", "default-chain",
        Map.of("endpoint", MOTO.endpoint()), Instant.now());
  }

  @Override
  protected String region() {
    return "us-east-1";
  }

  @Override
  protected List<ResourceSpec> specs(String suffix) {
    return List.of(
        KubernetesSpec.named("tck-k8s-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2)
            .subnetIds(clusterSubnets).build(),
        VmPoolSpec.named("tck-pool-" + suffix).instanceType("t3.micro").size(1, 3).imageId("ami-12c6146b")
            .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
            .build(),
        NetworkSpec.named("tck-" + suffix).cidr("10.20.0.0/16")
            .subnet(Subnet.publicSubnet("edge-a", "10.20.0.0/24", "us-east-1a"))
            .subnet(Subnet.publicSubnet("edge-b", "10.20.3.0/24", "us-east-1b"))
            .subnet(Subnet.privateSubnet("a", "10.20.1.0/24", "us-east-1a"))
            .subnet(Subnet.privateSubnet("b", "10.20.2.0/24", "us-east-1b")).natGateways("perZone")
            .peerVpcId(peerVpc).dnsZone(suffix + ".internal.example.com").build(),
        RegistrySpec.named("tck/" + suffix),
        DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db.t3.medium")
            .allocatedStorageGb(20).vpcId(peerVpc).subnetIds(clusterSubnets).build(),
        DatastoreSpec.redis().name("tck-redis-" + suffix).version("7.1").instanceClass("cache.t3.small").build());
  }

  @Override
  protected List<Map.Entry<ResourceSpec, ResourceSpec>> revisions(String suffix) {
    return List.of(
        Map.entry(KubernetesSpec.named("tck-k8s-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2)
                .subnetIds(clusterSubnets).build(),
            KubernetesSpec.named("tck-k8s-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 2, 4)
                .nodeGroup("extra", "m5.large", 1, 1).subnetIds(clusterSubnets).build()),
        // a group's instance type: a new EKS node group of the type, then the old one drained and deleted
        Map.entry(KubernetesSpec.named("tck-eks-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2)
                .subnetIds(clusterSubnets).build(),
            KubernetesSpec.named("tck-eks-" + suffix).version("1.30").nodeGroup("ng", "m5.xlarge", 1, 3)
                .subnetIds(clusterSubnets).build()),
        Map.entry(DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db.t3.medium")
                .allocatedStorageGb(20).vpcId(peerVpc).subnetIds(clusterSubnets).build(),
            DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db.m5.large")
                .allocatedStorageGb(40).backupRetentionDays(14).vpcId(peerVpc).subnetIds(clusterSubnets).build()),
        Map.entry(VmPoolSpec.named("tck-pool-" + suffix).instanceType("t3.micro").size(1, 3).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
                .build(),
            VmPoolSpec.named("tck-pool-" + suffix).instanceType("t3.micro").size(2, 5).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
                .build()),
        // a rolling replacement onto a new instance type
        Map.entry(VmPoolSpec.named("tck-roll-" + suffix).instanceType("t3.micro").size(2, 3).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).build(),
            VmPoolSpec.named("tck-roll-" + suffix).instanceType("t3.small").size(2, 3).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).build()),
        // an application load balancer gains a listener and loses one
        Map.entry(VmPoolSpec.named("tck-alb-" + suffix).instanceType("t3.micro").size(1, 2).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "application")
                .listenerPorts(List.of(80, 8080)).build(),
            VmPoolSpec.named("tck-alb-" + suffix).instanceType("t3.micro").size(1, 2).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "application")
                .listenerPorts(List.of(80, 8081)).build()),
        // a network load balancer gains a port (its target group attached to the pool) and loses one
        Map.entry(VmPoolSpec.named("tck-nlb-" + suffix).instanceType("t3.micro").size(1, 2).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "network")
                .listenerPorts(List.of(80, 443)).build(),
            VmPoolSpec.named("tck-nlb-" + suffix).instanceType("t3.micro").size(1, 2).imageId("ami-12c6146b")
                .vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "network")
                .listenerPorts(List.of(80, 8443)).build()),
        // a network gains a public and a private subnet and a DNS zone
        Map.entry(NetworkSpec.named("tck-grow-" + suffix).cidr("10.40.0.0/16")
                .subnet(Subnet.publicSubnet("edge-a", "10.40.0.0/24", "us-east-1a"))
                .subnet(Subnet.privateSubnet("a", "10.40.1.0/24", "us-east-1a")).build(),
            NetworkSpec.named("tck-grow-" + suffix).cidr("10.40.0.0/16")
                .subnet(Subnet.publicSubnet("edge-a", "10.40.0.0/24", "us-east-1a"))
                .subnet(Subnet.privateSubnet("a", "10.40.1.0/24", "us-east-1a"))
                .subnet(Subnet.publicSubnet("edge-b", "10.40.3.0/24", "us-east-1b"))
                .subnet(Subnet.privateSubnet("b", "10.40.2.0/24", "us-east-1b"))
                .dnsZone("grow-" + suffix + ".internal.example.com").build()),
        Map.entry(RegistrySpec.named("tck/" + suffix),
            RegistrySpec.builder().name("tck/" + suffix).immutableTags(true).scanOnPush(true).build()));
  }

  @Override
  protected List<HandChange> changesByHand(String suffix) {
    return List.of(
        // the node group shrunk in the console
        new HandChange(KubernetesSpec.named("tck-drift-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2)
            .subnetIds(clusterSubnets).build(), recorded -> eks.updateNodegroupConfig(r -> r
                .clusterName("tck-drift-" + suffix).nodegroupName(recorded.get("nodegroup.ng.name"))
                .scalingConfig(c -> c.minSize(0).maxSize(5).desiredSize(0)))),
        // the database port closed to the VPC
        new HandChange(DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db.t3.medium")
            .allocatedStorageGb(20).vpcId(peerVpc).subnetIds(clusterSubnets).build(),
            recorded -> ec2.revokeSecurityGroupIngress(r -> r.groupId(recorded.get("dbSecurityGroupId"))
                .ipPermissions(p -> p.ipProtocol("tcp").fromPort(5432).toPort(5432)
                    .ipRanges(i -> i.cidrIp("172.16.0.0/16"))))),
        // the pool's bounds changed in the console
        new HandChange(VmPoolSpec.named("tck-drift-" + suffix).instanceType("t3.micro").size(1, 3)
            .imageId("ami-12c6146b").vpcId(peerVpc).subnetIds(clusterSubnets).build(),
            recorded -> autoscaling.updateAutoScalingGroup(r -> r.autoScalingGroupName(
                recorded.get("autoScalingGroupName")).minSize(0).maxSize(6).desiredCapacity(1))),
        // the load balancer's second listener deleted and its port closed on the balancer's group, in the console
        new HandChange(VmPoolSpec.named("tck-lbd-" + suffix).instanceType("t3.micro").size(1, 2)
            .imageId("ami-12c6146b").vpcId(peerVpc).subnetIds(clusterSubnets).loadBalancer(true, "application")
            .listenerPorts(List.of(80, 8080)).build(),
            recorded -> {
              elb.describeListeners(r -> r.loadBalancerArn(recorded.get("loadBalancerArn"))).listeners().stream()
                  .filter(l -> l.port() == 8080).forEach(l -> elb.deleteListener(r -> r.listenerArn(l.listenerArn())));
              ec2.revokeSecurityGroupIngress(r -> r.groupId(recorded.get("lbSecurityGroupId"))
                  .ipPermissions(p -> p.ipProtocol("tcp").fromPort(8080).toPort(8080)
                      .ipRanges(i -> i.cidrIp("0.0.0.0/0"))));
            }),
        // tags made mutable and scanning turned off in the console
        new HandChange(RegistrySpec.builder().name("tck/drift-" + suffix).immutableTags(true).scanOnPush(true).build(),
            recorded -> {
              ecr.putImageTagMutability(r -> r.repositoryName("tck/drift-" + suffix)
                  .imageTagMutability(software.amazon.awssdk.services.ecr.model.ImageTagMutability.MUTABLE));
              ecr.putImageScanningConfiguration(r -> r.repositoryName("tck/drift-" + suffix)
                  .imageScanningConfiguration(c -> c.scanOnPush(false)));
            }));
  }

  @Override
  protected List<MadeByHand> madeByHand(String suffix) {
    return List.of(new MadeByHand(dev.zop.provisioner.JobKind.NETWORK, () -> {
      String vpc = ec2.createVpc(r -> r.cidrBlock("10.70.0.0/16").tagSpecifications(t -> t
          .resourceType(software.amazon.awssdk.services.ec2.model.ResourceType.VPC)
          .tags(tag -> tag.key("Name").value("hand-" + suffix)))).vpc().vpcId();
      for (String zone : List.of("a", "b")) {
        ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock(zone.equals("a") ? "10.70.1.0/24" : "10.70.2.0/24")
            .availabilityZone("us-east-1" + zone).tagSpecifications(t -> t
                .resourceType(software.amazon.awssdk.services.ec2.model.ResourceType.SUBNET)
                .tags(tag -> tag.key("Name").value("hand-" + suffix + "-" + zone))));
      }
      return vpc;
    }));
  }

  @Override
  protected int callMark() {
    return recorder.mark();
  }

  @Override
  protected List<String> operationsSince(int mark) {
    return recorder.since(mark);
  }

  @Override
  protected List<String> inventory() {
    List<String> all = new ArrayList<>();
    // stable descriptions with the attributes a resumed step must get right (tags, rules), never cloud ids
    ec2.describeVpcs().vpcs().stream().filter(v -> !v.isDefault())
        .forEach(v -> all.add("vpc " + v.cidrBlock() + " " + ec2Tags(v.tags())));
    ec2.describeSubnets().subnets().stream().filter(s -> !s.defaultForAz())
        .forEach(s -> all.add("subnet " + s.cidrBlock() + " " + ec2Tags(s.tags())));
    ec2.describeVpcPeeringConnections().vpcPeeringConnections().stream()
        .filter(p -> p.status().code() != VpcPeeringConnectionStateReasonCode.DELETED)
        .forEach(p -> all.add("peering " + p.requesterVpcInfo().cidrBlock() + " to " + p.accepterVpcInfo().cidrBlock()
            + " " + p.status().codeAsString() + " " + ec2Tags(p.tags())));
    Map<String, String> cidrOfVpc = ec2.describeVpcs().vpcs().stream()
        .collect(Collectors.toMap(v -> v.vpcId(), v -> v.cidrBlock()));
    ec2.describeInternetGateways().internetGateways().forEach(g -> all.add("igw attached to " + g.attachments()
        .stream().map(a -> cidrOfVpc.get(a.vpcId())).sorted().toList() + " " + ec2Tags(g.tags())));
    ec2.describeNatGateways().natGateways().stream().filter(n -> !n.stateAsString().equals("deleted"))
        .forEach(n -> all.add("nat " + n.stateAsString() + " " + ec2Tags(n.tags())));
    ec2.describeAddresses().addresses().forEach(a -> all.add("eip " + ec2Tags(a.tags())));
    // every table with its routes by destination and kind of target, so a doubled or missing route shows
    ec2.describeRouteTables().routeTables().forEach(t -> all.add("rt in " + cidrOfVpc.get(t.vpcId())
        + (t.associations().stream().anyMatch(a -> Boolean.TRUE.equals(a.main())) ? " main" : "")
        + " routes " + t.routes().stream().map(r -> r.destinationCidrBlock() + "->" + (r.natGatewayId() != null
            ? "nat" : r.vpcPeeringConnectionId() != null ? "pcx" : r.gatewayId())).map(s -> s.replaceAll(
                "igw-[0-9a-f]+", "igw")).sorted().toList()
        + " subnets " + t.associations().stream().filter(a -> a.subnetId() != null).count() + " " + ec2Tags(t.tags())));
    ecr.describeRepositories().repositories().forEach(r -> all.add("ecr " + r.repositoryName() + " "
        + r.imageTagMutabilityAsString() + " scan=" + (r.imageScanningConfiguration() == null ? null
            : r.imageScanningConfiguration().scanOnPush())));
    eks.listClusters().clusters().forEach(c -> {
      all.add("eks " + c);
      eks.listNodegroups(r -> r.clusterName(c)).nodegroups().forEach(g -> {
        var scaling = eks.describeNodegroup(r -> r.clusterName(c).nodegroupName(g)).nodegroup().scalingConfig();
        all.add("nodegroup " + c + "/" + g + " " + scaling.minSize() + ".." + scaling.maxSize() + " desired "
            + scaling.desiredSize());
      });
    });
    route53.listHostedZones().hostedZones().forEach(z -> all.add("zone " + z.name() + " private="
        + z.config().privateZone() + " " + new TreeMap<>(route53.listTagsForResource(r -> r
            .resourceType(software.amazon.awssdk.services.route53.model.TagResourceType.HOSTEDZONE)
            .resourceId(z.id().substring(z.id().lastIndexOf('/') + 1))).resourceTagSet().tags().stream()
        .collect(Collectors.toMap(t -> t.key(), t -> t.value())))));
    ec2.describeInstances().reservations().forEach(r -> r.instances().stream()
        .filter(i -> !i.state().nameAsString().equals("terminated"))
        .forEach(i -> all.add("instance " + i.instanceTypeAsString() + " " + i.imageId() + " " + ec2Tags(i.tags()))));
    ec2.describeSecurityGroups().securityGroups().stream().filter(g -> !g.groupName().equals("default"))
        .forEach(g -> all.add("sg " + g.groupName() + " ingress " + g.ipPermissions().stream()
            .map(p -> p.ipProtocol() + ":" + p.fromPort() + "-" + p.toPort() + " from " + p.ipRanges().stream()
                .map(r -> r.cidrIp()).sorted().toList() + " and " + p.userIdGroupPairs().size() + " group(s)")
            .sorted().toList() + " " + ec2Tags(g.tags())));
    rds.describeDBSubnetGroups().dbSubnetGroups().forEach(g -> all.add("dbsubnets " + g.dbSubnetGroupName()));
    ec2.describeLaunchTemplates().launchTemplates().forEach(t -> all.add("lt " + t.launchTemplateName()));
    autoscaling.describeAutoScalingGroups().autoScalingGroups().forEach(g -> all.add("asg " + g.autoScalingGroupName()
        + " " + g.minSize() + ".." + g.maxSize() + " desired " + g.desiredCapacity()));
    elb.describeLoadBalancers().loadBalancers().forEach(b -> all.add("lb " + b.loadBalancerName()));
    elb.describeTargetGroups().targetGroups().forEach(g -> all.add("tg " + g.targetGroupName() + " "
        + g.protocolAsString() + ":" + g.port()));
    elb.describeLoadBalancers().loadBalancers().forEach(b -> elb.describeListeners(r -> r.loadBalancerArn(
        b.loadBalancerArn())).listeners().forEach(l -> all.add("listener " + b.loadBalancerName() + " "
            + l.protocolAsString() + ":" + l.port())));
    iam.listRoles().roles().forEach(r -> all.add("role " + r.roleName()));
    rds.describeDBInstances().dbInstances().forEach(d -> all.add("rds " + d.dbInstanceIdentifier() + " "
        + d.dbInstanceClass() + " " + d.allocatedStorage() + "GB backups=" + d.backupRetentionPeriod() + " multiAZ="
        + d.multiAZ()));
    elasticache.describeReplicationGroups().replicationGroups().stream()
        .filter(g -> !"deleting".equals(g.status())) // accepted for deletion; moto never removes them
        .forEach(g -> all.add("redis " + g.replicationGroupId() + " auth=" + g.authTokenEnabled() + " tls="
            + g.transitEncryptionEnabled() + " snapshots=" + g.snapshotRetentionLimit()));
    return all.stream().sorted().toList();
  }

  private static Map<String, String> ec2Tags(List<software.amazon.awssdk.services.ec2.model.Tag> tags) {
    // tags AWS adds itself (aws:...) carry cloud ids, not what the provider set
    return new TreeMap<>(tags.stream().filter(t -> !t.key().startsWith("aws:"))
        .collect(Collectors.toMap(t -> t.key(), t -> t.value())));
  }

  @Override
  protected HaltSwitch halts() {
    return halts;
  }

  @Override
  protected Throwable permissionDenied() {
    return new dev.zop.provisioner.kit.CloudCallException("ec2:CreateVpc", software.amazon.awssdk.awscore.exception.AwsServiceException
        .builder().statusCode(403).awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
            .errorCode("UnauthorizedOperation").errorMessage("You are not authorized").build()).build());
  }

  @Override
  protected Throwable throttled() {
    return new dev.zop.provisioner.kit.CloudCallException("ec2:CreateVpc", software.amazon.awssdk.awscore.exception.AwsServiceException
        .builder().statusCode(503).awsErrorDetails(software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
            .errorCode("RequestLimitExceeded").errorMessage("Request limit exceeded").build()).build());
  }
}
