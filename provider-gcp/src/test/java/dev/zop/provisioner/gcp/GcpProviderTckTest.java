package dev.zop.provisioner.gcp;

import com.google.cloud.compute.v1.Network;
import com.google.cloud.compute.v1.Subnetwork;
import com.google.devtools.artifactregistry.v1.Repository;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.Subnet;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import dev.zop.provisioner.testkit.tck.ProviderTck;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;

/** The GCP provider against the provider TCK, on the fake built from Google's API definitions. */
class GcpProviderTckTest extends ProviderTck {
  static final String PROJECT = "tck-project";
  private static final GcpFake FAKE = new GcpFake(GcpFake.COMPUTE, GcpFake.ARTIFACT_REGISTRY,
      GcpFake.SECRET_MANAGER, GcpFake.CONTAINER, GcpFake.REDIS, GcpFake.CLOUD_SQL, GcpFake.CLOUD_DNS);
  private final GcpProvider provider = new GcpProvider().observingCalls(FAKE.haltingObserver())
      .pollingEvery(Duration.ofMillis(20));

  @BeforeEach
  void resetFake() {
    FAKE.reset();
    // operations stay running for a read, so every step's waiting is exercised
    FAKE.operationPolls(1);
    String peer = "compute/v1/projects/" + PROJECT + "/global/networks/tck-peer";
    FAKE.put("compute", peer, Network.newBuilder().setName("tck-peer").setAutoCreateSubnetworks(false)
        .setSelfLink(FAKE.endpoints().get("endpoint.compute") + "/" + peer).build());
  }

  @AfterAll
  static void stopFake() {
    FAKE.close();
  }

  static CloudAccount account(GcpFake fake) {
    Map<String, String> properties = new HashMap<>(fake.endpoints());
    properties.put("projectId", PROJECT);
    return new CloudAccount(CloudAccountId.of("ca_gcpfake"), "gcp", "fake", "none", properties, Instant.now());
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
    return "us-central1";
  }

