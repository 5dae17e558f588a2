package dev.zop.provisioner.gcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.compute.v1.Network;
import com.google.devtools.artifactregistry.v1.Repository;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.SecretStore;
import java.net.URI;
import java.util.List;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole GCP jobs on the engine, against the fake built from Google's API definitions. */
class GcpEngineTest {
  private static final GcpFake FAKE = new GcpFake(GcpFake.COMPUTE, GcpFake.ARTIFACT_REGISTRY,
      GcpFake.SECRET_MANAGER, GcpFake.CONTAINER, GcpFake.REDIS, GcpFake.CLOUD_SQL, GcpFake.CLOUD_DNS);
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String PROJECT = GcpProviderTckTest.PROJECT;

  @TempDir Path dir;
  private EmbeddedProvisioner zop;
  private CloudAccount account;
  private Space space;

  @BeforeEach
  void start() {
    FAKE.reset();
    FAKE.operationPolls(2);
    zop = EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false)
        .provider(new GcpProvider().pollingEvery(Duration.ofMillis(20)))
        .pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(2, Duration.ofMillis(10), Duration.ofMillis(30)))
        .build();
    account = zop.accounts().create(FAKE.account("fake", PROJECT, "none"));
    space = zop.spaces().create(SpaceRequest.of("gcp", "platform-us-central1", account.id()).region("us-central1"));
  }

  /**
   * Tears {@code job} down and checks that the teardown waited on the cloud: each delete is an operation, and the
   * resources it removes are there, deleting, until it is done.
   */
  private void tearDownWaitingOnDeletes(dev.zop.provisioner.Job job, String deleting) {
    long before = zop.jobs().events(job.id(), 0).stream().mapToLong(dev.zop.provisioner.JobEvent::seq).max()
        .orElse(0);
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().events(job.id(), before)).filteredOn(e -> e.type() == dev.zop.provisioner.JobEventType
        .STEP_WAITING).extracting(dev.zop.provisioner.JobEvent::message)
        .anySatisfy(m -> assertThat(m).contains(deleting).contains("is being deleted"));
  }

  @AfterEach
  void stop() {
    zop.close();
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  private String peerNetwork(String name) {
    String path = "compute/v1/projects/" + PROJECT + "/global/networks/" + name;
    FAKE.put("compute", path, Network.newBuilder().setName(name).setAutoCreateSubnetworks(false)
        .setSelfLink(FAKE.endpoints().get("endpoint.compute") + "/" + path).build());
    return name;
  }

  private Network network(String name) throws Exception {
    return Network.parseFrom(FAKE.get("compute", "compute/v1/projects/" + PROJECT + "/global/networks/" + name)
        .toByteString());
  }

  @Test
  void aNetworkAndARegistryAreMadeObservedAndTornDownLeavingTheFakeEmpty() throws Exception {
    String peer = peerNetwork("shared-services");
    NetworkSpec spec = NetworkSpec.named("core").cidr("10.0.0.0/16")
        .subnet(Subnet.publicSubnet("edge", "10.0.0.0/24", null))
        .subnet(Subnet.privateSubnet("app", "10.0.1.0/24", null)).peerVpcId(peer)
        .dnsZone("core.internal.example.com").build();

    Plan plan = zop.jobs().plan(space.id(), spec);
    assertThat(plan.provider()).isEqualTo("gcp");
    assertThat(plan.permissions()).contains("compute.networks.create", "compute.subnetworks.create",
        "compute.networks.addPeering", "compute.globalOperations.get");
    assertThat(plan.pricesAsOf()).isEqualTo("2026-11-01");
    // planning changes nothing: its only calls read, to check that the peer network exists
    assertThat(FAKE.calls()).isNotEmpty().allMatch(call -> call.endsWith(".list") || call.endsWith(".get"));

    Job network = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);
    Job registry = zop.jobs().await(zop.jobs().submit(space.id(),
        RegistrySpec.builder().name("platform/api").immutableTags(true).build()).id(), WAIT);

    assertThat(network.status()).as(String.valueOf(network.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(network.outputs()).containsEntry("vpcId", "core").containsEntry("subnet-app.id", "core-app");
    // the peering is added on both sides, so both are active
    assertThat(network("core").getPeeringsList()).singleElement()
        .satisfies(p -> assertThat(p.getState()).isEqualTo("ACTIVE"));
    assertThat(network(peer).getPeeringsList()).singleElement()
        .satisfies(p -> assertThat(p.getState()).isEqualTo("ACTIVE"));
    assertThat(network("core").getAutoCreateSubnetworks()).isFalse();

    assertThat(registry.status()).as(String.valueOf(registry.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(registry.outputs().get("repositoryUri"))
        .isEqualTo("us-central1-docker.pkg.dev/" + PROJECT + "/platform-api");
    Repository repository = Repository.parseFrom(FAKE.resources("artifactregistry").values().iterator().next()
        .toByteString());
    assertThat(repository.getDockerConfig().getImmutableTags()).isTrue();
    assertThat(repository.getLabelsMap()).containsEntry("zop-job", registry.id().value());

    try (ProviderSession session = new GcpProvider().open(account, "us-central1")) {
      assertThat(session.discovery().networks()).extracting(DiscoveredNetwork::id).contains("core", peer);
      assertThat(session.discovery().subnets("core")).extracting(DiscoveredSubnet::cidr)
          .containsExactlyInAnyOrder("10.0.0.0/24", "10.0.1.0/24");
      // the private zone, bound to the new network only
      assertThat(session.discovery().dnsZones()).singleElement().satisfies(z -> {
        assertThat(z.name()).isEqualTo("core.internal.example.com");
        assertThat(z.privateZone()).isTrue();
        assertThat(z.id()).isEqualTo(network.outputs().get("dnsZoneId"));
      });
      assertThat(FAKE.cloudDns().zones().values().iterator().next().getPrivateVisibilityConfig().getNetworks())
          .singleElement().satisfies(n -> assertThat(n.getNetworkUrl()).isEqualTo(network.outputs()
              .get("networkSelfLink")));
    }

    tearDownWaitingOnDeletes(network, "subnetwork");
    tearDownWaitingOnDeletes(registry, "repository");
    assertThat(FAKE.resources("compute")).containsOnlyKeys(
        "compute/v1/projects/" + PROJECT + "/global/networks/" + peer);
    assertThat(network(peer).getPeeringsList()).isEmpty();
    assertThat(FAKE.resources("artifactregistry")).isEmpty();
    assertThat(FAKE.cloudDns().zones()).isEmpty();
  }

  /**
   * A service-account key whose token endpoint is the fake's, as a key file: the account then authenticates as
   * a user's would, through Google's own credentials classes (signed JWTs, the token exchange).
   */
  private Path serviceAccountKey() throws Exception {
    var generator = java.security.KeyPairGenerator.getInstance("RSA");
    generator.initialize(2048);
    var keys = generator.generateKeyPair();
    FAKE.trustServiceAccountKey(keys.getPublic());
    String pem = "-----BEGIN PRIVATE KEY-----\n" + java.util.Base64.getMimeEncoder(64, "\n".getBytes())
        .encodeToString(keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    var json = new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode()
        .put("type", "service_account").put("project_id", PROJECT).put("private_key_id", "k1")
        .put("private_key", pem).put("client_email", "zop@" + PROJECT + ".iam.gserviceaccount.com")
        .put("client_id", "1").put("token_uri", FAKE.tokenUri());
    Path file = dir.resolve("sa-key.json");
    java.nio.file.Files.writeString(file, json.toString());
    return file;
  }

  @Test
  void theDocumentsKubernetesBodyMakesARegionalGkeClusterWhoseSpaceGetsAKubeconfig() throws Exception {
    CloudAccount keyed = zop.accounts().create(FAKE.account("keyed", PROJECT, "file:" + serviceAccountKey()));
    Space gcp = zop.spaces().create(SpaceRequest.of("gcp", "keyed-us-central1", keyed.id()).region("us-central1"));
    String network = peerNetwork("platform-net");
    // the provisioning document's body, its invented network and subnet ids replaced by real ones
    var body = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "name": "platform-prod", "version": "1.30", "nodeGroups": [ { "name": "default",
          "instanceType": "m5.large", "min": 2, "max": 6 } ], "vpcID": "platform-net",
          "subnetIDs": ["platform-net-a", "platform-net-b"] }""", dev.zop.provisioner.spec.KubernetesSpec.class);
    for (String subnet : java.util.List.of("platform-net-a", "platform-net-b")) {
      String path = "compute/v1/projects/" + PROJECT + "/regions/us-central1/subnetworks/" + subnet;
      FAKE.put("compute", path, com.google.cloud.compute.v1.Subnetwork.newBuilder().setName(subnet)
          .setIpCidrRange(subnet.endsWith("a") ? "10.1.0.0/20" : "10.1.16.0/20").setRegion("us-central1")
          .setNetwork(FAKE.endpoints().get("endpoint.compute") + "/compute/v1/projects/" + PROJECT
              + "/global/networks/" + network)
          .setSelfLink(FAKE.endpoints().get("endpoint.compute") + "/" + path).build());
    }

    Plan plan = zop.jobs().plan(gcp.id(), body);
    assertThat(plan.permissions()).contains("container.clusters.create", "iam.serviceAccounts.actAs");
    assertThat(plan.defaults()).anySatisfy(d -> {
      assertThat(d.field()).isEqualTo("nodeGroups[0].instanceType");
      assertThat(d.value()).isEqualTo("n2-standard-2");
    });
    // 730 h x (0.10 management fee + 2 x 0.097118 for n2-standard-2)
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("214.79");

    Job job = zop.jobs().await(zop.jobs().submit(gcp.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("clusterName", "platform-prod")
        .containsEntry("endpoint", "https://127.0.0.1");
    var cluster = com.google.container.v1.Cluster.parseFrom(FAKE.get("container",
        "v1/projects/" + PROJECT + "/locations/us-central1/clusters/platform-prod").toByteString());
    assertThat(cluster.getNetwork()).isEqualTo("platform-net");
    assertThat(cluster.getSubnetwork()).isEqualTo("platform-net-a");
    assertThat(cluster.getNodePoolsList()).singleElement().satisfies(pool -> {
      assertThat(pool.getConfig().getMachineType()).isEqualTo("n2-standard-2");
      assertThat(pool.getAutoscaling().getTotalMinNodeCount()).isEqualTo(2);
      assertThat(pool.getAutoscaling().getTotalMaxNodeCount()).isEqualTo(6);
    });

    // the cluster is registered as a space, and its kubeconfig carries a token Google's token endpoint issued
    Space registered = zop.spaces().list().stream().filter(s -> "platform-prod".equals(s.config().get("clusterName")))
        .findFirst().orElseThrow();
    var kubeconfig = zop.spaces().kubeconfig(registered.id());
    assertThat(kubeconfig.server()).isEqualTo("https://127.0.0.1");
    assertThat(new String(java.util.Base64.getDecoder().decode(kubeconfig.certificateAuthorityData())))
        .contains("BEGIN CERTIFICATE");
    assertThat(FAKE.issuedToken(kubeconfig.token())).isTrue();
    assertThat(kubeconfig.expiresAt()).isAfter(java.time.Instant.now());

    // revised in place: the document's node group to 3..10 and Kubernetes one minor up, to 1.31
    var revisedBody = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "name": "platform-prod", "version": "1.31", "nodeGroups": [ { "name": "default",
          "instanceType": "m5.large", "min": 3, "max": 10 } ], "vpcID": "platform-net",
          "subnetIDs": ["platform-net-a", "platform-net-b"] }""", dev.zop.provisioner.spec.KubernetesSpec.class);
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), revisedBody);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to() + " " + c.effect())
        .containsExactlyInAnyOrder("version:1.30->1.31 IN_PLACE", "nodeGroups[0].min:2->3 IN_PLACE",
            "nodeGroups[0].max:6->10 IN_PLACE");
    // the control plane first, then the pool's bounds, then its nodes: GKE never runs nodes newer than the masters
    assertThat(revision.steps()).extracting(dev.zop.provisioner.PlanStep::name).containsExactly(
        "upgrade-control-plane", "scale-node-pool-default", "upgrade-node-pool-default");
    assertThat(revision.permissions()).containsExactly("container.clusters.get", "container.clusters.update");
    // 730 h x (0.10 + 3 x 0.097118): the cost at the new minimum, 70.90 a month more
    assertThat(revision.before().monthlyTotal()).isEqualByComparingTo("214.79");
    assertThat(revision.after().monthlyTotal()).isEqualByComparingTo("285.69");
    assertThat(revision.monthlyDelta()).isEqualByComparingTo("70.90");
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), revisedBody.toBuilder().version("1.32").build()))
        .isInstanceOfSatisfying(dev.zop.provisioner.ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.version kubernetes_minor_skipped"));
    int mark = FAKE.calls().size();
    Job revised = zop.jobs().await(zop.jobs().revise(job.id(), revisedBody).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.calls().subList(mark, FAKE.calls().size())).filteredOn(c -> c.startsWith("container.") && !c.endsWith(".get"))
        .containsExactly("container.masters.update", "container.nodePoolAutoscalings.set",
            "container.nodePools.update");
    // the same cluster and pool, changed where they stand, read back from the fake's state
    var upgraded = com.google.container.v1.Cluster.parseFrom(FAKE.get("container",
        "v1/projects/" + PROJECT + "/locations/us-central1/clusters/platform-prod").toByteString());
    assertThat(upgraded.getId()).isEqualTo(cluster.getId());
    assertThat(upgraded.getStatus()).isEqualTo(com.google.container.v1.Cluster.Status.RUNNING);
    assertThat(upgraded.getCurrentMasterVersion()).isEqualTo("1.31.3-gke.100");
    assertThat(upgraded.getNodePoolsList()).singleElement().satisfies(pool -> {
      assertThat(pool.getConfig().getMachineType()).isEqualTo("n2-standard-2");
      assertThat(pool.getVersion()).isEqualTo("1.31.3-gke.100");
      assertThat(pool.getAutoscaling().getTotalMinNodeCount()).isEqualTo(3);
      assertThat(pool.getAutoscaling().getTotalMaxNodeCount()).isEqualTo(10);
    });
    assertThat(zop.jobs().revisions(job.id())).extracting(r -> r.number() + " " + r.status())
        .containsExactly("1 APPLIED", "2 APPLIED");

    tearDownWaitingOnDeletes(job, "cluster");
    assertThat(FAKE.resources("container")).isEmpty();
    assertThat(zop.spaces().list()).extracting(Space::id).doesNotContain(registered.id());
  }

  @Test
  void theDocumentsVmPoolBodyGetsAnInstanceGroupBehindAPassthroughLoadBalancer() throws Exception {
    peerNetwork("default");
    var body = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "name": "checkout-edge", "instanceType": "m5.large", "min": 2, "max": 6, "createLoadBalancer": true,
          "listenerPorts": [80, 443] }""", dev.zop.provisioner.spec.VmPoolSpec.class);

    Plan plan = zop.jobs().plan(space.id(), body);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value()).contains(
        "instanceType=n2-standard-2", "imageId=" + VmPoolDriver.DEFAULT_IMAGE, "vpcID=default",
        "loadBalancerType=network");
    assertThat(plan.permissions()).contains("compute.instanceTemplates.create",
        "compute.instanceGroupManagers.create", "compute.autoscalers.create", "compute.firewalls.create",
        "compute.forwardingRules.create");
    // 730 h x (2 x 0.097118 for n2-standard-2 + 0.025 for one forwarding rule)
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("160.04");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs().get("loadBalancerAddress")).startsWith("34.120.0.");
    String regionPath = "compute/v1/projects/" + PROJECT + "/regions/us-central1/";
    var group = com.google.cloud.compute.v1.InstanceGroupManager.parseFrom(FAKE.get("compute",
        regionPath + "instanceGroupManagers/checkout-edge").toByteString());
    assertThat(group.getTargetSize()).isEqualTo(2);
    var autoscaler = com.google.cloud.compute.v1.Autoscaler.parseFrom(FAKE.get("compute",
        regionPath + "autoscalers/checkout-edge").toByteString());
    assertThat(autoscaler.getAutoscalingPolicy().getMinNumReplicas()).isEqualTo(2);
    assertThat(autoscaler.getAutoscalingPolicy().getMaxNumReplicas()).isEqualTo(6);
    var template = com.google.cloud.compute.v1.InstanceTemplate.parseFrom(FAKE.get("compute",
        "compute/v1/projects/" + PROJECT + "/global/instanceTemplates/checkout-edge-template").toByteString());
    assertThat(template.getProperties().getMachineType()).isEqualTo("n2-standard-2");
    assertThat(template.getProperties().getDisks(0).getInitializeParams().getSourceImage())
        .isEqualTo(VmPoolDriver.DEFAULT_IMAGE);
    var rule = com.google.cloud.compute.v1.ForwardingRule.parseFrom(FAKE.get("compute",
        regionPath + "forwardingRules/checkout-edge").toByteString());
    // 443 passes through as TCP: no certificate is needed and none is terminated at Google's edge
    assertThat(rule.getPortsList()).containsExactly("80", "443");
    assertThat(rule.getIPProtocol()).isEqualTo("TCP");
    var clients = com.google.cloud.compute.v1.Firewall.parseFrom(FAKE.get("compute",
        "compute/v1/projects/" + PROJECT + "/global/firewalls/checkout-edge-allow-clients").toByteString());
    assertThat(clients.getAllowed(0).getPortsList()).containsExactly("80", "443");
    assertThat(clients.getTargetTagsList()).containsExactly("checkout-edge");

    // revised: a larger machine type rolled onto the group, and 3..8
    var larger = body.toBuilder().instanceType("n2-standard-4").size(3, 8).build();
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), larger);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to() + " " + c.effect())
        .containsExactlyInAnyOrder("instanceType:n2-standard-2->n2-standard-4 REPLACE", "min:2->3 IN_PLACE",
            "max:6->8 IN_PLACE");
    assertThat(revision.steps()).extracting(dev.zop.provisioner.PlanStep::name).containsExactly(
        "create-instance-template-n2-standard-4", "roll-instance-group",
        "delete-instance-template-checkout-edge-template", "update-autoscaler");
    Job rolled = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(rolled.status()).as(String.valueOf(rolled.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var rolledGroup = com.google.cloud.compute.v1.InstanceGroupManager.parseFrom(FAKE.get("compute",
        regionPath + "instanceGroupManagers/checkout-edge").toByteString());
    assertThat(rolledGroup.getId()).isEqualTo(group.getId());
    assertThat(rolledGroup.getInstanceTemplate()).endsWith("/instanceTemplates/checkout-edge-template-n2-standard-4");
    assertThat(rolledGroup.getUpdatePolicy().getType()).isEqualTo("PROACTIVE");
    assertThat(rolledGroup.getUpdatePolicy().getMaxUnavailable().getFixed()).isZero();
    assertThat(rolledGroup.getStatus().getIsStable()).isTrue();
    assertThat(FAKE.get("compute", "compute/v1/projects/" + PROJECT + "/global/instanceTemplates/checkout-edge-template"))
        .isNull();
    var bounds = com.google.cloud.compute.v1.Autoscaler.parseFrom(FAKE.get("compute",
        regionPath + "autoscalers/checkout-edge").toByteString()).getAutoscalingPolicy();
    assertThat(bounds.getMinNumReplicas() + ".." + bounds.getMaxNumReplicas()).isEqualTo("3..8");
    assertThat(bounds.getCpuUtilization().getUtilizationTarget()).isEqualTo(0.6);

    tearDownWaitingOnDeletes(job, "forwarding rule");
    assertThat(FAKE.resources("compute")).containsOnlyKeys(
        "compute/v1/projects/" + PROJECT + "/global/networks/default");
  }

  private List<String> drifts(Job job) {
    return zop.jobs().checkDrift(job.id()).drifts().stream().map(d -> d.resource() + "|" + d.field() + "|"
        + d.expected() + "|" + d.actual()).toList();
  }

  @Test
  void aPoolResizedAndAFirewallPortRemovedInTheFakeAreReportedAndPutBackAndADeletedRuleIsMissing()
      throws Exception {
    String network = peerNetwork("platform-net");
    peerNetwork("default");
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    Job cluster = zop.jobs().await(zop.jobs().submit(space.id(), mapper.readValue("""
        { "name": "drift-prod", "version": "1.30", "nodeGroups": [ { "name": "default",
          "instanceType": "n2-standard-2", "min": 2, "max": 6 } ], "vpcID": "%s" }""".formatted(network),
        dev.zop.provisioner.spec.KubernetesSpec.class)).id(), WAIT);
    Job pool = zop.jobs().await(zop.jobs().submit(space.id(), mapper.readValue("""
        { "name": "checkout-edge", "instanceType": "m5.large", "min": 2, "max": 6, "createLoadBalancer": true,
          "listenerPorts": [80, 443] }""", dev.zop.provisioner.spec.VmPoolSpec.class)).id(), WAIT);
    assertThat(cluster.status()).as(String.valueOf(cluster.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(pool.status()).as(String.valueOf(pool.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(drifts(cluster)).isEmpty();
    assertThat(drifts(pool)).isEmpty();

    // by hand, in the fake's own state: the pool's bounds changed, port 443 taken off the clients' rule
    String clusterPath = "v1/projects/" + PROJECT + "/locations/us-central1/clusters/drift-prod";
    var stored = com.google.container.v1.Cluster.parseFrom(FAKE.get("container", clusterPath).toByteString());
    FAKE.put("container", clusterPath, stored.toBuilder().setNodePools(0, stored.getNodePools(0).toBuilder()
        .setAutoscaling(stored.getNodePools(0).getAutoscaling().toBuilder().setTotalMinNodeCount(1)
            .setTotalMaxNodeCount(3))).build());
    String rulePath = "compute/v1/projects/" + PROJECT + "/global/firewalls/checkout-edge-allow-clients";
    var rule = com.google.cloud.compute.v1.Firewall.parseFrom(FAKE.get("compute", rulePath).toByteString());
    FAKE.put("compute", rulePath, rule.toBuilder().setAllowed(0, rule.getAllowed(0).toBuilder().clearPorts()
        .addPorts("80")).build());
    assertThat(drifts(cluster)).containsExactly("gke node pool drift-prod/default|nodeGroups[0].min|2|1",
        "gke node pool drift-prod/default|nodeGroups[0].max|6|3");
    assertThat(drifts(pool)).containsExactly("firewall rule checkout-edge-allow-clients|firewall.ports|80,443|80");

    assertThat(zop.jobs().planReconcile(pool.id()).steps()).extracting(dev.zop.provisioner.PlanStep::name)
        .containsExactly("update-autoscaler", "restore-firewall-rules");
    // the cost before is what the cloud has: one node at the minimum, where the config (and the cost after) has two
    var reconcilePlan = zop.jobs().planReconcile(cluster.id());
    assertThat(reconcilePlan.before().monthlyTotal()).isLessThan(reconcilePlan.after().monthlyTotal());
    assertThat(reconcilePlan.monthlyDelta()).isPositive();
    assertThat(reconcilePlan.warnings()).isEmpty();
    Job clusterBack = zop.jobs().await(zop.jobs().reconcile(cluster.id()).id(), WAIT);
    Job poolBack = zop.jobs().await(zop.jobs().reconcile(pool.id()).id(), WAIT);
    assertThat(clusterBack.status()).as(String.valueOf(clusterBack.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(poolBack.status()).as(String.valueOf(poolBack.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var restored = com.google.container.v1.Cluster.parseFrom(FAKE.get("container", clusterPath).toByteString())
        .getNodePools(0).getAutoscaling();
    assertThat(restored.getTotalMinNodeCount() + ".." + restored.getTotalMaxNodeCount()).isEqualTo("2..6");
    var ruleBack = com.google.cloud.compute.v1.Firewall.parseFrom(FAKE.get("compute", rulePath).toByteString());
    assertThat(ruleBack.getAllowed(0).getPortsList()).containsExactly("80", "443");
    assertThat(ruleBack.getSourceRangesList()).containsExactly("0.0.0.0/0");
    assertThat(drifts(cluster)).isEmpty();
    assertThat(drifts(pool)).isEmpty();

    FAKE.remove("compute", "compute/v1/projects/" + PROJECT + "/global/firewalls/checkout-edge-allow-health-checks");
    assertThat(drifts(pool)).containsExactly("firewall rule checkout-edge-allow-health-checks|null|present|null");
    assertThatThrownBy(() -> zop.jobs().planReconcile(pool.id()))
        .isInstanceOfSatisfying(dev.zop.provisioner.ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("resource_missing"));

    assertThat(zop.jobs().await(zop.jobs().delete(pool.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().await(zop.jobs().delete(cluster.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(FAKE.resources("container")).isEmpty();
  }

  @Test
  void aGkeClusterMadeOutsideIsImportedLabelledRevisedAndTornDown() throws Exception {
    String network = peerNetwork("legacy-net");
    String clusterPath = "v1/projects/" + PROJECT + "/locations/us-central1/clusters/legacy-gke";
    var existing = com.google.container.v1.Cluster.newBuilder().setName("legacy-gke").setNetwork(network)
        .setStatus(com.google.container.v1.Cluster.Status.RUNNING).setCurrentMasterVersion("1.30.5-gke.100")
        .setEndpoint("127.0.0.1").putResourceLabels("team", "data")
        .setLabelFingerprint(GcpFake.labelFingerprint(java.util.Map.of("team", "data")))
        .setSelfLink(FAKE.endpoints().get("endpoint.container") + "/" + clusterPath)
        .addNodePools(com.google.container.v1.NodePool.newBuilder().setName("workers")
            .setConfig(com.google.container.v1.NodeConfig.newBuilder().setMachineType("e2-standard-4"))
            .setAutoscaling(com.google.container.v1.NodePoolAutoscaling.newBuilder().setEnabled(true)
                .setTotalMinNodeCount(1).setTotalMaxNodeCount(4))
            .setVersion("1.30.5-gke.100").setStatus(com.google.container.v1.NodePool.Status.RUNNING))
        .build();
    FAKE.put("container", clusterPath, existing);
    var wanted = dev.zop.provisioner.spec.KubernetesSpec.named("legacy-gke").version("1.30").vpcId(network)
        .nodeGroup("workers", "e2-standard-4", 1, 8).build();

    dev.zop.provisioner.ImportPlan plan = zop.jobs().planImport(space.id(),
        dev.zop.provisioner.ImportRequest.of(wanted, "legacy-gke"));
    assertThat(plan.adopted()).containsExactly("gke cluster legacy-gke", "gke node pool legacy-gke/workers");
    assertThat(plan.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to() + " " + c.effect())
        .containsExactly("nodeGroups[0].max:4->8 IN_PLACE");
    assertThat(plan.permissions()).containsExactly("container.clusters.get", "container.clusters.update");

    Job imported = zop.jobs().await(zop.jobs().importExisting(space.id(),
        dev.zop.provisioner.ImportRequest.of(wanted, "legacy-gke")).id(), WAIT);
    assertThat(imported.status()).as(String.valueOf(imported.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(imported.outputs()).containsEntry("clusterName", "legacy-gke");
    var labelled = com.google.container.v1.Cluster.parseFrom(FAKE.get("container", clusterPath).toByteString());
    assertThat(labelled.getResourceLabelsMap()).containsEntry("team", "data")
        .containsEntry("zop-job", imported.id().value());
    assertThat(zop.jobs().checkDrift(imported.id()).status()).isEqualTo(dev.zop.provisioner.DriftReport.Status.IN_SYNC);
    assertThatThrownBy(() -> zop.jobs().planImport(space.id(), dev.zop.provisioner.ImportRequest.of(wanted,
        "legacy-gke"))).isInstanceOfSatisfying(dev.zop.provisioner.ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("owned_by_another_job"));

    Job revised = zop.jobs().await(zop.jobs().revise(imported.id(), wanted).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(com.google.container.v1.Cluster.parseFrom(FAKE.get("container", clusterPath).toByteString())
        .getNodePools(0).getAutoscaling().getTotalMaxNodeCount()).isEqualTo(8);

    assertThat(zop.jobs().await(zop.jobs().delete(imported.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(FAKE.resources("container")).isEmpty();
  }

  @Test
  void anHttpPoolOn443NeedsItsCertificateAndGetsAnHttpsProxyWithIt() {
    peerNetwork("default");
    var refused = dev.zop.provisioner.spec.VmPoolSpec.named("web").instanceType("e2-small").size(1, 2)
        .loadBalancer(true, "application").listenerPorts(java.util.List.of(80, 443)).build();
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), refused))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.certificateArn"));

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), refused.toBuilder().certificateArn("web-cert")
        .build()).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    String global = "compute/v1/projects/" + PROJECT + "/global/";
    assertThat(FAKE.resources("compute")).containsKeys(global + "targetHttpProxies/web-http",
        global + "targetHttpsProxies/web-https", global + "forwardingRules/web-80", global + "forwardingRules/web-443",
        global + "urlMaps/web", global + "backendServices/web", global + "healthChecks/web");
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(FAKE.resources("compute")).containsOnlyKeys(global + "networks/default");
  }

  @Test
  void theDocumentsDatastoreBodyMakesCloudSqlWhoseOutputsFeedTheDatabasesFeature() throws Exception {
    // the local PostgreSQL stands in for the instance's server, as on AWS: the fake answers 127.0.0.1
    var server = dev.zop.provisioner.testkit.TestDatabaseServers.postgres();
    String prefix = "zg" + java.util.UUID.randomUUID().toString().substring(0, 6) + "_";
    var body = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.t3.medium", "allocatedStorageGB": 50,
          "multiAZ": true, "backupRetentionDays": 7 }""", dev.zop.provisioner.spec.DatastoreSpec.class);

    Plan plan = zop.jobs().plan(space.id(), body);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value())
        .contains("instanceClass=db-custom-2-4096");
    assertThat(plan.permissions()).contains("cloudsql.instances.create", "secretmanager.secrets.create");
    assertThat(plan.outputs()).extracting(s -> s.key() + ":" + s.type()).contains("sqlInstance:text",
        "connectionName:text", "adminSecretRef:secretRef", "port:number");
    // regional: 2 x 730 h x 0.1106 for db-custom-2-4096, and 2 x 50 GB of SSD at 0.17
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("178.48");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("host", "127.0.0.1").containsEntry("port", "5432")
        .containsEntry("adminUser", "postgres").containsEntry("engine", "postgres");
    assertThat(job.outputs().get("adminSecretRef")).startsWith("projects/" + PROJECT + "/secrets/");
    var instance = FAKE.cloudSql().instances().values().iterator().next();
    assertThat(instance.getDatabaseVersion()).isEqualTo("POSTGRES_16");
    assertThat(instance.getSettings().getAvailabilityType()).isEqualTo("REGIONAL");
    assertThat(instance.getSettings().getTier()).isEqualTo("db-custom-2-4096");
    assertThat(instance.getSettings().getDataDiskSizeGb()).isEqualTo(50L);
    assertThat(instance.getSettings().getBackupConfiguration().getBackupRetentionSettings().getRetainedBackups())
        .isEqualTo(7);
    assertThat(instance.getRootPassword()).isNull();

    try {
      var database = zop.jobs().databases(job.id()).create(prefix + "app", prefix + "app_owner");
      assertThat(database.host()).isEqualTo("127.0.0.1");
      try (var c = java.sql.DriverManager.getConnection(dev.zop.provisioner.testkit.TestDatabaseServers
          .postgresUrl(server, "postgres"), server.adminUser(), server.adminPassword());
          var ps = c.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
        ps.setString(1, prefix + "app");
        try (var rs = ps.executeQuery()) {
          rs.next();
          assertThat(rs.getInt(1)).isEqualTo(1);
        }
      }
      zop.jobs().databases(job.id()).delete(database.id());
    } finally {
      try (var c = java.sql.DriverManager.getConnection(dev.zop.provisioner.testkit.TestDatabaseServers
          .postgresUrl(server, "postgres"), server.adminUser(), server.adminPassword());
          var s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS \"" + prefix + "app\" WITH (FORCE)");
        s.execute("DROP ROLE IF EXISTS \"" + prefix + "app_owner\"");
      }
    }

    // revised in place to a larger class (the tier that holds db.m5.large), 100 GB and 14 days of backups
    var larger = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.m5.large", "allocatedStorageGB": 100,
          "multiAZ": true, "backupRetentionDays": 14 }""", dev.zop.provisioner.spec.DatastoreSpec.class);
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), larger);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactlyInAnyOrder("instanceClass:db-custom-2-4096->db-custom-2-8192", "allocatedStorageGB:50->100",
            "backupRetentionDays:7->14");
    assertThat(revision.defaults()).extracting(d -> d.field() + "=" + d.value())
        .containsExactly("instanceClass=db-custom-2-8192");
    assertThat(revision.permissions()).containsExactly("cloudsql.instances.get", "cloudsql.instances.update",
        "cloudsql.instances.list");
    assertThat(revision.after().monthlyTotal()).isGreaterThan(revision.before().monthlyTotal());
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), larger.toBuilder().allocatedStorageGb(20).build()))
        .isInstanceOfSatisfying(dev.zop.provisioner.ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).containsExactly("config.allocatedStorageGB storage_shrink"));
    Job revised = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    // the same instance, changed where it stands
    assertThat(FAKE.cloudSql().instances()).hasSize(1);
    var changed = FAKE.cloudSql().instances().values().iterator().next();
    assertThat(changed.getName()).isEqualTo(instance.getName());
    assertThat(changed.getSettings().getTier()).isEqualTo("db-custom-2-8192");
    assertThat(changed.getSettings().getDataDiskSizeGb()).isEqualTo(100L);
    assertThat(changed.getSettings().getAvailabilityType()).isEqualTo("REGIONAL");
    assertThat(changed.getSettings().getBackupConfiguration().getBackupRetentionSettings().getRetainedBackups())
        .isEqualTo(14);

    tearDownWaitingOnDeletes(job, "Cloud SQL instance");
    assertThat(FAKE.cloudSql().instances()).isEmpty();
    assertThat(FAKE.resources("secretmanager")).isEmpty();
  }

  @Test
  void aRedisDatastoreIsMemorystoreWithAuthAndTlsItsAuthStringKeptAsAReference() throws Exception {
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), dev.zop.provisioner.spec.DatastoreSpec.redis()
        .name("sessions").version("7.1").instanceClass("cache.t3.medium").multiAz(true).build()).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var redis = com.google.cloud.redis.v1.Instance.parseFrom(FAKE.get("redis",
        "v1/projects/" + PROJECT + "/locations/us-central1/instances/sessions").toByteString());
    assertThat(redis.getTier()).isEqualTo(com.google.cloud.redis.v1.Instance.Tier.STANDARD_HA);
    // cache.t3.medium has 3.09 GiB: the smallest capacity that holds it is 4 GB
    assertThat(redis.getMemorySizeGb()).isEqualTo(4);
    assertThat(redis.getRedisVersion()).isEqualTo("REDIS_7_0");
    assertThat(redis.getAuthEnabled()).isTrue();
    assertThat(redis.getTransitEncryptionMode())
        .isEqualTo(com.google.cloud.redis.v1.Instance.TransitEncryptionMode.SERVER_AUTHENTICATION);
    assertThat(job.outputs()).containsEntry("port", "6378").containsEntry("tls", "true");
    try (ProviderSession session = new GcpProvider().open(account, "us-central1")) {
      assertThat(session.secrets().get(SecretRef.of(job.outputs().get("authSecretRef")))).hasSize(36);
    }

    // resized where it stands (a Standard Tier instance keeps its data); a Basic Tier one would be emptied
    var larger = dev.zop.provisioner.spec.DatastoreSpec.redis().name("sessions").version("7.1")
        .instanceClass("cache.m5.large").multiAz(true).build();
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), larger);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactly("instanceClass:redis-4->redis-7");
    assertThat(revision.permissions()).containsExactly("redis.instances.get", "redis.instances.update");
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), larger.toBuilder().multiAz(false).build()))
        .isInstanceOfSatisfying(dev.zop.provisioner.ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).contains("config.multiAZ tier_change"));
    Job resized = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(resized.status()).as(String.valueOf(resized.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var grown = com.google.cloud.redis.v1.Instance.parseFrom(FAKE.get("redis",
        "v1/projects/" + PROJECT + "/locations/us-central1/instances/sessions").toByteString());
    assertThat(grown.getMemorySizeGb()).isEqualTo(7);
    assertThat(grown.getHost()).isEqualTo(redis.getHost());
    assertThat(grown.getState()).isEqualTo(com.google.cloud.redis.v1.Instance.State.READY);

    tearDownWaitingOnDeletes(job, "Memorystore instance");
    assertThat(FAKE.resources("redis")).isEmpty();
    assertThat(FAKE.resources("secretmanager")).isEmpty();
  }

  @Test
  void aSpaceThatNamesAnotherProjectProvisionsThereWithTheAccountsCredentials() throws Exception {
    Space teamB = zop.spaces().create(SpaceRequest.of("gcp", "team-b-us-central1", account.id()).region("us-central1")
        .config("projectId", "team-b-project"));
    Job registry = zop.jobs().await(zop.jobs().submit(teamB.id(), RegistrySpec.named("team-b/api")).id(), WAIT);
    assertThat(registry.status()).as(String.valueOf(registry.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(registry.outputs().get("repositoryUri")).isEqualTo("us-central1-docker.pkg.dev/team-b-project/team-b-api");
    assertThat(FAKE.resources("artifactregistry")).containsOnlyKeys(
        "v1/projects/team-b-project/locations/us-central1/repositories/team-b-api");

    // the datastore's admin secret goes to the space's project too, and is read back from there
    Job redis = zop.jobs().await(zop.jobs().submit(teamB.id(), dev.zop.provisioner.spec.DatastoreSpec.redis()
        .name("team-b-cache").version("7.2").instanceClass("redis-1").build()).id(), WAIT);
    assertThat(redis.status()).as(String.valueOf(redis.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(redis.outputs().get("authSecretRef")).startsWith("projects/team-b-project/secrets/");
    assertThat(zop.secrets().reveal(SecretRef.of(redis.outputs().get("authSecretRef")))).hasSize(36);

    // a space of the account's own project is untouched by the other's scope
    Job own = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("own/api")).id(), WAIT);
    assertThat(own.outputs().get("repositoryUri")).isEqualTo("us-central1-docker.pkg.dev/" + PROJECT + "/own-api");
  }

  @Test
  void eachFaultClassEndsInItsCategoryCodeHintAndConsoleLink() {
    record Expected(GcpFake.Fault fault, FailureCategory category, String code, String link) {}
    var cases = java.util.List.of(
        new Expected(GcpFake.Fault.permissionDenied("compute.networks.create"), FailureCategory.USER_ACTION,
            "access_denied", "https://console.cloud.google.com/iam-admin/iam?project=" + PROJECT),
        new Expected(GcpFake.Fault.serviceDisabled("Compute Engine"), FailureCategory.USER_ACTION,
            "service_disabled", "https://console.cloud.google.com/apis/library/compute.googleapis.com?project="
                + PROJECT),
        new Expected(GcpFake.Fault.quotaExceeded(), FailureCategory.USER_ACTION, "quota_exceeded",
            "https://console.cloud.google.com/iam-admin/quotas?project=" + PROJECT),
        new Expected(GcpFake.Fault.billingDisabled(), FailureCategory.USER_ACTION, "billing_disabled",
            "https://console.cloud.google.com/billing/linkedaccount?project=" + PROJECT),
        new Expected(GcpFake.Fault.rateLimited(), FailureCategory.TRANSIENT, "throttled", null),
        new Expected(GcpFake.Fault.unavailable(), FailureCategory.TRANSIENT, "gcp_unavailable", null));
    int n = 0;
    for (Expected expected : cases) {
      FAKE.reset();
      FAKE.failAlways("compute.networks.create", expected.fault());
      Job job = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("faulty-" + n++)
          .cidr("10.9.0.0/16").build()).id(), WAIT);
      Failure failure = job.lastFailure();
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(failure.category()).as(expected.fault().reason()).isEqualTo(expected.category());
      assertThat(failure.code()).as(expected.fault().reason()).isEqualTo(expected.code());
      if (expected.category() == FailureCategory.USER_ACTION) {
        assertThat(failure.fixHint()).as(expected.fault().reason()).isNotBlank();
        assertThat(failure.consoleUrl()).isEqualTo(expected.link());
      }
      if (expected.code().equals("access_denied")) {
        assertThat(failure.fixHint()).contains("Grant compute.networks.create");
      }
      // a refused create made nothing
      assertThat(FAKE.resources("compute")).isEmpty();
    }
  }

  @Test
  void missingCredentialsAreTheUsersToFixNotTransient() {
    CloudAccount noKey = zop.accounts().create(CloudAccountRequest.of("gcp", "no-key")
        .credentialsRef("env:ZOP_TEST_UNSET_GCP_KEY").property("projectId", PROJECT));
    Space unauthenticated = zop.spaces().create(SpaceRequest.of("gcp", "no-key-space",
        noKey.id()).region("us-central1"));
    Job job = zop.jobs().await(zop.jobs().submit(unauthenticated.id(), RegistrySpec.named("anything")).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.FAILED);
    assertThat(job.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(job.lastFailure().code()).isEqualTo("credentials_missing");
    assertThat(job.lastFailure().fixHint()).contains("ZOP_TEST_UNSET_GCP_KEY");
    assertThat(FAKE.calls()).isEmpty();
  }

  @Test
  void aRepositoryNameHeldByAnotherIsRefusedAndLeftAlone() {
    String path = "v1/projects/" + PROJECT + "/locations/us-central1/repositories/team-web";
    FAKE.put("artifactregistry", path, Repository.newBuilder().setName(path.substring(3))
        .setFormat(Repository.Format.DOCKER).build());
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("team/web")).id(), WAIT);
    assertThat(job.status()).isEqualTo(JobStatus.FAILED);
    assertThat(job.lastFailure().code()).isEqualTo("name_in_use");
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(FAKE.resources("artifactregistry")).containsOnlyKeys(path);
  }

  @Test
  void whatGcpDoesNotMakeYetIsRefusedByField() {
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), NetworkSpec.named("zoned").cidr("10.0.0.0/16")
        .subnet(Subnet.publicSubnet("edge", "10.0.0.0/24", null)).natGateways("single")
        .dnsZone("core.internal.example.com").build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.natGateways"));
  }

  @Test
  void secretManagerHoldsASpacesSecretsUnderReversibleIds() throws Exception {
    assertThat(SecretManagerStore.encode("zop/org_1/job.x/admin")).matches("[A-Za-z0-9_-]+");
    for (String name : java.util.List.of("zop/org_1/job.x/admin", "a__b", "ü:/ _x0041")) {
      assertThat(SecretManagerStore.decode(SecretManagerStore.encode(name))).isEqualTo(name);
    }
    try (ProviderSession session = new GcpProvider().open(account, "us-central1")) {
      SecretStore store = session.secrets();
      SecretRef ref = store.put("zop/test/admin", "s3cret-one");
      assertThat(ref.value()).isEqualTo("projects/" + PROJECT + "/secrets/zop_stest_sadmin");
      assertThat(store.get(ref)).isEqualTo("s3cret-one");
      assertThat(store.put("zop/test/admin", "s3cret-two")).isEqualTo(ref);
      assertThat(store.get(ref)).isEqualTo("s3cret-two");
      assertThat(store.rotate(ref, "s3cret-three")).isEqualTo(ref);
      assertThat(store.get(ref)).isEqualTo("s3cret-three");
      store.delete(ref);
      store.delete(ref);
      assertThatThrownBy(() -> store.get(ref)).isInstanceOf(NoSuchElementException.class);
    }
  }

  @Test
  void theFakeAnswersAMisspeltFieldAsGoogleDoes() throws Exception {
    HttpClient http = HttpClient.newHttpClient();
    Supplier<HttpRequest.Builder> networks = () -> HttpRequest.newBuilder(URI.create(
        FAKE.endpoints().get("endpoint.compute") + "/compute/v1/projects/" + PROJECT + "/global/networks"));
    HttpResponse<String> misspelt = http.send(networks.get().POST(HttpRequest.BodyPublishers.ofString(
        "{\"name\": \"x\", \"autoCreateSubnetwork\": false}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(misspelt.statusCode()).isEqualTo(400);
    assertThat(misspelt.body()).contains("INVALID_ARGUMENT").contains("autoCreateSubnetwork");
    HttpResponse<String> unknownRoute = http.send(HttpRequest.newBuilder(URI.create(
        FAKE.endpoints().get("endpoint.compute") + "/compute/v1/projects/" + PROJECT + "/global/nonsense"))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(unknownRoute.statusCode()).isEqualTo(404);
    HttpResponse<String> wellFormed = http.send(networks.get().POST(HttpRequest.BodyPublishers.ofString(
        "{\"name\": \"x\", \"autoCreateSubnetworks\": false}")).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(wellFormed.statusCode()).isEqualTo(200);
    assertThat(wellFormed.body()).contains("\"operationType\": \"insert\"");
  }
}
