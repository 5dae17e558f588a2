package dev.zop.provisioner.sim;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.LoadBalancerSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import dev.zop.provisioner.testkit.tck.ProviderTck;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The sim provider against the provider TCK, with slow creates so waits are exercised too. */
class SimProviderTckTest extends ProviderTck {
  private final SimCloud cloud = SimCloud.create()
      .pollInterval(Duration.ofMillis(5))
      .creatingTime("kubernetes-cluster", Duration.ofMillis(30))
      .creatingTime("db-instance", Duration.ofMillis(30));
  private final SimProvider provider = new SimProvider(cloud);
  private final HaltSwitch halts = new HaltSwitch();

  SimProviderTckTest() {
    cloud.onAccepted(halts::accepted);
  }

  @Override
  protected CloudProvider provider() {
    return provider;
  }

  @Override
  protected CloudAccount account() {
    return new CloudAccount(CloudAccountId.of("ca_tck"), "sim", "tck", null, Map.of(), Instant.now());
  }

  @Override
  protected String region() {
    return "sim-east-1";
  }

  @Override
  protected List<ResourceSpec> specs(String suffix) {
    return List.of(
        KubernetesSpec.named("tck-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2).build(),
        VmPoolSpec.named("tck-pool-" + suffix).instanceType("m5.large").size(1, 3).withLoadBalancer(80, 443)
            .build(),
        DatastoreSpec.postgres().name("tck-db-" + suffix).version("16.3").instanceClass("db.t3.medium")
            .allocatedStorageGb(20).build(),
        DatastoreSpec.redis().name("tck-cache-" + suffix).version("7.1").instanceClass("cache.t3.small").build(),
        NetworkSpec.named("tck-net-" + suffix).cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24").peerVpcId("vpc-peer")
            .dnsZone("tck-" + suffix + ".internal.example.com").build(),
        RegistrySpec.named("tck/" + suffix),
        LoadBalancerSpec.named("tck-lb-" + suffix).listenerPorts(List.of(443)).build(),
        ComponentSpec.of("ingress-nginx", Map.of("controller.replicaCount", 2)).inNamespace("tck-" + suffix));
  }

  @Override
  protected List<Map.Entry<ResourceSpec, ResourceSpec>> revisions(String suffix) {
    return List.of(
        Map.entry(KubernetesSpec.named("tck-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2).build(),
            KubernetesSpec.named("tck-" + suffix).version("1.31").nodeGroup("ng", "m5.large", 2, 4)
                .nodeGroup("extra", "m5.large", 1, 1).build()),
        Map.entry(DatastoreSpec.postgres().name("tck-db-" + suffix).version("16.3").instanceClass("db.t3.medium")
                .allocatedStorageGb(20).build(),
            DatastoreSpec.postgres().name("tck-db-" + suffix).version("16.3").instanceClass("db.m5.large")
                .allocatedStorageGb(40).build()),
        Map.entry(VmPoolSpec.named("tck-pool-" + suffix).instanceType("m5.large").size(1, 3).withLoadBalancer(80)
                .build(),
            VmPoolSpec.named("tck-pool-" + suffix).instanceType("m5.large").size(2, 5).withLoadBalancer(80, 443)
                .build()));
  }

  @Override
  protected List<HandChange> changesByHand(String suffix) {
    return List.of(
        new HandChange(KubernetesSpec.named("tck-" + suffix).version("1.30").nodeGroup("ng", "m5.large", 1, 2).build(),
            recorded -> cloud.changeByHand("node-group", "tck-" + suffix + "-ng", Map.of("min", "0", "max", "9"))),
        new HandChange(DatastoreSpec.postgres().name("tck-db-" + suffix).version("16.3").instanceClass("db.t3.medium")
            .allocatedStorageGb(20).build(),
            recorded -> cloud.changeByHand("db-instance", "tck-db-" + suffix, Map.of("instanceClass", "db.t3.large"))));
  }

  @Override
  protected List<MadeByHand> madeByHand(String suffix) {
    return List.of(new MadeByHand(dev.zop.provisioner.JobKind.NETWORK, () -> {
      cloud.existingNetwork("vpc-" + suffix, "10.60.0.0/16", Map.of("vpc-" + suffix + "-a", "10.60.1.0/24",
          "by-hand-" + suffix, "10.60.2.0/24"));
      return "vpc-" + suffix;
    }));
  }

  @Override
  protected int callMark() {
    return cloud.calls().size();
  }

  @Override
  protected List<String> operationsSince(int mark) {
    List<SimCloud.Call> calls = cloud.calls();
    return calls.subList(mark, calls.size()).stream().map(SimCloud.Call::operation).toList();
  }

  @Override
  protected List<String> inventory() {
    // tags and attributes too: a resumed step must leave them as a run without a crash does
    return cloud.resources().stream().map(r -> r.type() + "/" + r.name() + " " + new TreeMap<>(r.tags()) + " "
        + new TreeMap<>(r.attributes())).sorted().toList();
  }

  @Override
  protected HaltSwitch halts() {
    return halts;
  }

  @Override
  protected Throwable permissionDenied() {
    return new SimException(SimException.Code.ACCESS_DENIED, "kubernetes:CreateCluster", "not authorized");
  }

  @Override
  protected Throwable throttled() {
    return new SimException(SimException.Code.THROTTLED, "kubernetes:CreateCluster", "rate exceeded");
  }
}
