package dev.zop.provisioner.azure;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import dev.zop.provisioner.testkit.tck.ProviderTck;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/** The Azure provider against the provider TCK, on the ARM fake the SDK's own models validate. */
class AzureProviderTckTest extends ProviderTck {
  static final String SUBSCRIPTION = "00000000-0000-0000-0000-000000000001";
  static final String GROUP = "platform-rg";
  static final ArmFake FAKE = fake();

  private final AzureProvider provider = new AzureProvider().withCredential(ArmFake.credential())
      .withHttpClient(FAKE.httpClient()).observingCalls(FAKE.haltingObserver()).pollingEvery(Duration.ofMillis(20));

  /** The resource types the provider makes, each validated by the SDK's own model class. */
  static ArmFake fake() {
    return ArmFake.forTheAzureProvider();
  }

  static CloudAccount account(ArmFake fake) {
    return new CloudAccount(CloudAccountId.of("ca_armfake"), "azure", "fake", "default-chain", Map.of(
        "tenantId", "00000000-0000-0000-0000-0000000000aa", "subscriptionId", SUBSCRIPTION,
        "endpoint", fake.endpoint()), Instant.now());
  }

  /** A network made outside the provider, to peer with. */
  static void peerNetwork(ArmFake fake, String name) {
    fake.existingNetwork(SUBSCRIPTION, GROUP, name, "172.16.0.0/16", Map.of());
  }

