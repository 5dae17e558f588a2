package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole Azure jobs on the engine, in a space's resource group, against the ARM fake. */
class AzureEngineTest {
  private static final ArmFake FAKE = AzureProviderTckTest.fake();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String SUBSCRIPTION = AzureProviderTckTest.SUBSCRIPTION;
  private static final String GROUP = AzureProviderTckTest.GROUP;

  @TempDir Path dir;
  private EmbeddedProvisioner zop;
  private CloudAccount account;
  private Space space;

  @BeforeEach
  void start() {
    FAKE.reset();
    FAKE.operationPolls(2);
    FAKE.resourceGroup(GROUP, "westeurope");
    zop = EmbeddedProvisioner.builder().dataDirectory(dir).discoverProviders(false)
        .provider(new AzureProvider().withCredential(ArmFake.credential()).withHttpClient(FAKE.httpClient())
            .withoutVaultChallengeVerification().pollingEvery(Duration.ofMillis(20)))
        .pollInterval(Duration.ofMillis(20))
        .retryPolicy(RetryPolicy.exponential(2, Duration.ofMillis(10), Duration.ofMillis(30))).build();
    account = zop.accounts().create(CloudAccountRequest.of("azure", "fake")
        .property("tenantId", "00000000-0000-0000-0000-0000000000aa").property("subscriptionId", SUBSCRIPTION)
        .property("endpoint", FAKE.endpoint()));
    space = zop.spaces().create(SpaceRequest.of("azure", "platform-eastus", account.id()).region("eastus")
        .resourceGroup(GROUP));
  }

  /**
   * Tears {@code job} down and checks that the teardown waited on ARM: each delete is an operation, and the
   * resource reads Deleting until it is done.
   */
  private void tearDownWaitingOnDeletes(Job job) {
    long before = zop.jobs().events(job.id(), 0).stream().mapToLong(dev.zop.provisioner.JobEvent::seq).max()
        .orElse(0);
    assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(zop.jobs().events(job.id(), before)).filteredOn(e -> e.type() == dev.zop.provisioner.JobEventType
        .STEP_WAITING).extracting(dev.zop.provisioner.JobEvent::message)
        .anySatisfy(m -> assertThat(m).contains("is being deleted"));
  }