  @Override
  protected List<ResourceSpec> specs(String suffix) {
    return List.of(
        KubernetesSpec.named("tck-k8s-" + suffix).version("1.30").nodeGroup("ng", "e2-standard-4", 1, 3)
            .vpcId("tck-peer").build(),
        VmPoolSpec.named("tck-pool-" + suffix).instanceType("e2-small").size(1, 3).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
            .build(),
        VmPoolSpec.named("tck-web-" + suffix).instanceType("e2-small").size(1, 2).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "application").listenerPorts(List.of(80, 8080))
            .build(),
        NetworkSpec.named("tck-" + suffix).cidr("10.20.0.0/16")
            .subnet(Subnet.publicSubnet("edge", "10.20.0.0/24", null))
            .subnet(Subnet.privateSubnet("app", "10.20.1.0/24", null)).peerVpcId("tck-peer")
            .dnsZone(suffix + ".internal.example.com").build(),
        RegistrySpec.builder().name("tck/" + suffix).immutableTags(true).build(),
        DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db-custom-2-4096")
            .allocatedStorageGb(20).multiAz(true).backupRetentionDays(7).build(),
        DatastoreSpec.redis().name("tck-redis-" + suffix).version("7.2").instanceClass("redis-1").build());
  }

  @Override
  protected List<java.util.Map.Entry<ResourceSpec, ResourceSpec>> revisions(String suffix) {
    return List.of(java.util.Map.entry(
        // an application load balancer gains a port and loses one, each with a forwarding rule of its own
        VmPoolSpec.named("tck-alb-" + suffix).instanceType("e2-small").size(1, 2).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "application").listenerPorts(List.of(80, 8080))
            .build(),
        VmPoolSpec.named("tck-alb-" + suffix).instanceType("e2-small").size(1, 2).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "application").listenerPorts(List.of(80, 8081))
            .build()), java.util.Map.entry(
        // a network load balancer gains a port: its firewall rules patched, its forwarding rule made again
        VmPoolSpec.named("tck-ports-" + suffix).instanceType("e2-small").size(1, 2).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
            .build(),
        VmPoolSpec.named("tck-ports-" + suffix).instanceType("e2-small").size(1, 2).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "network").listenerPorts(List.of(80, 443, 8443))
            .build()), java.util.Map.entry(RegistrySpec.named("tck/" + suffix),
        RegistrySpec.builder().name("tck/" + suffix).immutableTags(true).scanOnPush(true).build()),
        java.util.Map.entry(
        // a rolling replacement onto a new machine type, and the autoscaler's bounds
        VmPoolSpec.named("tck-roll-" + suffix).instanceType("e2-small").size(1, 3).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).build(),
        VmPoolSpec.named("tck-roll-" + suffix).instanceType("e2-medium").size(2, 4).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).build()), java.util.Map.entry(
        // a network gains a subnetwork and a DNS zone
        NetworkSpec.named("tck-grow-" + suffix).cidr("10.40.0.0/16")
            .subnet(Subnet.privateSubnet("app", "10.40.1.0/24", null)).build(),
        NetworkSpec.named("tck-grow-" + suffix).cidr("10.40.0.0/16")
            .subnet(Subnet.privateSubnet("app", "10.40.1.0/24", null))
            .subnet(Subnet.publicSubnet("edge", "10.40.0.0/24", null))
            .dnsZone("grow-" + suffix + ".internal.example.com").build()), java.util.Map.entry(
        // every kind of GKE change at once: one minor up, a pool rescaled onto a new machine type, one added and
        // one dropped
        KubernetesSpec.named("tck-gke-" + suffix).version("1.30").nodeGroup("ng", "e2-standard-4", 1, 3)
            .nodeGroup("old", "e2-standard-2", 1, 2).vpcId("tck-peer").build(),
        KubernetesSpec.named("tck-gke-" + suffix).version("1.31").nodeGroup("ng", "e2-standard-8", 2, 5)
            .nodeGroup("new", "e2-standard-2", 1, 2).vpcId("tck-peer").build()), java.util.Map.entry(
        DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db-custom-2-4096")
            .allocatedStorageGb(20).multiAz(true).backupRetentionDays(7).build(),
        DatastoreSpec.postgres().name("tck-pg-" + suffix).version("16.3").instanceClass("db-custom-2-8192")
            .allocatedStorageGb(40).multiAz(true).backupRetentionDays(14).build()), java.util.Map.entry(
        DatastoreSpec.redis().name("tck-cache-" + suffix).version("7.2").instanceClass("redis-5").multiAz(true)
            .build(),
        DatastoreSpec.redis().name("tck-cache-" + suffix).version("7.2").instanceClass("redis-10").multiAz(true)
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

  @Override
  protected List<HandChange> changesByHand(String suffix) {
    String clusterPath = "v1/projects/" + PROJECT + "/locations/us-central1/clusters/tck-drift-" + suffix;
    String rulePath = "compute/v1/projects/" + PROJECT + "/global/firewalls/tck-edge-" + suffix + "-allow-clients";
    return List.of(
        // the pool's bounds changed in the console
        new HandChange(KubernetesSpec.named("tck-drift-" + suffix).version("1.30")
            .nodeGroup("ng", "e2-standard-4", 1, 3).vpcId("tck-peer").build(), recorded -> {
              var cluster = (com.google.container.v1.Cluster) parse(FAKE.get("container", clusterPath),
                  com.google.container.v1.Cluster.getDefaultInstance());
              FAKE.put("container", clusterPath, cluster.toBuilder().setNodePools(0, cluster.getNodePools(0).toBuilder()
                  .setAutoscaling(cluster.getNodePools(0).getAutoscaling().toBuilder().setTotalMinNodeCount(0)
                      .setTotalMaxNodeCount(9))).build());
            }),
        // tags made mutable and scanning turned off in the console
        new HandChange(RegistrySpec.builder().name("tck/drift-" + suffix).immutableTags(true).scanOnPush(true)
            .build(), recorded -> {
              String path = FAKE.resources("artifactregistry").keySet().stream()
                  .filter(p -> p.endsWith("/repositories/tck-drift-" + suffix)).findFirst().orElseThrow();
              var repository = (Repository) parse(FAKE.get("artifactregistry", path), Repository.getDefaultInstance());
              FAKE.put("artifactregistry", path, repository.toBuilder().setDockerConfig(repository.getDockerConfig()
                  .toBuilder().setImmutableTags(false)).setVulnerabilityScanningConfig(repository
                  .getVulnerabilityScanningConfig().toBuilder().setEnablementConfig(
                      Repository.VulnerabilityScanningConfig.EnablementConfig.DISABLED)).build());
            }),
        // a port taken off the clients' firewall rule, and the rule opened to one address only
        new HandChange(VmPoolSpec.named("tck-edge-" + suffix).instanceType("e2-small").size(1, 3).vpcId("tck-peer")
            .imageId(VmPoolDriver.DEFAULT_IMAGE).loadBalancer(true, "network").listenerPorts(List.of(80, 443))
            .build(), recorded -> {
              var rule = (com.google.cloud.compute.v1.Firewall) parse(FAKE.get("compute", rulePath),
                  com.google.cloud.compute.v1.Firewall.getDefaultInstance());
              FAKE.put("compute", rulePath, rule.toBuilder().setAllowed(0, rule.getAllowed(0).toBuilder().clearPorts()
                  .addPorts("80")).clearSourceRanges().addSourceRanges("203.0.113.7/32").build());
            }));
  }

  @Override
  protected List<MadeByHand> madeByHand(String suffix) {
    return List.of(new MadeByHand(dev.zop.provisioner.JobKind.KUBERNETES, () -> {
      String name = "hand-" + suffix;
      String path = "v1/projects/" + PROJECT + "/locations/us-central1/clusters/" + name;
      FAKE.put("container", path, com.google.container.v1.Cluster.newBuilder().setName(name).setNetwork("tck-peer")
          .setStatus(com.google.container.v1.Cluster.Status.RUNNING).setCurrentMasterVersion("1.30.5-gke.100")
          .setEndpoint("127.0.0.1").putResourceLabels("team", "data")
          .setLabelFingerprint(GcpFake.labelFingerprint(Map.of("team", "data")))
          .setSelfLink(FAKE.endpoints().get("endpoint.container") + "/" + path)
          .addNodePools(com.google.container.v1.NodePool.newBuilder().setName("workers")
              .setConfig(com.google.container.v1.NodeConfig.newBuilder().setMachineType("e2-standard-4"))
              .setAutoscaling(com.google.container.v1.NodePoolAutoscaling.newBuilder().setEnabled(true)
                  .setTotalMinNodeCount(1).setTotalMaxNodeCount(4))
              .setVersion("1.30.5-gke.100").setStatus(com.google.container.v1.NodePool.Status.RUNNING))
          .build());
      return name;
    }));
  }

  @Override
  protected List<String> inventory() {
    List<String> all = new ArrayList<>();
    FAKE.resources("compute").forEach((path, resource) -> {
      if (resource.getDescriptorForType().equals(Network.getDescriptor())) {
        Network n = (Network) parse(resource, Network.getDefaultInstance());
        all.add("network " + n.getName() + " auto=" + n.getAutoCreateSubnetworks() + " [" + n.getDescription()
            + "] peerings " + n.getPeeringsList().stream().map(p -> p.getName() + ":" + p.getState()).sorted()
            .toList());
      } else if (resource.getDescriptorForType().equals(Subnetwork.getDescriptor())) {
        Subnetwork s = (Subnetwork) parse(resource, Subnetwork.getDefaultInstance());
        all.add("subnetwork " + s.getName() + " " + s.getIpCidrRange() + " privateGoogleAccess="
            + s.getPrivateIpGoogleAccess() + " [" + s.getDescription() + "]");
      } else {
        // everything else by its type, name and owner, with every reference stripped of its host
        all.add(resource.getDescriptorForType().getName() + " " + path.substring(path.lastIndexOf('/') + 1) + " "
            + com.google.protobuf.TextFormat.printer().emittingSingleLine(true).printToString(resource)
                .replaceAll("http://127\\.0\\.0\\.1:[0-9]+/", "")
                .replaceAll("(I_p_address|id|creation_timestamp|name|self_link): \"?[^\" ]*\"? ?", ""));
      }
    });
    FAKE.resources("container").forEach((path, resource) -> {
      com.google.container.v1.Cluster c = (com.google.container.v1.Cluster) parse(resource,
          com.google.container.v1.Cluster.getDefaultInstance());
      all.add("cluster " + c.getName() + " " + c.getInitialClusterVersion() + " network=" + c.getNetwork()
          + " pools " + c.getNodePoolsList().stream().map(p -> p.getName() + ":" + p.getConfig().getMachineType()
              + ":" + p.getAutoscaling().getTotalMinNodeCount() + ".." + p.getAutoscaling().getTotalMaxNodeCount())
              .toList() + " " + new TreeMap<>(c.getResourceLabelsMap()));
    });
    FAKE.cloudSql().instances().forEach((key, i) -> all.add("sql " + i.getName() + " " + i.getDatabaseVersion()
        + " " + i.getSettings().getTier() + " " + i.getSettings().getAvailabilityType() + " disk="
        + i.getSettings().getDataDiskSizeGb() + " backups="
        + i.getSettings().getBackupConfiguration().getBackupRetentionSettings().getRetainedBackups() + " "
        + new TreeMap<>(i.getSettings().getUserLabels())));
    FAKE.cloudDns().zones().forEach((key, z) -> all.add("dns zone " + z.getName() + " " + z.getDnsName() + " "
        + z.getVisibility() + " networks " + z.getPrivateVisibilityConfig().getNetworks().size() + " "
        + new TreeMap<>(z.getLabels())));
    FAKE.resources("redis").forEach((path, resource) -> {
      var r = (com.google.cloud.redis.v1.Instance) parse(resource, com.google.cloud.redis.v1.Instance.getDefaultInstance());
      all.add("redis " + path.substring(path.lastIndexOf('/') + 1) + " " + r.getTier() + " " + r.getMemorySizeGb()
          + "GB auth=" + r.getAuthEnabled() + " " + r.getTransitEncryptionMode() + " " + new TreeMap<>(r.getLabelsMap()));
    });
    // secrets by name only: a resumed step may add a version, never a second secret
    FAKE.resources("secretmanager").keySet().stream().filter(k -> !k.contains("/versions/"))
        .forEach(k -> all.add("secret " + k.substring(k.lastIndexOf('/') + 1)));
    FAKE.resources("artifactregistry").forEach((path, resource) -> {
      Repository r = (Repository) parse(resource, Repository.getDefaultInstance());
      all.add("repository " + r.getName() + " " + r.getFormat() + " immutable="
          + r.getDockerConfig().getImmutableTags() + " " + new TreeMap<>(r.getLabelsMap()));
    });
    return all.stream().sorted().toList();
  }

  private static com.google.protobuf.Message parse(com.google.protobuf.Message stored,
      com.google.protobuf.Message prototype) {
    try {
      return prototype.getParserForType().parseFrom(stored.toByteString());
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new AssertionError(e);
    }
  }

  @Override
  protected HaltSwitch halts() {
    return FAKE.halts();
  }

  @Override
  protected Throwable permissionDenied() {
    return callFailing("compute.networks.get", GcpFake.Fault.permissionDenied("compute.networks.get"));
  }

  @Override
  protected Throwable throttled() {
    return callFailing("compute.networks.get", GcpFake.Fault.rateLimited());
  }

  /** The exception Google's own client raises for the fault, tagged as the provider's calls tag it. */
  private Throwable callFailing(String permission, GcpFake.Fault fault) {
    FAKE.failNext(permission, fault);
    try (GcpClients clients = new GcpClients(account(), region())) {
      GcpErrors.CALLS.call(permission, () -> clients.networks().get(PROJECT, "anything"));
      throw new AssertionError("the fault was not raised");
    } catch (RuntimeException e) {
      return e;
    }
  }
}
