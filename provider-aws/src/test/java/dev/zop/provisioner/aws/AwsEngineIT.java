package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.SecretStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.acm.AcmClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.iam.model.AccessKey;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.ssm.SsmClient;

/** Whole jobs on the embedded engine with the real AWS SDK against moto. */
class AwsEngineIT {
  private static final MotoServer MOTO = MotoServer.get();
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  private final CallRecorder recorder = new CallRecorder();
  /** Throttles a read: a throttled call must not have changed anything, as with real throttling. */
  private final ThrottlingInterceptor throttling = new ThrottlingInterceptor("DescribeVpcs");
  private final CreatingStatusInterceptor creating = new CreatingStatusInterceptor();
  /** moto lacks EKS access entries: this stands in for those three operations. */
  private final AccessEntryStandIn accessEntries = new AccessEntryStandIn();
  private EmbeddedProvisioner zop;
  private CloudAccount account;
  private Space space;
  private Ec2Client ec2;

  @BeforeEach
  void start() {
    MOTO.reset();
    zop = EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false)
        .provider(AwsProvider.withInterceptors(recorder, throttling, creating, accessEntries)
            .pollingEvery(Duration.ofMillis(50)))
        .pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(3, Duration.ofMillis(10), Duration.ofMillis(50)))
        .build();
    account = zop.accounts().create(CloudAccountRequest.of("aws", "moto").credentialsRef("default-chain")
        .property("endpoint", MOTO.endpoint()));
    space = zop.spaces().create(SpaceRequest.of("aws", "platform-us-east-1", account.id()).region("us-east-1"));
    ec2 = MOTO.client(Ec2Client.builder());
  }

  @AfterEach
  void stop() {
    MOTO.stopEnforcingIam();
    zop.close();
  }

  private long ourVpcs() {
    return ec2.describeVpcs().vpcs().stream().filter(v -> !v.isDefault()).count();
  }

  @Test
  void networkAndRegistryLifecycleLeaveMotoEmpty() {
    String peer = ec2.createVpc(r -> r.cidrBlock("172.31.0.0/16")).vpc().vpcId();
    NetworkSpec spec = NetworkSpec.named("core").cidr("10.0.0.0/16").subnet("private-a", "10.0.1.0/24")
        .subnet("private-b", "10.0.2.0/24").peerVpcId(peer).dnsZone("core.internal.example.com").build();

    Plan plan = zop.jobs().plan(space.id(), spec);
    assertThat(plan.permissions()).contains("ec2:CreateVpc", "ec2:CreateSubnet", "ec2:CreateVpcPeeringConnection",
        "ec2:AcceptVpcPeeringConnection");
    // planning changes nothing: its only calls read, to check that the peer VPC exists
    assertThat(recorder.since(0)).isNotEmpty().allMatch(call -> call.startsWith("ec2:Describe"));

    Job network = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);
    Job registry = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("platform/api")).id(), WAIT);

    assertThat(network.status()).isEqualTo(JobStatus.SUCCEEDED);
    String vpcId = network.outputs().get("vpcId");
    assertThat(ec2.describeVpcs(r -> r.vpcIds(vpcId)).vpcs().get(0).cidrBlock()).isEqualTo("10.0.0.0/16");
    assertThat(ec2.describeSubnets(r -> r.filters(f -> f.name("vpc-id").values(vpcId))).subnets()).hasSize(2);
    assertThat(ec2.describeVpcPeeringConnections(r -> r.vpcPeeringConnectionIds(network.outputs().get("peeringId")))
        .vpcPeeringConnections().get(0).status().codeAsString()).isEqualTo("active");
    assertThat(registry.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(registry.outputs().get("repositoryUri")).endsWith("platform/api");

    // discovery sees what the jobs made, as a wizard would
    try (ProviderSession session = new AwsProvider().open(account, "us-east-1")) {
      Discovery discovery = session.discovery();
      assertThat(discovery.networks()).extracting(DiscoveredNetwork::id).contains(vpcId, peer);
      assertThat(discovery.subnets(vpcId)).extracting(DiscoveredSubnet::cidr)
          .containsExactlyInAnyOrder("10.0.1.0/24", "10.0.2.0/24");
      assertThat(discovery.dnsZones()).singleElement().satisfies(z -> {
        assertThat(z.name()).isEqualTo("core.internal.example.com");
        assertThat(z.privateZone()).isTrue();
        assertThat(z.id()).isEqualTo(network.outputs().get("dnsZoneId"));
      });
      assertThat(discovery.clusters()).isEmpty();
    } catch (Exception e) {
      throw new AssertionError(e);
    }

    assertThat(zop.jobs().await(zop.jobs().delete(network.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().await(zop.jobs().delete(registry.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(ourVpcs()).isEqualTo(1); // only the peer this test made itself
    try (ProviderSession session = new AwsProvider().open(account, "us-east-1")) {
      assertThat(session.discovery().dnsZones()).isEmpty();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(ec2.describeSubnets().subnets().stream().filter(s -> !s.defaultForAz())).isEmpty();
  }

  @Test
  void aNetworkCarriesTrafficOutThroughItsGatewaysAndAcrossItsPeeringBothWays() {
    String peer = ec2.createVpc(r -> r.cidrBlock("172.30.0.0/16")).vpc().vpcId();
    NetworkSpec spec = NetworkSpec.named("traffic").cidr("10.40.0.0/16")
        .subnet(Subnet.publicSubnet("edge-a", "10.40.0.0/24", "us-east-1a"))
        .subnet(Subnet.publicSubnet("edge-b", "10.40.1.0/24", "us-east-1b"))
        .subnet(Subnet.privateSubnet("app-a", "10.40.10.0/24", "us-east-1a"))
        .subnet(Subnet.privateSubnet("app-b", "10.40.11.0/24", "us-east-1b"))
        .natGateways("perZone").peerVpcId(peer).build();

    Plan plan = zop.jobs().plan(space.id(), spec);
    assertThat(plan.permissions()).contains("ec2:CreateInternetGateway", "ec2:CreateNatGateway",
        "ec2:AllocateAddress", "ec2:CreateRouteTable", "ec2:CreateRoute", "ec2:AssociateRouteTable");
    // two NAT gateways at 0.045/h and their two public addresses at 0.005/h: 2 x 730 x 0.05
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("73.00");
    assertThat(plan.costs()).extracting(c -> c.name()).contains("NAT gateway", "NAT gateway data processing");

    Job network = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);
    assertThat(network.status()).isEqualTo(JobStatus.SUCCEEDED);
    String vpcId = network.outputs().get("vpcId");
    String igw = network.outputs().get("internetGatewayId");
    assertThat(ec2.describeInternetGateways(r -> r.internetGatewayIds(igw)).internetGateways().get(0).attachments())
        .singleElement().satisfies(a -> assertThat(a.vpcId()).isEqualTo(vpcId));

    var subnets = ec2.describeSubnets(r -> r.filters(f -> f.name("vpc-id").values(vpcId))).subnets();
    Map<String, String> zoneOf = subnets.stream().collect(java.util.stream.Collectors.toMap(
        s -> s.subnetId(), s -> s.availabilityZone()));
    Map<String, software.amazon.awssdk.services.ec2.model.RouteTable> tableOf = new java.util.HashMap<>();
    ec2.describeRouteTables(r -> r.filters(f -> f.name("vpc-id").values(vpcId))).routeTables()
        .forEach(t -> t.associations().stream().filter(a -> a.subnetId() != null)
            .forEach(a -> tableOf.put(a.subnetId(), t)));
    var nats = ec2.describeNatGateways(r -> r.filter(f -> f.name("vpc-id").values(vpcId))).natGateways();
    assertThat(nats).hasSize(2).allSatisfy(n -> assertThat(n.stateAsString()).isEqualTo("available"));
    Map<String, String> natZone = nats.stream().collect(java.util.stream.Collectors.toMap(
        n -> n.natGatewayId(), n -> zoneOf.get(n.subnetId())));

    for (String id : network.outputs().get("publicSubnetIDs").split(",")) {
      assertThat(subnets).filteredOn(s -> s.subnetId().equals(id)).singleElement()
          .satisfies(s -> assertThat(s.mapPublicIpOnLaunch()).isTrue());
      assertThat(tableOf.get(id).routes()).anySatisfy(r -> {
        assertThat(r.destinationCidrBlock()).isEqualTo("0.0.0.0/0");
        assertThat(r.gatewayId()).isEqualTo(igw);
      });
      // the NAT gateways live in the public subnets, one per zone
      assertThat(nats).anySatisfy(n -> assertThat(n.subnetId()).isEqualTo(id));
    }
    String[] privateIds = network.outputs().get("privateSubnetIDs").split(",");
    assertThat(privateIds).hasSize(2);
    for (String id : privateIds) {
      // each private subnet leaves through the NAT gateway in its own zone, never the internet gateway directly
      assertThat(tableOf.get(id).routes()).anySatisfy(r -> {
        assertThat(r.destinationCidrBlock()).isEqualTo("0.0.0.0/0");
        assertThat(natZone.get(r.natGatewayId())).isEqualTo(zoneOf.get(id));
      }).noneSatisfy(r -> assertThat(r.gatewayId()).isEqualTo(igw));
    }
    // the peering routes both ways: every table of ours to the peer, the peer's tables back to us
    String pcx = network.outputs().get("peeringId");
    assertThat(tableOf.values()).allSatisfy(t -> assertThat(t.routes()).anySatisfy(r -> {
      assertThat(r.destinationCidrBlock()).isEqualTo("172.30.0.0/16");
      assertThat(r.vpcPeeringConnectionId()).isEqualTo(pcx);
    }));
    assertThat(ec2.describeRouteTables(r -> r.filters(f -> f.name("vpc-id").values(peer))).routeTables())
        .isNotEmpty().allSatisfy(t -> assertThat(t.routes()).anySatisfy(r -> {
          assertThat(r.destinationCidrBlock()).isEqualTo("10.40.0.0/16");
          assertThat(r.vpcPeeringConnectionId()).isEqualTo(pcx);
        }));

    assertThat(zop.jobs().await(zop.jobs().delete(network.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(ec2.describeVpcs().vpcs()).extracting(v -> v.vpcId()).doesNotContain(vpcId);
    assertThat(ec2.describeInternetGateways(r -> r.filters(f -> f.name("tag:zop:job").values(network.id().value())))
        .internetGateways()).isEmpty();
    assertThat(ec2.describeNatGateways().natGateways()).allSatisfy(n -> assertThat(n.stateAsString())
        .isEqualTo("deleted"));
    assertThat(ec2.describeAddresses().addresses()).isEmpty();
    assertThat(ec2.describeRouteTables(r -> r.filters(f -> f.name("vpc-id").values(peer))).routeTables())
        .allSatisfy(t -> assertThat(t.routes()).noneSatisfy(r -> assertThat(r.destinationCidrBlock())
            .isEqualTo("10.40.0.0/16")));
    assertThat(ourVpcs()).isEqualTo(1); // only the peer this test made itself
  }

  @Test
  void twoNetworksPeeringOneVpcEachKeepTheirOwnPeeringWhereTheCloudIgnoresTheTagFilter() {
    String peer = ec2.createVpc(r -> r.cidrBlock("172.29.0.0/16")).vpc().vpcId();
    Job first = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("peer-a").cidr("10.42.0.0/16")
        .subnet(Subnet.privateSubnet("a", "10.42.0.0/24", "us-east-1a")).peerVpcId(peer).build()).id(), WAIT);
    assertThat(first.status()).isEqualTo(JobStatus.SUCCEEDED);
    String firstPeering = first.outputs().get("peeringId");
    // the point of this test: moto answers a tag filter on peerings with every peering there is, so the second
    // job's step finds the first job's peering first and must see from its tags that it is not its own
    assertThat(ec2.describeVpcPeeringConnections(r -> r.filters(f -> f.name("tag:zop:job").values("job_nobody")))
        .vpcPeeringConnections()).as("moto ignores the tag filter").isNotEmpty();

    Job second = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("peer-b").cidr("10.43.0.0/16")
        .subnet(Subnet.privateSubnet("b", "10.43.0.0/24", "us-east-1a")).peerVpcId(peer).build()).id(), WAIT);
    assertThat(second.status()).isEqualTo(JobStatus.SUCCEEDED);
    String secondPeering = second.outputs().get("peeringId");
    assertThat(secondPeering).isNotEqualTo(firstPeering);
    for (Job job : List.of(first, second)) {
      var peering = ec2.describeVpcPeeringConnections(r -> r.vpcPeeringConnectionIds(job.outputs().get("peeringId")))
          .vpcPeeringConnections().get(0);
      assertThat(peering.requesterVpcInfo().vpcId()).isEqualTo(job.outputs().get("vpcId"));
      assertThat(peering.accepterVpcInfo().vpcId()).isEqualTo(peer);
      assertThat(peering.tags()).anySatisfy(t -> {
        assertThat(t.key()).isEqualTo("zop:job");
        assertThat(t.value()).isEqualTo(job.id().value());
      });
    }

    for (Job job : List.of(second, first)) {
      assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    }
    assertThat(ec2.describeVpcPeeringConnections(r -> r.vpcPeeringConnectionIds(firstPeering, secondPeering))
        .vpcPeeringConnections()).allSatisfy(p -> assertThat(p.status().codeAsString()).isEqualTo("deleted"));
    assertThat(ourVpcs()).isEqualTo(1); // only the peer this test made itself
  }

  @Test
  void aSingleNatGatewayServesEveryPrivateSubnetAndANetworkWithoutOneRoutesOnlyLocally() {
    NetworkSpec single = NetworkSpec.named("one-nat").cidr("10.41.0.0/16")
        .subnet(Subnet.publicSubnet("edge", "10.41.0.0/24", "us-east-1a"))
        .subnet(Subnet.privateSubnet("app-a", "10.41.10.0/24", "us-east-1a"))
        .subnet(Subnet.privateSubnet("app-b", "10.41.11.0/24", "us-east-1b")).natGateways("single").build();
    // one NAT gateway and its address: 730 x 0.05
    assertThat(zop.jobs().plan(space.id(), single).monthlyTotal()).isEqualByComparingTo("36.50");
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), single).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    String nat = job.outputs().get("nat.id");
    for (String id : job.outputs().get("privateSubnetIDs").split(",")) {
      var table = ec2.describeRouteTables(r -> r.filters(f -> f.name("association.subnet-id").values(id)))
          .routeTables();
      assertThat(table).singleElement().satisfies(t -> assertThat(t.routes()).anySatisfy(r -> {
        assertThat(r.destinationCidrBlock()).isEqualTo("0.0.0.0/0");
        assertThat(r.natGatewayId()).isEqualTo(nat);
      }));
    }

    NetworkSpec isolated = NetworkSpec.named("isolated").cidr("10.42.0.0/16")
        .subnet(Subnet.privateSubnet("app", "10.42.1.0/24", null)).build();
    assertThat(zop.jobs().plan(space.id(), isolated).monthlyTotal()).isEqualByComparingTo("0");
    Job local = zop.jobs().await(zop.jobs().submit(space.id(), isolated).id(), WAIT);
    assertThat(local.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(local.outputs()).doesNotContainKey("internetGatewayId");
    String subnet = local.outputs().get("privateSubnetIDs");
    assertThat(ec2.describeRouteTables(r -> r.filters(f -> f.name("association.subnet-id").values(subnet)))
        .routeTables()).singleElement().satisfies(t -> assertThat(t.routes())
            .allSatisfy(r -> assertThat(r.gatewayId()).isEqualTo("local")));

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().await(zop.jobs().delete(local.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(ourVpcs()).isZero();
    assertThat(ec2.describeAddresses().addresses()).isEmpty();
  }

  @Test
  void anEksClusterThatTakesItsTimeIsWaitedForWithoutAThreadAndRegistersItsSpace() {
    String vpc = ec2.createVpc(r -> r.cidrBlock("10.8.0.0/16")).vpc().vpcId();
    String a = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.8.1.0/24").availabilityZone("us-east-1a")).subnet()
        .subnetId();
    String b = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.8.2.0/24").availabilityZone("us-east-1b")).subnet()
        .subnetId();
    KubernetesSpec spec = KubernetesSpec.named("platform-prod").version("1.30")
        .nodeGroup("default", "m5.large", 2, 6).vpcId(vpc).subnetIds(a, b).build();

    Plan plan = zop.jobs().plan(space.id(), spec);
    assertThat(plan.permissions()).contains("eks:CreateCluster", "iam:PassRole", "iam:CreateRole",
        "eks:CreateNodegroup");
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("213.16"); // 730 x 0.10 + 2 x 730 x 0.096
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), spec.toBuilder().subnetIds(a).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.subnetIDs"));

    // naming an existing control-plane role replaces the step that would create one
    Plan withRole = zop.jobs().plan(space.id(), spec.toBuilder()
        .clusterRole("arn:aws:iam::123456789012:role/platform-eks").build());
    assertThat(withRole.steps()).extracting(s -> s.name()).doesNotContain("create-cluster-role")
        .contains("create-node-role", "create-cluster");
    assertThatThrownBy(() -> zop.jobs().plan(space.id(), spec.toBuilder().clusterRole("platform-eks").build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.clusterRole"));

    creating.creatingFor(3);
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);

    assertThat(job.status()).as("%s", job.lastFailure()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(creating.rewritten()).isEqualTo(3);
    assertThat(zop.jobs().events(job.id(), 0)).filteredOn(e -> e.type() == dev.zop.provisioner.JobEventType.STEP_WAITING)
        .hasSize(3).allSatisfy(e -> assertThat(e.message()).contains("CREATING"));
    assertThat(step(job, "await-cluster").attempts()).isEqualTo(1);
    assertThat(job.outputs()).containsEntry("clusterName", "platform-prod").containsKeys("endpoint", "spaceId");
    dev.zop.provisioner.SpaceId clusterSpace = dev.zop.provisioner.SpaceId.of(job.outputs().get("spaceId"));
    assertThat(zop.spaces().get(clusterSpace).name()).isEqualTo("platform-prod-us-east-1");

    // a kubeconfig as `aws eks get-token` would make it: a presigned STS GetCallerIdentity for this cluster
    Kubeconfig kubeconfig = zop.spaces().kubeconfig(clusterSpace);
    assertThat(kubeconfig.server()).isEqualTo(job.outputs().get("endpoint"));
    assertThat(kubeconfig.token()).startsWith("k8s-aws-v1.");
    String url = new String(java.util.Base64.getUrlDecoder().decode(kubeconfig.token().substring(11)),
        java.nio.charset.StandardCharsets.UTF_8);
    assertThat(url).startsWith(MOTO.endpoint()).contains("Action=GetCallerIdentity", "X-Amz-Expires=60",
        "X-Amz-Signature=").containsPattern("X-Amz-SignedHeaders=[^&]*x-k8s-aws-id");
    // moto routes query-signed requests without a service host to S3, so the URL is checked, not called
    assertThat(url).contains("X-Amz-Algorithm=AWS4-HMAC-SHA256", "%2Fus-east-1%2Fsts%2Faws4_request");

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    EksClient eks = MOTO.client(EksClient.builder());
    assertThat(eks.listClusters().clusters()).isEmpty();
    IamClient iam = MOTO.client(IamClient.builder());
    assertThat(iam.listRoles().roles()).noneMatch(r -> r.roleName().startsWith("zop-"));
  }

  @Test
  void aVmPoolBehindAnApplicationLoadBalancer() {
    String vpc = ec2.createVpc(r -> r.cidrBlock("10.9.0.0/16")).vpc().vpcId();
    String a = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.9.1.0/24").availabilityZone("us-east-1a")).subnet()
        .subnetId();
    String b = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.9.2.0/24").availabilityZone("us-east-1b")).subnet()
        .subnetId();
    String certificate = MOTO.client(AcmClient.builder()).requestCertificate(r -> r.domainName("edge.example.com"))
        .certificateArn();
    VmPoolSpec spec = VmPoolSpec.named("checkout-edge").instanceType("m5.large").size(2, 6).imageId("ami-12c6146b")
        .vpcId(vpc).subnetIds(List.of(a, b)).withLoadBalancer(80, 443).certificateArn(certificate).build();
    // an application load balancer never serves 443 as plain HTTP: without a certificate it is refused
    assertThatThrownBy(() -> zop.jobs().plan(space.id(), spec.toBuilder().certificateArn(null).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.certificateArn"));

    // 2 x 730 h x 0.096 + 730 h x 0.0225
    assertThat(zop.jobs().plan(space.id(), spec).monthlyTotal()).isEqualByComparingTo("156.59");
    Job pool = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);

    assertThat(pool.status()).as("%s", pool.lastFailure()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(pool.outputs()).containsKeys("dnsName", "targetGroupArn", "autoScalingGroupName");
    assertThat(pool.steps()).extracting(JobStep::name).contains("create-listener-80", "create-listener-443");
    var elb = MOTO.client(software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client.builder());
    var listeners = elb.describeListeners(r -> r.loadBalancerArn(pool.outputs().get("loadBalancerArn"))).listeners();
    assertThat(listeners).extracting(l -> l.port() + " " + l.protocolAsString())
        .containsExactlyInAnyOrder("80 HTTP", "443 HTTPS");
    assertThat(listeners.stream().filter(l -> l.port() == 443).findFirst().orElseThrow().certificates())
        .extracting(c -> c.certificateArn()).containsExactly(certificate);
    // the world reaches the load balancer on its listener ports only; the instances only from the load balancer
    var lbGroup = ec2.describeSecurityGroups(r -> r.groupIds(pool.outputs().get("lbSecurityGroupId")))
        .securityGroups().get(0);
    assertThat(lbGroup.ipPermissions()).extracting(p -> p.fromPort() + " " + p.ipRanges().get(0).cidrIp())
        .containsExactlyInAnyOrder("80 0.0.0.0/0", "443 0.0.0.0/0");
    var vmGroup = ec2.describeSecurityGroups(r -> r.groupIds(pool.outputs().get("instanceSecurityGroupId")))
        .securityGroups().get(0);
    assertThat(vmGroup.ipPermissions()).singleElement().satisfies(p -> {
      assertThat(p.fromPort()).isEqualTo(80);
      assertThat(p.ipRanges()).isEmpty();
      assertThat(p.userIdGroupPairs()).extracting(g -> g.groupId()).containsExactly(lbGroup.groupId());
    });
    assertThat(elb.describeLoadBalancers(r -> r.names(pool.outputs().get("loadBalancerName"))).loadBalancers()
        .get(0).securityGroups()).containsExactly(lbGroup.groupId());
    assertThat(running()).isEqualTo(2); // the group launched its minimum

    assertThat(zop.jobs().await(zop.jobs().delete(pool.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(running()).isZero();
    assertThat(ec2.describeLaunchTemplates().launchTemplates()).isEmpty();
    assertThat(ec2.describeSecurityGroups(r -> r.filters(f -> f.name("vpc-id").values(vpc))).securityGroups())
        .extracting(g -> g.groupName()).containsExactly("default");
  }

  @Test
  void theDocumentsVmPoolBodyGetsItsImageAndNetworkFilledInAndShownInThePlan() throws Exception {
    // the provisioning document's body, verbatim but for the space
    JsonNode config = new ObjectMapper().readTree("{ \"name\": \"checkout-edge\", \"instanceType\": \"m5.large\","
        + " \"min\": 2, \"max\": 6, \"createLoadBalancer\": true, \"listenerPorts\": [80, 443] }");
    VmPoolSpec asked = new ObjectMapper().treeToValue(config, VmPoolSpec.class);
    String image = MOTO.client(SsmClient.builder()).getParameter(r -> r.name(
        "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64")).parameter().value();
    String defaultVpc = ec2.describeVpcs(r -> r.filters(f -> f.name("is-default").values("true"))).vpcs().get(0)
        .vpcId();

    Plan plan = zop.jobs().plan(space.id(), asked);
    assertThat(plan.defaults()).extracting(PlanDefault::field)
        .containsExactly("imageId", "vpcID", "subnetIDs", "loadBalancerType");
    // no certificate: 443 passes through a network load balancer as TLS, never plain HTTP
    assertThat(plan.defaults().get(3).value()).isEqualTo("network");
    assertThat(plan.defaults().get(3).reason()).contains("443", "pass TLS through");
    assertThat(plan.defaults().get(0).value()).isEqualTo(image);
    assertThat(plan.defaults().get(0).reason()).contains("Amazon Linux 2023");
    assertThat(plan.defaults().get(1).value()).isEqualTo(defaultVpc);
    List<String> subnets = List.of(plan.defaults().get(2).value().split(","));
    assertThat(subnets).hasSize(3);
    assertThat(ec2.describeSubnets(r -> r.subnetIds(subnets)).subnets()).extracting(s -> s.availabilityZone())
        .doesNotHaveDuplicates().allMatch(z -> z.startsWith("us-east-1"));

    Job pool = zop.jobs().await(zop.jobs().submit(space.id(), asked).id(), WAIT);
    assertThat(pool.status()).as("%s", pool.lastFailure()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(((VmPoolSpec) pool.spec()).imageId()).isEqualTo(image);
    assertThat(ec2.describeLaunchTemplateVersions(r -> r.launchTemplateName(pool.outputs().get("launchTemplateName")))
        .launchTemplateVersions().get(0).launchTemplateData().imageId()).isEqualTo(image);
    var elb = MOTO.client(software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client.builder());
    assertThat(elb.describeListeners(r -> r.loadBalancerArn(pool.outputs().get("loadBalancerArn"))).listeners())
        .extracting(l -> l.port() + " " + l.protocolAsString()).containsExactlyInAnyOrder("80 TCP", "443 TCP");
    assertThat(elb.describeTargetGroups().targetGroups()).extracting(g -> g.port() + " " + g.protocolAsString())
        .containsExactlyInAnyOrder("80 TCP", "443 TCP");
    assertThat(zop.jobs().await(zop.jobs().delete(pool.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
  }

  @Test
  void registeringAClusterWeDidNotCreateGivesTheAccountAnAccessEntryAndRevokingRemovesIt() {
    EksClient eks = MOTO.client(EksClient.builder());
    IamClient iam = MOTO.client(IamClient.builder());
    String role = iam.createRole(r -> r.roleName("theirs-cluster-role").assumeRolePolicyDocument("{}")).role().arn();
    String vpc = ec2.createVpc(r -> r.cidrBlock("10.44.0.0/16")).vpc().vpcId();
    String subnet = ec2.createSubnet(r -> r.vpcId(vpc).cidrBlock("10.44.1.0/24")).subnet().subnetId();
    eks.createCluster(r -> r.name("theirs").roleArn(role).resourcesVpcConfig(v -> v.subnetIds(subnet)));
    String us = MOTO.client(software.amazon.awssdk.services.sts.StsClient.builder()).getCallerIdentity().arn();

    zop.accounts().registerClusterAccess(account.id(), "us-east-1", "theirs");
    assertThat(accessEntries.entries).containsOnlyKeys("theirs/" + us);
    assertThat(accessEntries.entries.get("theirs/" + us))
        .containsExactly(EksAccess.CLUSTER_ADMIN_POLICY + " cluster");
    // registering again is no error: the entry is there, the policy associated again
    zop.accounts().registerClusterAccess(account.id(), "us-east-1", "theirs");
    assertThat(accessEntries.entries).hasSize(1);
    assertThat(recorder.since(0)).contains("eks:CreateAccessEntry", "eks:AssociateAccessPolicy");

    zop.accounts().revokeClusterAccess(account.id(), "us-east-1", "theirs");
    assertThat(accessEntries.entries).isEmpty();
    assertThatThrownBy(() -> zop.accounts().revokeClusterAccess(account.id(), "us-east-1", "theirs"))
        .isInstanceOf(NotFoundException.class);
  }

  private long running() {
    return ec2.describeInstances().reservations().stream().flatMap(r -> r.instances().stream())
        .filter(i -> !i.state().nameAsString().equals("terminated")).count();
  }

  @Test
  void datastoresWithTheMasterPasswordInSecretsManagerAndAFinalSnapshotOnTeardown() {
    RdsClient rds = MOTO.client(RdsClient.builder());
    SecretsManagerClient secrets = MOTO.client(SecretsManagerClient.builder());

    Plan plan = zop.jobs().plan(space.id(), DatastoreSpec.postgres().name("orders").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7));
    // 2 x 730 h x 0.072 + 100 GB-month x 0.115, from the dated table
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("116.62");
    assertThat(zop.jobs().plan(space.id(), DatastoreSpec.postgres().name("x").version("16.3")
        .instanceClass("db.x9.huge").allocatedStorageGb(50)).complete()).isFalse();

    Job db = zop.jobs().await(zop.jobs().submit(space.id(), DatastoreSpec.postgres().name("orders").version("16.3")
        .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7)).id(), WAIT);
    Job redis = zop.jobs().await(zop.jobs().submit(space.id(), DatastoreSpec.redis().name("sessions").version("7.1")
        .instanceClass("cache.t3.small").multiAz(true).backupRetentionDays(5)).id(), WAIT);

    assertThat(db.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(db.outputs()).containsEntry("engine", "postgres").containsEntry("adminUser", "zopadmin")
        .containsKeys("host", "port");
    String secretArn = db.outputs().get("adminSecretRef");
    assertThat(secretArn).startsWith("arn:aws:secretsmanager:us-east-1:");
    assertThat(secrets.getSecretValue(r -> r.secretId(secretArn)).secretString()).hasSize(32);
    assertThat(rds.describeDBInstances(r -> r.dbInstanceIdentifier("orders")).dbInstances().get(0).multiAZ()).isTrue();
    assertThat(redis.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(redis.outputs()).containsEntry("engine", "redis").containsEntry("tls", "true").containsKey("host");
    // AUTH on with a token generated into Secrets Manager, TLS in transit, snapshots kept as asked
    String tokenArn = redis.outputs().get("authSecretRef");
    assertThat(tokenArn).startsWith("arn:aws:secretsmanager:us-east-1:");
    assertThat(secrets.getSecretValue(r -> r.secretId(tokenArn)).secretString()).hasSize(32);
    var group = MOTO.client(ElastiCacheClient.builder())
        .describeReplicationGroups(r -> r.replicationGroupId("sessions")).replicationGroups().get(0);
    assertThat(group.authTokenEnabled()).isTrue();
    assertThat(group.transitEncryptionEnabled()).isTrue();
    assertThat(group.snapshotRetentionLimit()).isEqualTo(5);

    assertThat(zop.jobs().await(zop.jobs().delete(db.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().await(zop.jobs().delete(redis.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(rds.describeDBInstances().dbInstances()).isEmpty();
    assertThat(rds.describeDBSnapshots(r -> r.dbInstanceIdentifier("orders")).dbSnapshots()).hasSize(1);
    assertThat(secrets.listSecrets().secretList()).isEmpty();
  }

  /**
   * A replication group someone made under the name a spec gives is another's: the job fails naming it
   * ({@code name_in_use}) rather than take it over, and the job's teardown leaves it where it is.
   */
  @Test
  void aCacheAnotherMadeUnderTheSpecsNameIsRefusedAndNeverDeleted() {
    ElastiCacheClient elasticache = MOTO.client(ElastiCacheClient.builder());
    elasticache.createReplicationGroup(r -> r.replicationGroupId("theirs").replicationGroupDescription("by hand")
        .engine("redis").cacheNodeType("cache.t3.small").numCacheClusters(1));

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), DatastoreSpec.redis().name("theirs").version("7.1")
        .instanceClass("cache.t3.small")).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.FAILED);
    assertThat(job.lastFailure().code()).isEqualTo("name_in_use");
    assertThat(job.lastFailure().message()).contains("ElastiCache replication group 'theirs'");

    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(elasticache.describeReplicationGroups(r -> r.replicationGroupId("theirs")).replicationGroups())
        .singleElement().satisfies(g -> assertThat(g.status()).isNotEqualTo("deleting"));
  }

  @Test
  void aVpcSomethingElseStillUsesFailsRetryablyNamingTheBlocker() {
    Job network = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("busy").cidr("10.10.0.0/16")
        .build()).id(), WAIT);
    String vpcId = network.outputs().get("vpcId");
    String intruder = ec2.createSubnet(r -> r.vpcId(vpcId).cidrBlock("10.10.9.0/24")).subnet().subnetId();

    Job failed = zop.jobs().await(zop.jobs().delete(network.id()).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(failed.lastFailure().code()).isEqualTo("dependency_violation");
    assertThat(failed.lastFailure().message()).contains(vpcId, "subnet " + intruder);

    ec2.deleteSubnet(r -> r.subnetId(intruder));
    assertThat(zop.jobs().await(zop.jobs().retry(network.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(ourVpcs()).isZero();
  }

  @Test
  void throttlingIsRetriedBySdkThenByTheEngineThenFailsRetryably() {
    throttling.throttleNext(2); // the SDK's own retries absorb these
    Job first = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("first").cidr("10.1.0.0/16")
        .build()).id(), WAIT);
    assertThat(first.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(throttling.throttledSoFar()).isEqualTo(2);
    assertThat(step(first, "create-vpc").attempts()).isEqualTo(1);

    throttling.throttleNext(1000); // more than the SDK and the engine (3 attempts) will try
    Job failed = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("second").cidr("10.2.0.0/16")
        .build()).id(), WAIT);
    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(failed.lastFailure().code()).isEqualTo("throttled");
    assertThat(failed.lastFailure().providerRequestId()).isEqualTo("throttled-by-test");
    assertThat(step(failed, "create-vpc").attempts()).isEqualTo(3);

    throttling.throttleNext(0);
    assertThat(zop.jobs().await(zop.jobs().retry(failed.id()).id(), WAIT).status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(ourVpcs()).isEqualTo(2);
  }

  @Test
  void staticKeysFromASharedCredentialsProfile(@TempDir Path home) throws Exception {
    Path file = home.resolve("credentials");
    java.nio.file.Files.writeString(file, "[zop-moto]\naws_access_key_id = test\naws_secret_access_key = test\n");
    String saved = System.getProperty("aws.sharedCredentialsFile");
    System.setProperty("aws.sharedCredentialsFile", file.toString());
    try {
      CloudAccount profiled = zop.accounts().create(CloudAccountRequest.of("aws", "profiled")
          .credentialsRef("profile:zop-moto").property("endpoint", MOTO.endpoint()));
      Space other = zop.spaces().create(SpaceRequest.of("aws", "profiled-us-east-1",
          profiled.id()).region("us-east-1"));
      Job job = zop.jobs().await(zop.jobs().submit(other.id(), RegistrySpec.named("profiled/app")).id(), WAIT);
      assertThat(job.status()).as("%s", job.lastFailure()).isEqualTo(JobStatus.SUCCEEDED);
    } finally {
      if (saved == null) {
        System.clearProperty("aws.sharedCredentialsFile");
      } else {
        System.setProperty("aws.sharedCredentialsFile", saved);
      }
    }
  }

  @Test
  void accessDeniedNamesTheMissingAction() {
    // a user that may look but not create, in moto's IAM; its keys become the default chain's for this test
    IamClient iam = MOTO.client(IamClient.builder());
    iam.createUser(r -> r.userName("look-only"));
    iam.putUserPolicy(r -> r.userName("look-only").policyName("describe").policyDocument(
        "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\",\"Action\":\"ec2:Describe*\","
            + "\"Resource\":\"*\"}]}"));
    AccessKey key = iam.createAccessKey(r -> r.userName("look-only")).accessKey();
    String savedId = System.getProperty("aws.accessKeyId");
    String savedSecret = System.getProperty("aws.secretAccessKey");
    System.setProperty("aws.accessKeyId", key.accessKeyId());
    System.setProperty("aws.secretAccessKey", key.secretAccessKey());
    Job failed;
    try {
      MOTO.enforceIam();
      failed = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("denied").cidr("10.3.0.0/16")
          .build()).id(), WAIT);
    } finally {
      MOTO.stopEnforcingIam();
      System.setProperty("aws.accessKeyId", savedId);
      System.setProperty("aws.secretAccessKey", savedSecret);
    }

    assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(failed.lastFailure().code()).isEqualTo("access_denied");
    assertThat(failed.lastFailure().fixHint()).contains("ec2:CreateVpc");
    assertThat(failed.lastFailure().consoleUrl()).startsWith("https://console.aws.amazon.com/iam/");
    assertThat(step(failed, "create-vpc").attempts()).isEqualTo(1); // not retried: a person must act
    assertThat(ourVpcs()).isZero();
  }

  @Test
  void credentialsAwsDoesNotKnowAreAUserActionToo() {
    MOTO.enforceIam(); // the suite's test/test keys belong to no IAM user
    Job failed;
    try {
      failed = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("nobody").cidr("10.6.0.0/16")
          .build()).id(), WAIT);
    } finally {
      MOTO.stopEnforcingIam();
    }
    assertThat(failed.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(failed.lastFailure().code()).isEqualTo("invalid_credentials");
  }

  @Test
  void aCreateRunAgainAfterACrashAdoptsWhatItMade() {
    NetworkSpec spec = NetworkSpec.named("adopt").cidr("10.4.0.0/16").subnet("a", "10.4.1.0/24").build();
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);
    // run every create step once more with the same job, as an engine resuming after a crash would
    try (ProviderSession session = AwsProvider.withInterceptors().open(account, "us-east-1")) {
      for (var step : ((dev.zop.provisioner.spi.ResourceDriver<NetworkSpec>) (Object) session
          .driver(spec.kind())).create(spec)) {
        var ctx = new ResumedContext(job);
        assertThat(step.run(ctx)).isInstanceOf(dev.zop.provisioner.spi.StepResult.Done.class);
      }
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertThat(ourVpcs()).isEqualTo(1);
    assertThat(ec2.describeSubnets().subnets().stream().filter(s -> !s.defaultForAz())).hasSize(1);
  }

  @Test
  void providerSpecificValidationAndSecretsManager() throws Exception {
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), VmPoolSpec.named("no-ami").instanceType("t3.micro")
        .size(1, 1).subnetIds(List.of("subnet-1")).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field)
            // the image is filled in (the current Amazon Linux); a subnet the account does not hold is named
            .containsExactly("config.subnetIDs[0]"));

    try (ProviderSession session = new AwsProvider().open(account, "us-east-1")) {
      SecretStore store = session.secrets();
      SecretRef ref = store.put("zop/test/admin", "s3cret-one");
      assertThat(ref.value()).startsWith("arn:aws:secretsmanager:us-east-1:");
      assertThat(store.get(ref)).isEqualTo("s3cret-one");
      assertThat(store.put("zop/test/admin", "s3cret-two")).isEqualTo(ref); // same name, new value
      assertThat(store.rotate(ref, "s3cret-three")).isEqualTo(ref);
      assertThat(store.get(ref)).isEqualTo("s3cret-three");
      store.delete(ref);
      store.delete(ref);
      assertThatThrownBy(() -> store.get(ref)).isInstanceOf(NoSuchElementException.class);
    }
  }

  private static JobStep step(Job job, String name) {
    return job.steps().stream().filter(s -> s.phase() == JobPhase.CREATE && s.name().equals(name)).findFirst()
        .orElseThrow();
  }

  /** The context a resumed step of {@code job} sees: its outputs so far. */
  private static final class ResumedContext implements dev.zop.provisioner.spi.StepContext {
    private final Job job;

    ResumedContext(Job job) {
      this.job = job;
    }

    @Override
    public dev.zop.provisioner.JobId jobId() {
      return job.id();
    }

    @Override
    public java.util.UUID stepId() {
      return java.util.UUID.randomUUID();
    }

    @Override
    public int attempt() {
      return 2;
    }

    @Override
    public java.time.Instant startedAt() {
      return java.time.Instant.now();
    }

    @Override
    public dev.zop.provisioner.spi.Outputs outputs() {
      return dev.zop.provisioner.spi.Outputs.of(job.outputs());
    }

    @Override
    public void recordIntent(Map<String, String> intent) {
      throw new AssertionError("a resumed step must adopt, not create: " + intent);
    }

    @Override
    public SecretStore secrets() {
      throw new UnsupportedOperationException();
    }

    @Override
    public void log(String message) {
      // adoption is logged; nothing to check here
    }
  }
}