  @BeforeEach
  void resetFake() {
    FAKE.reset();
    FAKE.operationPolls(1);
    FAKE.resourceGroup(GROUP, "eastus");
    peerNetwork(FAKE, "tck-peer");
    // a subnet delegated to PostgreSQL's flexible servers, for a server with private access
    FAKE.existingNetwork(SUBSCRIPTION, GROUP, "tck-data", "10.60.0.0/16", Map.of("db", "10.60.1.0/24"));
    FAKE.delegate(SUBSCRIPTION, GROUP, "tck-data", "db", "Microsoft.DBforPostgreSQL/flexibleServers");
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  @Override
  protected CloudProvider provider() {
    return provider;
  }

  @Override
  protected CloudAccount account() {
    return account(FAKE);
  }

  @Override
  protected String region() {
    return "eastus";
  }

  @Override
  protected Map<String, String> scope() {
    return Map.of("resourceGroup", GROUP);
  }

  @Override
  protected List<ResourceSpec> specs(String suffix) {
    return List.of(
        dev.zop.provisioner.spec.KubernetesSpec.named("tck-aks-" + suffix).version("1.30")
            .nodeGroup("system", "Standard_D2s_v5", 1, 3).build(),
        NetworkSpec.named("tck-" + suffix).cidr("10.20.0.0/16").subnet("app", "10.20.1.0/24")
            .subnet("data", "10.20.2.0/24").peerVpcId("tck-peer").dnsZone("tck-" + suffix + ".internal").build(),
        RegistrySpec.named("tck" + suffix.replace("-", "") + "registry"),
        dev.zop.provisioner.spec.DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3")
            .instanceClass("Standard_D2ds_v5").allocatedStorageGb(32).multiAz(true).backupRetentionDays(7)
            .vpcId("tck-data").subnetIds(List.of("db")).build(),
        dev.zop.provisioner.spec.DatastoreSpec.mysql().name("tck-my-" + suffix).version("8.0")
            .instanceClass("Standard_D2ds_v4").allocatedStorageGb(32).backupRetentionDays(7).build(),
        dev.zop.provisioner.spec.DatastoreSpec.redis().name("tck-cache-" + suffix).version("6")
            .instanceClass("C1").build(),
        dev.zop.provisioner.spec.VmPoolSpec.named("tck-pool-" + suffix).instanceType("Standard_D2s_v5").size(1, 3)
            .loadBalancer(true, "network").listenerPorts(List.of(80, 443)).vpcId("tck-pool-" + suffix + "-vnet")
            .subnetIds(List.of("default")).build());
  }

  @Override
  protected List<java.util.Map.Entry<dev.zop.provisioner.spec.ResourceSpec, dev.zop.provisioner.spec.ResourceSpec>>
      revisions(String suffix) {
    return List.of(java.util.Map.entry(
        // a scale set's VM size by rolling upgrade, and its bounds
        dev.zop.provisioner.spec.VmPoolSpec.named("tck-roll-" + suffix).instanceType("Standard_D2s_v5").size(2, 3)
            .vpcId("tck-roll-" + suffix + "-vnet").subnetIds(List.of("default")).build(),
        dev.zop.provisioner.spec.VmPoolSpec.named("tck-roll-" + suffix).instanceType("Standard_D4s_v5").size(2, 4)
            .vpcId("tck-roll-" + suffix + "-vnet").subnetIds(List.of("default")).build()), java.util.Map.entry(
        // a listener port added behind the load balancer
        dev.zop.provisioner.spec.VmPoolSpec.named("tck-ports-" + suffix).instanceType("Standard_D2s_v5").size(1, 2)
            .loadBalancer(true, "network").listenerPorts(List.of(80, 443)).vpcId("tck-ports-" + suffix + "-vnet")
            .subnetIds(List.of("default")).build(),
        dev.zop.provisioner.spec.VmPoolSpec.named("tck-ports-" + suffix).instanceType("Standard_D2s_v5").size(1, 2)
            .loadBalancer(true, "network").listenerPorts(List.of(80, 443, 8080)).vpcId("tck-ports-" + suffix
                + "-vnet").subnetIds(List.of("default")).build()), java.util.Map.entry(
        // a virtual network gains a subnet and a private DNS zone, linked to it
        NetworkSpec.named("tck-grow-" + suffix).cidr("10.40.0.0/16").subnet("app", "10.40.1.0/24").build(),
        NetworkSpec.named("tck-grow-" + suffix).cidr("10.40.0.0/16").subnet("app", "10.40.1.0/24")
            .subnet("data", "10.40.2.0/24").dnsZone("grow-" + suffix + ".internal").build()), java.util.Map.entry(
        dev.zop.provisioner.spec.KubernetesSpec.named("tck-aks-" + suffix).version("1.30")
            .nodeGroup("system", "Standard_D2s_v5", 1, 3).build(),
        dev.zop.provisioner.spec.KubernetesSpec.named("tck-aks-" + suffix).version("1.31")
            .nodeGroup("system", "Standard_D2s_v5", 2, 5).build()), java.util.Map.entry(
        // a group's VM size by replacement, one group dropped and one added
        dev.zop.provisioner.spec.KubernetesSpec.named("tck-pools-" + suffix).version("1.30")
            .nodeGroup("system", "Standard_D2s_v5", 1, 3).nodeGroup("batch", "Standard_D2s_v5", 1, 2).build(),
        dev.zop.provisioner.spec.KubernetesSpec.named("tck-pools-" + suffix).version("1.30")
            .nodeGroup("system", "Standard_D4s_v5", 1, 3).nodeGroup("extra", "Standard_D2s_v5", 1, 1).build()),
        java.util.Map.entry(
        dev.zop.provisioner.spec.DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3")
            .instanceClass("Standard_D2ds_v5").allocatedStorageGb(32).multiAz(true).backupRetentionDays(7)
            .vpcId("tck-data").subnetIds(List.of("db")).build(),
        dev.zop.provisioner.spec.DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3")
            .instanceClass("Standard_D4ds_v5").allocatedStorageGb(64).multiAz(true).backupRetentionDays(14)
            .vpcId("tck-data").subnetIds(List.of("db")).build()), java.util.Map.entry(
        dev.zop.provisioner.spec.DatastoreSpec.redis().name("tck-cache-" + suffix).version("6").instanceClass("C1")
            .build(),
        dev.zop.provisioner.spec.DatastoreSpec.redis().name("tck-cache-" + suffix).version("6").instanceClass("C3")
            .build()));
  }

  @Override
  protected int callMark() {
    return FAKE.calls().size();
  }

  @Override
  protected List<String> operationsSince(int mark) {
    List<String> calls = FAKE.calls();
    return calls.subList(mark, calls.size());
  }

  private static String armId(String type, String name) {
    return "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + GROUP + "/providers/" + type + "/" + name;
  }

  @Override
  protected List<HandChange> changesByHand(String suffix) {
    return List.of(
        // the agent pool's bounds changed in the portal
        new HandChange(dev.zop.provisioner.spec.KubernetesSpec.named("tck-drift-" + suffix).version("1.30")
            .nodeGroup("system", "Standard_D2s_v5", 1, 3).build(), recorded -> ((ObjectNode) FAKE.held(
                armId("Microsoft.ContainerService/managedClusters", "tck-drift-" + suffix) + "/agentPools/system")
                .get("properties")).put("minCount", 0).put("maxCount", 9)),
        // the rule opening 443 removed from the pool's security group
        new HandChange(dev.zop.provisioner.spec.VmPoolSpec.named("tck-edge-" + suffix).instanceType("Standard_D2s_v5")
            .size(1, 3).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
            .vpcId("tck-edge-" + suffix + "-vnet").subnetIds(List.of("default")).build(), recorded -> {
              var rules = (com.fasterxml.jackson.databind.node.ArrayNode) FAKE.held(armId(
                  "Microsoft.Network/networkSecurityGroups", "tck-edge-" + suffix + "-nsg")).path("properties")
                  .path("securityRules");
              for (int i = rules.size() - 1; i >= 0; i--) {
                if (rules.get(i).path("name").asText().equals("allow-tcp-443")) {
                  rules.remove(i);
                }
              }
            }));
  }

  @Override
  protected List<MadeByHand> madeByHand(String suffix) {
    return List.of(new MadeByHand(dev.zop.provisioner.JobKind.NETWORK, () -> {
      FAKE.existingNetwork(SUBSCRIPTION, GROUP, "hand-" + suffix, "10.70.0.0/16",
          java.util.Map.of("a", "10.70.1.0/24", "b", "10.70.2.0/24"));
      return "hand-" + suffix;
    }));
  }

  @Override
  protected List<String> inventory() {
    List<String> all = new ArrayList<>();
    FAKE.resources().forEach((id, resource) -> {
      ObjectNode properties = (ObjectNode) resource.get("properties");
      all.add(resource.path("type").asText() + " " + resource.path("name").asText() + " tags="
          + resource.path("tags") + " " + properties.path("addressSpace") + properties.path("addressPrefix")
          + properties.path("remoteVirtualNetwork").path("id").asText("").replaceAll(".*/", "")
          + properties.path("kubernetesVersion").asText("") + properties.path("agentPoolProfiles")
          + properties.path("vmSize").asText("") + properties.path("maxCount").asText("")
          + properties.path("latestModelApplied").asText("")
          + resource.path("sku") + properties.path("sku") + properties.path("highAvailability") + properties.path("version").asText("")
          + properties.path("storage") + properties.path("backup").path("backupRetentionDays").asText("")
          + properties.path("securityRules").findValuesAsText("destinationPortRange")
          + properties.path("loadBalancingRules").findValuesAsText("frontendPort")
          + properties.path("profiles").findValues("capacity") + (properties.path("ipAddress").isTextual() ? " with an address" : ""));
    });
    return all.stream().sorted().toList();
  }

  @Override
  protected HaltSwitch halts() {
    return FAKE.halts();
  }

  @Override
  protected Throwable permissionDenied() {
    // ARM's 403 is not retried by the SDK: one fault is one answer
    return failing(ArmFake.Fault.authorizationFailed(AzureActions.VIRTUAL_NETWORKS_READ), 1);
  }

  @Override
  protected Throwable throttled() {
    // the SDK retries a 429 three times after the delay it names before it gives up
    return failing(ArmFake.Fault.throttled(), 4);
  }

  /** The exception the Azure SDK raises for the fault, tagged as the provider's calls tag it. */
  private Throwable failing(ArmFake.Fault fault, int answers) {
    for (int i = 0; i < answers; i++) {
      FAKE.failNext(AzureActions.VIRTUAL_NETWORKS_READ, fault);
    }
    try {
      AzureClients clients = new AzureClients(account(), ArmFake.credential(), FAKE.httpClient());
      AzureErrors.CALLS.call(AzureActions.VIRTUAL_NETWORKS_READ, () -> clients.network().serviceClient()
          .getVirtualNetworks().getByResourceGroup(GROUP, "anything"));
      throw new AssertionError("the fault was not raised");
    } catch (RuntimeException e) {
      return e;
    }
  }
}