  @AfterEach
  void stop() {
    zop.close();
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  private ObjectNode resource(String type, String name) {
    return FAKE.resources().get(("/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP + "/providers/" + type
        + "/" + name).toLowerCase(java.util.Locale.ROOT));
  }

  @Test
  void aNetworkAndARegistryAreMadeInTheSpacesResourceGroupAndTornDown() {
    AzureProviderTckTest.peerNetwork(FAKE, "shared-services");
    NetworkSpec spec = NetworkSpec.named("core").cidr("10.0.0.0/16").subnet("app", "10.0.1.0/24")
        .subnet("data", "10.0.2.0/24").peerVpcId("shared-services").dnsZone("core.internal.example.com").build();

    Plan plan = zop.jobs().plan(space.id(), spec);
    assertThat(plan.provider()).isEqualTo("azure");
    assertThat(plan.permissions()).contains("Microsoft.Network/virtualNetworks/write",
        "Microsoft.Network/virtualNetworks/subnets/write", "Microsoft.Network/virtualNetworks/peer/action");

    Job network = zop.jobs().await(zop.jobs().submit(space.id(), spec).id(), WAIT);
    assertThat(network.status()).as(String.valueOf(network.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    ObjectNode vnet = resource("Microsoft.Network/virtualNetworks", "core");
    assertThat(vnet.path("properties").path("addressSpace").path("addressPrefixes").get(0).asText())
        .isEqualTo("10.0.0.0/16");
    assertThat(vnet.path("tags").path("zop-job").asText()).isEqualTo(network.id().value());
    assertThat(resource("Microsoft.Network/virtualNetworks", "core/subnets/data").path("properties")
        .path("addressPrefix").asText()).isEqualTo("10.0.2.0/24");
    // both sides peered, so both are connected
    assertThat(resource("Microsoft.Network/virtualNetworks", "core/virtualNetworkPeerings/core-to-shared-services")
        .path("properties").path("peeringState").asText()).isEqualTo("Connected");
    assertThat(resource("Microsoft.Network/virtualNetworks",
        "shared-services/virtualNetworkPeerings/shared-services-to-core").path("properties").path("peeringState")
        .asText()).isEqualTo("Connected");

    // discovery sees the group's networks and the new network's subnets, as a wizard would
    var discovery = zop.spaces().discovery(space.id());
    assertThat(discovery.networks()).extracting(n -> n.id()).containsExactlyInAnyOrder("core", "shared-services");
    assertThat(discovery.subnets("core")).extracting(s -> s.cidr()).containsExactlyInAnyOrder("10.0.1.0/24",
        "10.0.2.0/24");
    // the private zone, linked to the network
    assertThat(discovery.dnsZones()).extracting(z -> z.name() + " private=" + z.privateZone())
        .containsExactly("core.internal.example.com private=true");
    ObjectNode link = resource("Microsoft.Network/privateDnsZones", "core.internal.example.com/virtualNetworkLinks/core-link");
    assertThat(link.path("properties").path("virtualNetwork").path("id").asText()).isEqualTo(vnet.path("id").asText());
    assertThat(link.path("properties").path("registrationEnabled").asBoolean()).isFalse();
    assertThat(resource("Microsoft.Network/privateDnsZones", "core.internal.example.com").path("location").asText())
        .isEqualTo("global");

    Job registry = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("platform/api")).id(), WAIT);
    assertThat(registry.status()).as(String.valueOf(registry.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(registry.outputs()).containsEntry("loginServer", "platformapi.azurecr.io")
        .containsEntry("repositoryUri", "platformapi.azurecr.io/platform/api");

    tearDownWaitingOnDeletes(network);
    tearDownWaitingOnDeletes(registry);
    // only the network this test made itself is left, without its peering to ours
    assertThat(FAKE.resources()).hasSize(1);
  }

  @Test
  void aSpaceThatNamesOnlyItsResourceGroupPutsItsResourcesInTheGroupsLocation() {
    // the spaces document's Azure space: a resource group and nothing else
    Space groupOnly = zop.spaces().create(SpaceRequest.of("azure", "platform-rg-only",
        account.id()).resourceGroup(GROUP));
    Job registry = zop.jobs().await(zop.jobs().submit(groupOnly.id(), RegistrySpec.named("team/web")).id(), WAIT);
    assertThat(registry.status()).as(String.valueOf(registry.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(resource("Microsoft.ContainerRegistry/registries", "teamweb").path("location").asText())
        .isEqualTo("westeurope");
    assertThat(FAKE.calls()).contains("Microsoft.Resources/subscriptions/resourceGroups/read");
  }

  @Test
  void aSpaceThatNamesOnlyItsResourceGroupIsPricedInTheGroupsLocation() {
    FAKE.resourceGroup("platform-east", "eastus2");
    Space groupOnly = zop.spaces().create(SpaceRequest.of("azure", "platform-east-rg-only",
        account.id()).resourceGroup("platform-east"));
    var body = dev.zop.provisioner.spec.DatastoreSpec.postgres().name("orders").version("16")
        .instanceClass("Standard_D4ds_v5").allocatedStorageGb(100).build();

    Plan plan = zop.jobs().plan(groupOnly.id(), body);
    // eastus2 is priced as eastus: the same lines as in the space that names eastus, none unknown
    assertThat(plan.complete()).as(String.valueOf(plan.costs())).isTrue();
    assertThat(plan.monthlyTotal()).isEqualByComparingTo(zop.jobs().plan(space.id(), body).monthlyTotal());
    assertThat(FAKE.calls()).contains("Microsoft.Resources/subscriptions/resourceGroups/read");
  }

  @Test
  void theDocumentsKubernetesBodyMakesAnAksClusterWhoseSpaceGetsAKubeconfig() throws Exception {
    // what the document's invented network and subnet ids stand for
    Job network = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("platform-net")
        .cidr("10.1.0.0/16").subnet("platform-net-a", "10.1.0.0/20").subnet("platform-net-b", "10.1.16.0/20")
        .build()).id(), WAIT);
    assertThat(network.status()).isEqualTo(JobStatus.SUCCEEDED);
    var body = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "name": "platform-prod", "version": "1.30", "nodeGroups": [ { "name": "default",
          "instanceType": "m5.large", "min": 2, "max": 6 } ], "vpcID": "platform-net",
          "subnetIDs": ["platform-net-a", "platform-net-b"] }""", dev.zop.provisioner.spec.KubernetesSpec.class);

    Plan plan = zop.jobs().plan(space.id(), body);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value())
        .contains("nodeGroups[0].instanceType=Standard_D2s_v5", "subnetIDs=platform-net-a");
    assertThat(plan.permissions()).contains("Microsoft.ContainerService/managedClusters/write",
        "Microsoft.Network/virtualNetworks/subnets/join/action");
    // the free tier's control plane and 2 x 730 h of Standard_D2s_v5 at 0.096
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("140.16");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    ObjectNode cluster = resource("Microsoft.ContainerService/managedClusters", "platform-prod");
    var pool = cluster.path("properties").path("agentPoolProfiles").get(0);
    assertThat(pool.path("vmSize").asText()).isEqualTo("Standard_D2s_v5");
    assertThat(pool.path("minCount").asInt()).isEqualTo(2);
    assertThat(pool.path("maxCount").asInt()).isEqualTo(6);
    assertThat(pool.path("enableAutoScaling").asBoolean()).isTrue();
    assertThat(pool.path("vnetSubnetID").asText()).endsWith("/virtualNetworks/platform-net/subnets/platform-net-a");
    assertThat(job.outputs().get("endpoint")).startsWith("https://platform-prod-").endsWith(".azmk8s.io");

    Space registered = zop.spaces().list().stream().filter(s -> "platform-prod".equals(s.config().get("clusterName")))
        .findFirst().orElseThrow();
    var kubeconfig = zop.spaces().kubeconfig(registered.id());
    assertThat(kubeconfig.server()).isEqualTo(job.outputs().get("endpoint") + ":443");
    assertThat(kubeconfig.token()).isEqualTo(FAKE.userToken(cluster.path("id").asText()));
    assertThat(zop.spaces().discovery(space.id()).clusters()).extracting(c -> c.name() + " " + c.version() + " "
        + c.endpoint()).containsExactly("platform-prod 1.30 " + job.outputs().get("endpoint"));

    // revised in place: node group 3..10 and Kubernetes 1.31, one PUT of the managed cluster
    var revised = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "name": "platform-prod", "version": "1.31", "nodeGroups": [ { "name": "default",
          "instanceType": "m5.large", "min": 3, "max": 10 } ], "vpcID": "platform-net",
          "subnetIDs": ["platform-net-a", "platform-net-b"] }""", dev.zop.provisioner.spec.KubernetesSpec.class);
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), revised);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactlyInAnyOrder("version:1.30->1.31", "nodeGroups[0].min:2->3", "nodeGroups[0].max:6->10");
    // 2 x 730 h of Standard_D2s_v5 at 0.096, then 3
    assertThat(revision.before().monthlyTotal()).isEqualByComparingTo("140.16");
    assertThat(revision.after().monthlyTotal()).isEqualByComparingTo("210.24");
    Job updated = zop.jobs().await(zop.jobs().revise(job.id(), revised).id(), WAIT);
    assertThat(updated.status()).as(String.valueOf(updated.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    ObjectNode changed = resource("Microsoft.ContainerService/managedClusters", "platform-prod");
    assertThat(changed.path("id").asText()).isEqualTo(cluster.path("id").asText());
    assertThat(changed.path("properties").path("kubernetesVersion").asText()).isEqualTo("1.31");
    var scaled = changed.path("properties").path("agentPoolProfiles").get(0);
    assertThat(scaled.path("minCount").asInt()).isEqualTo(3);
    assertThat(scaled.path("maxCount").asInt()).isEqualTo(10);
    assertThat(scaled.path("count").asInt()).isEqualTo(3);
    assertThat(scaled.path("vmSize").asText()).isEqualTo("Standard_D2s_v5");

    // a larger VM size and a second group: AKS cannot resize a pool, so one of the new size replaces it
    var regrouped = revised.toBuilder().nodeGroups(java.util.List.of(
        new dev.zop.provisioner.spec.NodeGroup("default", "Standard_D4s_v5", 3, 10, null),
        new dev.zop.provisioner.spec.NodeGroup("batch", "Standard_D2s_v5", 1, 2, null))).build();
    dev.zop.provisioner.RevisionPlan replacing = zop.jobs().planRevision(job.id(), regrouped);
    assertThat(replacing.changes()).filteredOn(c -> c.field().equals("nodeGroups[0].instanceType"))
        .singleElement().satisfies(c -> assertThat(c.effect()).isEqualTo(
            dev.zop.provisioner.RevisionChange.Effect.REPLACE));
    assertThat(replacing.steps()).extracting(dev.zop.provisioner.PlanStep::name).containsExactly(
        "create-agent-pool-default2", "await-agent-pool-default2", "drain-and-delete-agent-pool-default",
        "create-agent-pool-batch", "await-agent-pool-batch");
    Job regroupedJob = zop.jobs().await(zop.jobs().revise(job.id(), regrouped).id(), WAIT);
    assertThat(regroupedJob.status()).as(String.valueOf(regroupedJob.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var pools = resource("Microsoft.ContainerService/managedClusters", "platform-prod").path("properties")
        .path("agentPoolProfiles");
    assertThat(pools).extracting(p -> p.path("name").asText() + " " + p.path("mode").asText() + " "
        + p.path("vmSize").asText() + " " + p.path("minCount").asInt() + ".." + p.path("maxCount").asInt())
        .containsExactly("default2 System Standard_D4s_v5 3..10", "batch User Standard_D2s_v5 1..2");
    // and the batch group dropped again: its pool deleted, the replacement kept under the group's record
    Job dropped = zop.jobs().await(zop.jobs().revise(job.id(), regrouped.toBuilder().nodeGroups(java.util.List.of(
        regrouped.nodeGroups().get(0))).build()).id(), WAIT);
    assertThat(dropped.status()).as(String.valueOf(dropped.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(resource("Microsoft.ContainerService/managedClusters", "platform-prod").path("properties")
        .path("agentPoolProfiles")).extracting(p -> p.path("name").asText()).containsExactly("default2");

    tearDownWaitingOnDeletes(job);
    assertThat(resource("Microsoft.ContainerService/managedClusters", "platform-prod")).isNull();
    tearDownWaitingOnDeletes(network);
  }

  @Test
  void theDocumentsDatastoreBodyMakesAFlexibleServerWhoseOutputsFeedTheDatabasesFeature() throws Exception {
    // the local PostgreSQL stands in for the server, as on AWS and GCP: the fake answers with its host
    var server = dev.zop.provisioner.testkit.TestDatabaseServers.postgres();
    FAKE.standInHost(server.host());
    // Azure makes the server's administrator role with the login the job asks for, a member of every role it
    // creates; the stand-in gets that role too (a superuser there, which covers the membership)
    try (var c = java.sql.DriverManager.getConnection(dev.zop.provisioner.testkit.TestDatabaseServers
        .postgresUrl(server, "postgres"), server.adminUser(), server.adminPassword()); var s = c.createStatement()) {
      s.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'zopadmin') THEN"
          + " CREATE ROLE zopadmin; END IF; END $$");
      s.execute("ALTER ROLE zopadmin LOGIN SUPERUSER");
    }
    var body = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.t3.medium", "allocatedStorageGB": 50,
          "multiAZ": true, "backupRetentionDays": 7 }""", dev.zop.provisioner.spec.DatastoreSpec.class);

    Plan plan = zop.jobs().plan(space.id(), body);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value())
        .contains("instanceClass=Standard_D2ds_v5", "allocatedStorageGB=64");
    // zone-redundant: 2 x 730 h x 0.178, and 2 x 64 GB at 0.115
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("274.60");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("host", server.host()).containsEntry("port", "5432")
        .containsEntry("adminUser", "zopadmin").containsKey("adminSecretRef");
    ObjectNode flexible = FAKE.resources().values().stream()
        .filter(r -> r.path("type").asText().equals("Microsoft.DBforPostgreSQL/flexibleServers")).findFirst()
        .orElseThrow();
    assertThat(flexible.path("properties").path("highAvailability").path("mode").asText()).isEqualTo("ZoneRedundant");
    assertThat(flexible.path("properties").path("version").asText()).isEqualTo("16");
    assertThat(flexible.path("properties").path("backup").path("backupRetentionDays").asInt()).isEqualTo(7);
    assertThat(flexible.path("properties").has("administratorLoginPassword")).isFalse();

    String prefix = "za" + java.util.UUID.randomUUID().toString().substring(0, 6) + "_";
    try {
      var database = zop.jobs().databases(job.id()).create(prefix + "app", prefix + "app_owner");
      assertThat(database.host()).isEqualTo(server.host());
      zop.jobs().databases(job.id()).delete(database.id());
    } finally {
      try (var c = java.sql.DriverManager.getConnection(dev.zop.provisioner.testkit.TestDatabaseServers
          .postgresUrl(server, "postgres"), server.adminUser(), server.adminPassword());
          var s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS \"" + prefix + "app\" WITH (FORCE)");
        s.execute("DROP ROLE IF EXISTS \"" + prefix + "app_owner\"");
        // the stand-in's administrator goes with the test: nothing on this machine should keep it
        s.execute("DROP ROLE IF EXISTS zopadmin");
      }
    }

    // revised in place: the General Purpose size that holds db.m5.xlarge, 100 GB (Azure's next size, 128) and
    // 14 days of backups
    var larger = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.m5.xlarge", "allocatedStorageGB": 100,
          "multiAZ": true, "backupRetentionDays": 14 }""", dev.zop.provisioner.spec.DatastoreSpec.class);
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), larger);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactlyInAnyOrder("instanceClass:Standard_D2ds_v5->Standard_D4ds_v5", "allocatedStorageGB:64->128",
            "backupRetentionDays:7->14");
    assertThat(revision.permissions()).containsExactly("Microsoft.DBforPostgreSQL/flexibleServers/read",
        "Microsoft.DBforPostgreSQL/flexibleServers/write");
    assertThat(revision.after().monthlyTotal()).isGreaterThan(revision.before().monthlyTotal());
    Job revised = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    List<ObjectNode> servers = FAKE.resources().values().stream()
        .filter(r -> r.path("type").asText().equals("Microsoft.DBforPostgreSQL/flexibleServers")).toList();
    // the same server, changed where it stands
    assertThat(servers).singleElement().satisfies(changed -> {
      assertThat(changed.path("id").asText()).isEqualTo(flexible.path("id").asText());
      assertThat(changed.path("sku").path("name").asText()).isEqualTo("Standard_D4ds_v5");
      assertThat(changed.path("sku").path("tier").asText()).isEqualTo("GeneralPurpose");
      assertThat(changed.path("properties").path("storage").path("storageSizeGB").asInt()).isEqualTo(128);
      assertThat(changed.path("properties").path("backup").path("backupRetentionDays").asInt()).isEqualTo(14);
      assertThat(changed.path("properties").path("highAvailability").path("mode").asText())
          .isEqualTo("ZoneRedundant");
    });

    tearDownWaitingOnDeletes(job);
    assertThat(FAKE.resources()).isEmpty();
  }

  @Test
  void theDocumentsVmPoolBodyMakesAScaleSetBehindAStandardLoadBalancer() throws Exception {
    var body = new com.fasterxml.jackson.databind.ObjectMapper().readValue("""
        { "name": "checkout-edge", "instanceType": "m5.large", "min": 2, "max": 6, "createLoadBalancer": true,
          "listenerPorts": [80, 443] }""", dev.zop.provisioner.spec.VmPoolSpec.class);

    Plan plan = zop.jobs().plan(space.id(), body);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value()).contains(
        "instanceType=Standard_D2s_v5", "imageId=Canonical:ubuntu-24_04-lts:server:latest",
        "vpcID=checkout-edge-vnet", "subnetIDs=default", "loadBalancerType=network");
    assertThat(plan.permissions()).contains("Microsoft.Compute/virtualMachineScaleSets/write",
        "Microsoft.Network/loadBalancers/write", "Microsoft.Network/loadBalancers/backendAddressPools/join/action",
        "Microsoft.Insights/autoscalesettings/write", "Microsoft.Network/networkSecurityGroups/join/action");
    // 2 x 730 h of Standard_D2s_v5 at 0.096, the load balancer at 0.025 and its address at 0.005 an hour
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("162.06");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("scaleSetName", "checkout-edge").containsEntry("adminUser", "zopadmin")
        .containsEntry("minSize", "2").containsEntry("maxSize", "6").containsKeys("loadBalancerAddress",
            "sshKeySecretRef");
    assertThat(job.outputs().get("dnsName")).startsWith("checkout-edge-").endsWith(".eastus.cloudapp.azure.com");

    ObjectNode set = resource("Microsoft.Compute/virtualMachineScaleSets", "checkout-edge");
    assertThat(set.path("sku").path("name").asText()).isEqualTo("Standard_D2s_v5");
    assertThat(set.path("sku").path("capacity").asInt()).isEqualTo(2);
    var vmProfile = set.path("properties").path("virtualMachineProfile");
    assertThat(vmProfile.path("storageProfile").path("imageReference").path("offer").asText())
        .isEqualTo("ubuntu-24_04-lts");
    var linux = vmProfile.path("osProfile").path("linuxConfiguration");
    assertThat(linux.path("disablePasswordAuthentication").asBoolean()).isTrue();
    // the key on the instances is the public half of the one kept in the space's secret store
    String privateKey = zop.secrets().reveal(dev.zop.provisioner.SecretRef.of(job.outputs().get("sshKeySecretRef")));
    assertThat(linux.path("ssh").path("publicKeys").get(0).path("keyData").asText())
        .isEqualTo(dev.zop.provisioner.kit.GeneratedSecrets.sshPublicKey(privateKey, "zopadmin@checkout-edge"));
    var ipConfig = vmProfile.path("networkProfile").path("networkInterfaceConfigurations").get(0)
        .path("properties").path("ipConfigurations").get(0).path("properties");
    assertThat(ipConfig.path("subnet").path("id").asText()).endsWith("/virtualNetworks/checkout-edge-vnet/subnets/default");
    assertThat(ipConfig.path("loadBalancerBackendAddressPools").get(0).path("id").asText())
        .endsWith("/loadBalancers/checkout-edge-lb/backendAddressPools/pool");

    // a rule and a TCP probe per listener port; the security group opens exactly those ports
    ObjectNode lb = resource("Microsoft.Network/loadBalancers", "checkout-edge-lb");
    assertThat(lb.path("sku").path("name").asText()).isEqualTo("Standard");
    assertThat(lb.path("properties").path("loadBalancingRules").findValuesAsText("frontendPort"))
        .containsExactly("80", "443");
    assertThat(lb.path("properties").path("probes").findValuesAsText("protocol")).containsExactly("Tcp", "Tcp");
    assertThat(lb.path("properties").path("outboundRules")).hasSize(1);
    ObjectNode nsg = resource("Microsoft.Network/networkSecurityGroups", "checkout-edge-nsg");
    assertThat(nsg.path("properties").path("securityRules").findValuesAsText("destinationPortRange"))
        .containsExactly("80", "443");
    assertThat(nsg.path("properties").path("securityRules").findValuesAsText("access")).containsOnly("Allow");

    ObjectNode autoscale = resource("Microsoft.Insights/autoscalesettings", "checkout-edge-autoscale");
    var capacity = autoscale.path("properties").path("profiles").get(0).path("capacity");
    assertThat(capacity.path("minimum").asText()).isEqualTo("2");
    assertThat(capacity.path("maximum").asText()).isEqualTo("6");
    assertThat(autoscale.path("properties").path("targetResourceUri").asText()).isEqualTo(set.path("id").asText());

    // revised: a larger size, rolled onto the instances one at a time, and 3..8
    var larger = body.toBuilder().instanceType("Standard_D4s_v5").size(3, 8).build();
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), larger);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to() + " " + c.effect())
        .containsExactlyInAnyOrder("instanceType:Standard_D2s_v5->Standard_D4s_v5 REPLACE", "min:2->3 IN_PLACE",
            "max:6->8 IN_PLACE");
    assertThat(revision.steps()).extracting(dev.zop.provisioner.PlanStep::name).containsExactly(
        "update-scale-set-model", "upgrade-instances", "update-autoscale");
    Job rolled = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(rolled.status()).as(String.valueOf(rolled.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    ObjectNode resized = resource("Microsoft.Compute/virtualMachineScaleSets", "checkout-edge");
    assertThat(resized.path("id").asText()).isEqualTo(set.path("id").asText());
    assertThat(resized.path("sku").path("name").asText()).isEqualTo("Standard_D4s_v5");
    // every instance upgraded to the model, one manual upgrade each
    assertThat(FAKE.resources().entrySet()).filteredOn(e -> e.getKey().contains("/virtualmachinescalesets/"
        + "checkout-edge/virtualmachines/")).extracting(e -> e.getValue().path("sku").path("name").asText() + " "
            + e.getValue().path("properties").path("latestModelApplied").asBoolean())
        .containsExactly("Standard_D4s_v5 true", "Standard_D4s_v5 true");
    assertThat(FAKE.calls()).filteredOn(c -> c.endsWith("/manualUpgrade/action")).hasSize(2);
    var bounds = resource("Microsoft.Insights/autoscalesettings", "checkout-edge-autoscale").path("properties")
        .path("profiles").get(0).path("capacity");
    assertThat(bounds.path("minimum").asText() + ".." + bounds.path("maximum").asText()).isEqualTo("3..8");

    tearDownWaitingOnDeletes(job);
    assertThat(FAKE.resources()).isEmpty();
    assertThatThrownBy(() -> zop.secrets().reveal(dev.zop.provisioner.SecretRef.of(job.outputs()
        .get("sshKeySecretRef")))).isInstanceOf(dev.zop.provisioner.NotFoundException.class);
  }

  private java.util.List<String> drifts(Job job) {
    return zop.jobs().checkDrift(job.id()).drifts().stream().map(d -> d.resource() + "|" + d.field() + "|"
        + d.expected() + "|" + d.actual()).toList();
  }

  private String id(String type, String name) {
    return "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP + "/providers/" + type + "/" + name;
  }

  @Test
  void aPoolResizedAndARuleRemovedInTheFakeAreReportedAndPutBackAndADeletedSettingIsMissing() throws Exception {
    Job network = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("drift-net")
        .cidr("10.1.0.0/16").subnet("drift-net-a", "10.1.0.0/20").build()).id(), WAIT);
    var mapper = new com.fasterxml.jackson.databind.ObjectMapper();
    Job cluster = zop.jobs().await(zop.jobs().submit(space.id(), mapper.readValue("""
        { "name": "drift-aks", "version": "1.30", "nodeGroups": [ { "name": "default",
          "instanceType": "m5.large", "min": 2, "max": 6 } ], "vpcID": "drift-net", "subnetIDs": ["drift-net-a"] }""",
        dev.zop.provisioner.spec.KubernetesSpec.class)).id(), WAIT);
    Job pool = zop.jobs().await(zop.jobs().submit(space.id(), mapper.readValue("""
        { "name": "checkout-edge", "instanceType": "m5.large", "min": 2, "max": 6, "createLoadBalancer": true,
          "listenerPorts": [80, 443] }""", dev.zop.provisioner.spec.VmPoolSpec.class)).id(), WAIT);
    for (Job job : java.util.List.of(network, cluster, pool)) {
      assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
      assertThat(drifts(job)).as(job.kind().wireName()).isEmpty();
    }

    // by hand, in the fake's own state: the agent pool's bounds changed, the rule opening 443 removed
    // the group's agent pool is named after it, as AKS pool names allow
    String poolName = KubernetesDriver.poolName(new dev.zop.provisioner.spec.NodeGroup("default", "m5.large", 2, 6,
        null));
    String poolId = id("Microsoft.ContainerService/managedClusters", "drift-aks") + "/agentPools/" + poolName;
    ((ObjectNode) FAKE.held(poolId).get("properties")).put("minCount", 1).put("maxCount", 3);
    var rules = (com.fasterxml.jackson.databind.node.ArrayNode) FAKE.held(id("Microsoft.Network/networkSecurityGroups",
        "checkout-edge-nsg")).path("properties").path("securityRules");
    for (int i = rules.size() - 1; i >= 0; i--) {
      if (rules.get(i).path("name").asText().equals("allow-tcp-443")) {
        rules.remove(i);
      }
    }
    // and the cluster upgraded by hand, which AKS cannot take back
    ((ObjectNode) FAKE.held(id("Microsoft.ContainerService/managedClusters", "drift-aks")).get("properties"))
        .put("kubernetesVersion", "1.31");
    assertThat(drifts(cluster)).contains(
        "aks agent pool drift-aks/" + poolName + "|nodeGroups[0].min|2|1",
        "aks agent pool drift-aks/" + poolName + "|nodeGroups[0].max|6|3")
        .anyMatch(d -> d.contains("|version|1.30|1.31")).hasSize(3);
    assertThat(drifts(pool)).containsExactly("network security group checkout-edge-nsg|securityRules|80,443|80");

    // what can be put back is offered; the version, which cannot, is said to stay
    var reconcilePlan = zop.jobs().planReconcile(cluster.id());
    assertThat(reconcilePlan.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactlyInAnyOrder("nodeGroups[0].min:1->2", "nodeGroups[0].max:3->6");
    assertThat(reconcilePlan.warnings()).extracting(w -> w.code() + " " + w.field())
        .containsExactly("not_reconcilable version");
    Job clusterBack = zop.jobs().await(zop.jobs().reconcile(cluster.id()).id(), WAIT);
    Job poolBack = zop.jobs().await(zop.jobs().reconcile(pool.id()).id(), WAIT);
    assertThat(clusterBack.status()).as(String.valueOf(clusterBack.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(poolBack.status()).as(String.valueOf(poolBack.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var profile = resource("Microsoft.ContainerService/managedClusters", "drift-aks").path("properties")
        .path("agentPoolProfiles").get(0);
    assertThat(profile.path("minCount").asInt() + ".." + profile.path("maxCount").asInt()).isEqualTo("2..6");
    assertThat(resource("Microsoft.Network/networkSecurityGroups", "checkout-edge-nsg").path("properties")
        .path("securityRules").findValuesAsText("destinationPortRange")).containsExactlyInAnyOrder("80", "443");
    assertThat(resource("Microsoft.ContainerService/managedClusters", "drift-aks").path("properties")
        .path("kubernetesVersion").asText()).as("never taken back").isEqualTo("1.31");
    assertThat(drifts(cluster)).singleElement().asString().contains("|version|1.30|1.31");
    assertThat(drifts(pool)).isEmpty();

    FAKE.remove(id("Microsoft.Insights/autoscalesettings", pool.outputs().get("autoscaleName")));
    assertThat(drifts(pool)).containsExactly("autoscale setting " + pool.outputs().get("autoscaleName")
        + "|null|present|null");

    for (Job job : java.util.List.of(pool, cluster, network)) {
      assertThat(zop.jobs().await(zop.jobs().delete(job.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    }
  }

  @Test
  void aVirtualNetworkMadeOutsideIsImportedTaggedRevisedAndTornDownToNothing() {
    FAKE.existingNetwork(SUBSCRIPTION, GROUP, "legacy-vnet", "10.8.0.0/16", java.util.Map.of("a", "10.8.1.0/24"));
    NetworkSpec wanted = NetworkSpec.named("legacy-vnet").cidr("10.8.0.0/16").subnet("a", "10.8.1.0/24").build();

    var plan = zop.jobs().planImport(space.id(), dev.zop.provisioner.ImportRequest.of(wanted, "legacy-vnet"));
    assertThat(plan.adopted()).containsExactly("virtual network legacy-vnet", "subnet legacy-vnet/a");
    assertThat(plan.changes()).isEmpty();
    assertThat(plan.permissions()).containsExactly("Microsoft.Network/virtualNetworks/read",
        "Microsoft.Network/virtualNetworks/write");

    Job imported = zop.jobs().await(zop.jobs().importExisting(space.id(),
        dev.zop.provisioner.ImportRequest.of(wanted, "legacy-vnet")).id(), WAIT);
    assertThat(imported.status()).as(String.valueOf(imported.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    ObjectNode vnet = resource("Microsoft.Network/virtualNetworks", "legacy-vnet");
    assertThat(vnet.path("tags").path("zop-job").asText()).isEqualTo(imported.id().value());
    String vnetKey = id("Microsoft.Network/virtualNetworks", "legacy-vnet").toLowerCase(java.util.Locale.ROOT);
    // its subnet kept through the PUT that tagged it: a child ARM would have replaced had it been left out
    assertThat(FAKE.resources().keySet()).filteredOn(k -> k.startsWith(vnetKey + "/subnets/"))
        .containsExactly(vnetKey + "/subnets/a");
    assertThat(zop.jobs().checkDrift(imported.id()).status()).isEqualTo(dev.zop.provisioner.DriftReport.Status.IN_SYNC);
    assertThatThrownBy(() -> zop.jobs().planImport(space.id(), dev.zop.provisioner.ImportRequest.of(wanted,
        "legacy-vnet"))).isInstanceOfSatisfying(dev.zop.provisioner.ConflictException.class,
            e -> assertThat(e.code()).isEqualTo("owned_by_another_job"));

    NetworkSpec grown = wanted.toBuilder().subnet("b", "10.8.2.0/24").build();
    Job revised = zop.jobs().await(zop.jobs().revise(imported.id(), grown).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(FAKE.resources().keySet()).filteredOn(k -> k.startsWith(vnetKey + "/subnets/"))
        .containsExactlyInAnyOrder(vnetKey + "/subnets/a", vnetKey + "/subnets/b");

    assertThat(zop.jobs().await(zop.jobs().delete(imported.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);
    assertThat(FAKE.resources().keySet()).noneMatch(k -> k.contains("/virtualnetworks/legacy-vnet"));
  }

  @Test
  void aMySqlFlexibleServerFeedsTheDatabasesFeature() throws Exception {
    // the local MariaDB stands in for the server; its administrator gets the password the job generated, as Azure
    // gives the server's administrator the one it is sent
    var server = dev.zop.provisioner.testkit.TestDatabaseServers.mariadb();
    FAKE.standInHost(server.host());
    var body = dev.zop.provisioner.spec.DatastoreSpec.mysql().name("orders-mysql").version("8.0")
        .instanceClass("db.m5.large").allocatedStorageGb(50).multiAz(true).backupRetentionDays(14).build();
    Plan plan = zop.jobs().plan(space.id(), body);
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value())
        .contains("instanceClass=Standard_D2ds_v4", "allocatedStorageGB=64");
    assertThat(plan.permissions()).contains("Microsoft.DBforMySQL/flexibleServers/write");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("engine", "mysql").containsEntry("port", "3306")
        .containsEntry("host", server.host()).containsEntry("adminUser", "zopadmin");
    ObjectNode flexible = resource("Microsoft.DBforMySQL/flexibleServers", "orders-mysql");
    assertThat(flexible.path("properties").path("version").asText()).isEqualTo("8.0.21");
    assertThat(flexible.path("properties").path("highAvailability").path("mode").asText()).isEqualTo("ZoneRedundant");
    assertThat(flexible.path("properties").path("backup").path("backupRetentionDays").asInt()).isEqualTo(14);
    assertThat(flexible.path("sku").path("tier").asText()).isEqualTo("GeneralPurpose");

    String password = zop.secrets().reveal(dev.zop.provisioner.SecretRef.of(job.outputs().get("adminSecretRef")));
    String prefix = "zm" + java.util.UUID.randomUUID().toString().substring(0, 6) + "_";
    try (var c = java.sql.DriverManager.getConnection(dev.zop.provisioner.testkit.TestDatabaseServers
        .mariadbUrl(server, ""), server.adminUser(), server.adminPassword()); var s = c.createStatement()) {
      s.execute("DROP USER IF EXISTS 'zopadmin'@'%'");
      s.execute("CREATE USER 'zopadmin'@'%' IDENTIFIED BY '" + password + "'");
      s.execute("GRANT ALL PRIVILEGES ON *.* TO 'zopadmin'@'%' WITH GRANT OPTION");
    }
    try {
      var database = zop.jobs().databases(job.id()).create(prefix + "app", prefix + "owner");
      assertThat(database.host()).isEqualTo(server.host());
      zop.jobs().databases(job.id()).delete(database.id());
    } finally {
      try (var c = java.sql.DriverManager.getConnection(dev.zop.provisioner.testkit.TestDatabaseServers
          .mariadbUrl(server, ""), server.adminUser(), server.adminPassword()); var s = c.createStatement()) {
        s.execute("DROP DATABASE IF EXISTS `" + prefix + "app`");
        s.execute("DROP USER IF EXISTS '" + prefix + "owner'@'%'");
        s.execute("DROP USER IF EXISTS 'zopadmin'@'%'");
      }
    }
    tearDownWaitingOnDeletes(job);
    assertThat(FAKE.resources()).isEmpty();
  }

  @Test
  void aServerWithPrivateAccessLivesInItsDelegatedSubnetAndPublishesItsNameInAPrivateZone() {
    FAKE.existingNetwork(SUBSCRIPTION, GROUP, "data-net", "10.5.0.0/16", java.util.Map.of("db", "10.5.1.0/24",
        "apps", "10.5.2.0/24"));
    var undelegated = dev.zop.provisioner.spec.DatastoreSpec.postgres().name("ledger-x").version("16")
        .instanceClass("Standard_D2ds_v5").allocatedStorageGb(32).vpcId("data-net").subnetIds(List.of("apps"))
        .build();
    Job refused = zop.jobs().await(zop.jobs().submit(space.id(), undelegated).id(), WAIT);
    assertThat(refused.status()).isEqualTo(JobStatus.FAILED);
    assertThat(refused.lastFailure().code()).isEqualTo("subnet_not_delegated");
    assertThat(refused.lastFailure().fixHint()).contains("--delegations Microsoft.DBforPostgreSQL/flexibleServers");
    assertThat(zop.jobs().await(zop.jobs().delete(refused.id()).id(), WAIT).status()).isEqualTo(JobStatus.DELETED);

    FAKE.delegate(SUBSCRIPTION, GROUP, "data-net", "db", "Microsoft.DBforPostgreSQL/flexibleServers");
    var body = dev.zop.provisioner.spec.DatastoreSpec.postgres().name("ledger").version("16")
        .instanceClass("Standard_D2ds_v5").allocatedStorageGb(32).vpcId("data-net").subnetIds(List.of("db")).build();
    assertThat(zop.jobs().plan(space.id(), body).permissions()).contains(
        "Microsoft.Network/virtualNetworks/subnets/join/action", "Microsoft.Network/privateDnsZones/join/action");
    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    var network = resource("Microsoft.DBforPostgreSQL/flexibleServers", "ledger").path("properties").path("network");
    assertThat(network.path("delegatedSubnetResourceId").asText()).endsWith("/virtualNetworks/data-net/subnets/db");
    assertThat(network.path("privateDnsZoneArmResourceId").asText())
        .endsWith("/privateDnsZones/ledger.private.postgres.database.azure.com");
    assertThat(resource("Microsoft.Network/privateDnsZones",
        "ledger.private.postgres.database.azure.com/virtualNetworkLinks/ledger-link").path("properties")
        .path("virtualNetwork").path("id").asText()).endsWith("/virtualNetworks/data-net");

    tearDownWaitingOnDeletes(job);
    // only the network the test put there is left
    assertThat(FAKE.resources().keySet()).allMatch(id -> id.contains("/virtualnetworks/data-net"));
  }

  @Test
  void aRedisCacheIsTlsOnlyAndItsAccessKeyIsKeptAsASecret() {
    var body = dev.zop.provisioner.spec.DatastoreSpec.redis().name("sessions").version("6")
        .instanceClass("cache.m5.large").multiAz(true).build();
    Plan plan = zop.jobs().plan(space.id(), body);
    // cache.m5.large has 6.38 GiB: P1 (6 GB) is smaller, so the smallest Premium size that holds it is P2 (13 GB)
    assertThat(plan.defaults()).extracting(d -> d.field() + "=" + d.value()).containsExactly("instanceClass=P2");
    assertThat(plan.permissions()).contains("Microsoft.Cache/redis/write", "Microsoft.Cache/redis/listKeys/action");
    // 730 h of Premium P2 at 1.109
    assertThat(plan.monthlyTotal()).isEqualByComparingTo("809.57");

    Job job = zop.jobs().await(zop.jobs().submit(space.id(), body).id(), WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(job.outputs()).containsEntry("host", "sessions.redis.cache.windows.net").containsEntry("port", "6380")
        .containsEntry("tls", "true").containsEntry("engine", "redis");
    ObjectNode cache = resource("Microsoft.Cache/redis", "sessions");
    assertThat(cache.path("properties").path("enableNonSslPort").asBoolean(true)).isFalse();
    assertThat(cache.path("properties").path("minimumTlsVersion").asText()).isEqualTo("1.2");
    assertThat(cache.path("properties").path("sku").path("name").asText()).isEqualTo("Premium");
    assertThat(cache.path("zones")).hasSize(2);
    assertThat(zop.secrets().reveal(dev.zop.provisioner.SecretRef.of(job.outputs().get("authSecretRef"))))
        .isEqualTo(FAKE.accessKey(cache.path("id").asText()));

    // scaled where it stands to P3, the same cache, its zones kept; a Standard cache is refused by field
    var larger = body.toBuilder().instanceClass("P3").build();
    dev.zop.provisioner.RevisionPlan revision = zop.jobs().planRevision(job.id(), larger);
    assertThat(revision.changes()).extracting(c -> c.field() + ":" + c.from() + "->" + c.to())
        .containsExactly("instanceClass:P2->P3");
    assertThat(revision.monthlyDelta().signum()).isPositive();
    assertThatThrownBy(() -> zop.jobs().planRevision(job.id(), body.toBuilder().instanceClass("C3").multiAz(false)
        .build())).isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(f -> f.field() + " " + f.code()).contains("config.multiAZ zone_change"));
    Job scaled = zop.jobs().await(zop.jobs().revise(job.id(), larger).id(), WAIT);
    assertThat(scaled.status()).as(String.valueOf(scaled.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    ObjectNode grown = resource("Microsoft.Cache/redis", "sessions");
    assertThat(grown.path("id").asText()).isEqualTo(cache.path("id").asText());
    assertThat(grown.path("properties").path("sku").path("capacity").asInt()).isEqualTo(3);
    assertThat(grown.path("properties").path("sku").path("name").asText()).isEqualTo("Premium");
    assertThat(grown.path("zones")).hasSize(2);

    assertThatThrownBy(() -> zop.jobs().submit(space.id(), dev.zop.provisioner.spec.DatastoreSpec.redis()
        .name("snapshots").version("6").instanceClass("C1").backupRetentionDays(3).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.backupRetentionDays"));

    tearDownWaitingOnDeletes(job);
    assertThat(FAKE.resources()).isEmpty();
    assertThatThrownBy(() -> zop.secrets().reveal(dev.zop.provisioner.SecretRef.of(job.outputs()
        .get("authSecretRef")))).isInstanceOf(dev.zop.provisioner.NotFoundException.class);
  }

  @Test
  void aNetworkTheCallerNamesMustExistButOneTheDefaultsNameIsMadeByTheJob() {
    var typo = dev.zop.provisioner.spec.VmPoolSpec.named("web").instanceType("Standard_B2s").size(1, 2)
        .vpcId("sahred").subnetIds(List.of("app")).build();
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), typo))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field, FieldError::code)
            .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple("config.vpcID", "not_found"),
                org.assertj.core.groups.Tuple.tuple("config.subnetIDs[0]", "not_found")));
    assertThat(FAKE.resources()).isEmpty();
    // without a network, the plan names the pool's own, which does not exist until the job makes it
    assertThat(zop.jobs().plan(space.id(), dev.zop.provisioner.spec.VmPoolSpec.named("web")
        .instanceType("Standard_B2s").size(1, 2).build()).defaults()).extracting(d -> d.field() + "=" + d.value())
        .contains("vpcID=web-vnet");
  }

  @Test
  void anAccountWithAKeyVaultKeepsItsJobsSecretsThere() {
    CloudAccount vaulted = zop.accounts().create(CloudAccountRequest.of("azure", "vaulted")
        .property("tenantId", "00000000-0000-0000-0000-0000000000aa").property("subscriptionId", SUBSCRIPTION)
        .property("endpoint", FAKE.endpoint()).property("keyVaultUrl", FAKE.endpoint()));
    Space vaultedSpace = zop.spaces().create(SpaceRequest.of("azure", "vaulted", vaulted.id()).resourceGroup(GROUP));
    Job pool = zop.jobs().await(zop.jobs().submit(vaultedSpace.id(), dev.zop.provisioner.spec.VmPoolSpec
        .named("batch").instanceType("Standard_B2s").size(1, 2).build()).id(), WAIT);
    assertThat(pool.status()).as(String.valueOf(pool.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    String ref = pool.outputs().get("sshKeySecretRef");
    assertThat(ref).startsWith(FAKE.endpoint() + "/secrets/zop-s");
    assertThat(FAKE.vaultSecrets()).hasSize(1).allSatisfy((name, value) ->
        assertThat(value).startsWith("-----BEGIN PRIVATE KEY-----"));
    // the engine reveals it through the vault, as it does any secret
    assertThat(zop.secrets().reveal(dev.zop.provisioner.SecretRef.of(ref))).startsWith("-----BEGIN PRIVATE KEY-----");

    Job database = zop.jobs().await(zop.jobs().submit(vaultedSpace.id(), dev.zop.provisioner.spec.DatastoreSpec
        .postgres().name("orders-db").version("16.3").instanceClass("Standard_B2s").allocatedStorageGb(32)
        .build()).id(), WAIT);
    assertThat(database.status()).as(String.valueOf(database.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(database.outputs().get("adminSecretRef")).startsWith(FAKE.endpoint() + "/secrets/zop-s");
    assertThat(FAKE.vaultSecrets()).hasSize(2);

    tearDownWaitingOnDeletes(pool);
    tearDownWaitingOnDeletes(database);
    assertThat(FAKE.vaultSecrets()).isEmpty();
    assertThat(FAKE.deletedVaultSecrets()).isEmpty();
    assertThat(FAKE.resources()).isEmpty();
  }

  @Test
  void whatAnotherResourceUsesIsNotDeletedFromUnderIt() {
    // a scale set of another job in the pool's network: the network outlives the pool's teardown attempt
    Job network = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("shared").cidr("10.3.0.0/16")
        .subnet("app", "10.3.1.0/24").build()).id(), WAIT);
    Job pool = zop.jobs().await(zop.jobs().submit(space.id(), dev.zop.provisioner.spec.VmPoolSpec.named("web")
        .instanceType("Standard_B2s").size(1, 2).vpcId("shared").subnetIds(List.of("app")).build()).id(), WAIT);
    assertThat(pool.status()).as(String.valueOf(pool.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);

    Job refused = zop.jobs().await(zop.jobs().delete(network.id()).id(), WAIT);
    assertThat(refused.status()).isNotEqualTo(JobStatus.DELETED);
    assertThat(refused.lastFailure().code()).isEqualTo("resource_in_use");
    assertThat(refused.lastFailure().category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(resource("Microsoft.Network/virtualNetworks", "shared")).isNotNull();

    tearDownWaitingOnDeletes(pool);
    tearDownWaitingOnDeletes(network);
    assertThat(FAKE.resources()).isEmpty();
  }

  @Test
  void eachFaultClassEndsInItsCategoryCodeAndPortalLink() {
    record Expected(ArmFake.Fault fault, FailureCategory category, String code, String link) {}
    var cases = List.of(
        new Expected(ArmFake.Fault.authorizationFailed("Microsoft.Network/virtualNetworks/write"),
            FailureCategory.USER_ACTION, "access_denied", "https://portal.azure.com/#resource/subscriptions/"
                + SUBSCRIPTION + "/resourceGroups/" + GROUP + "/users"),
        new Expected(ArmFake.Fault.quotaExceeded(), FailureCategory.USER_ACTION, "quota_exceeded",
            "https://portal.azure.com/#view/Microsoft_Azure_Capacity/QuotaMenuBlade/~/myQuotas"),
        new Expected(ArmFake.Fault.notRegistered("Microsoft.Network"), FailureCategory.USER_ACTION,
            "resource_provider_not_registered", "https://portal.azure.com/#resource/subscriptions/" + SUBSCRIPTION
                + "/resourceproviders"),
        new Expected(ArmFake.Fault.throttled(), FailureCategory.TRANSIENT, "throttled", null),
        new Expected(ArmFake.Fault.internal(), FailureCategory.TRANSIENT, "azure_unavailable", null));
    int n = 0;
    for (Expected expected : cases) {
      FAKE.reset();
      FAKE.resourceGroup(GROUP, "westeurope");
      FAKE.failAlways("Microsoft.Network/virtualNetworks/write", expected.fault());
      Job job = zop.jobs().await(zop.jobs().submit(space.id(), NetworkSpec.named("faulty-" + n++)
          .cidr("10.9.0.0/16").build()).id(), WAIT);
      Failure failure = job.lastFailure();
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(failure.category()).as(expected.fault().code()).isEqualTo(expected.category());
      assertThat(failure.code()).as(expected.fault().code()).isEqualTo(expected.code());
      if (expected.category() == FailureCategory.USER_ACTION) {
        assertThat(failure.fixHint()).isNotBlank();
        assertThat(failure.consoleUrl()).isEqualTo(expected.link());
      }
      assertThat(FAKE.resources()).isEmpty();
    }
  }

  @Test
  void missingCredentialsAreTheUsersToFix() {
    try (EmbeddedProvisioner unauthenticated = EmbeddedProvisioner.builder().dataDirectory(dir.resolve("other"))
        .discoverProviders(false).provider(new AzureProvider().withHttpClient(FAKE.httpClient()))
        .pollInterval(Duration.ofMillis(20)).build()) {
      CloudAccount noKey = unauthenticated.accounts().create(CloudAccountRequest.of("azure", "no-key")
          .credentialsRef("env:ZOP_TEST_UNSET_AZURE").property("tenantId", "t").property("subscriptionId", "s")
          .property("endpoint", FAKE.endpoint()));
      Space noKeySpace = unauthenticated.spaces().create(SpaceRequest.of("azure", "no-key", noKey.id()).region("eastus")
          .resourceGroup(GROUP));
      Job job = unauthenticated.jobs().await(unauthenticated.jobs().submit(noKeySpace.id(),
          RegistrySpec.named("noregistry")).id(), WAIT);
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      assertThat(job.lastFailure().code()).isEqualTo("credentials_missing");
      assertThat(job.lastFailure().fixHint()).contains("ZOP_TEST_UNSET_AZURE_CLIENT_ID");
    }
  }

  @Test
  void whatAzureDoesNotMakeYetIsRefusedByField() {
    assertThatThrownBy(() -> zop.jobs().submit(space.id(), NetworkSpec.named("natted").cidr("10.0.0.0/16")
        .subnet(dev.zop.provisioner.spec.Subnet.publicSubnet("a", "10.0.1.0/24", null))
        .natGateways(NetworkSpec.NAT_SINGLE).build()))
        .isInstanceOfSatisfying(ValidationException.class, e -> assertThat(e.fieldErrors())
            .extracting(FieldError::field).containsExactly("config.natGateways"));
  }

  @Test
  void theFakeRefusesAKeyTheSdksModelDoesNotDefine() throws Exception {
    // the SDK's own HTTP client (trusting the fake's certificate) sends a misspelt property
    var client = FAKE.httpClient();
    var request = new com.azure.core.http.HttpRequest(com.azure.core.http.HttpMethod.PUT, FAKE.endpoint()
        + "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP
        + "/providers/Microsoft.Network/virtualNetworks/typo?api-version=2024-05-01")
        .setHeader(com.azure.core.http.HttpHeaderName.AUTHORIZATION, "Bearer " + ArmFake.TOKEN)
        .setHeader(com.azure.core.http.HttpHeaderName.CONTENT_TYPE, "application/json")
        .setBody("{\"location\":\"eastus\",\"properties\":{\"adressSpace\":{\"addressPrefixes\":[\"10.0.0.0/16\"]}}}");
    try (var response = client.sendSync(request, com.azure.core.util.Context.NONE)) {
      assertThat(response.getStatusCode()).isEqualTo(400);
      assertThat(response.getBodyAsString().block()).contains("InvalidRequestContent", "adressSpace");
    }
  }
}
