package dev.zop.provisioner.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ValidationException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SpecValidationTest {

  private static List<String> fields(ResourceSpec spec) {
    return spec.validate().stream().map(FieldError::field).toList();
  }

  @Test
  void kubernetesReportsEveryBadFieldAtOnce() {
    KubernetesSpec spec = new KubernetesSpec("Platform_Prod", "1.x",
        List.of(new NodeGroup("default", "m5.large", 3, 2, null), new NodeGroup("default", null, -1, 4, null)),
        "vpc 0abc", List.of("subnet-0a", ""), null);
    assertThat(fields(spec)).containsExactlyInAnyOrder(
        "name", "version", "nodeGroups[0].max", "nodeGroups[1].instanceType", "nodeGroups[1].min",
        "nodeGroups[1].name", "vpcID", "subnetIDs[1]");
  }

  @Test
  void builderThrowsWithTheFieldErrors() {
    assertThatThrownBy(() -> KubernetesSpec.named("ok-name").version("1.30").build())
        .isInstanceOf(ValidationException.class)
        .satisfies(e -> assertThat(((ValidationException) e).fieldErrors())
            .extracting(FieldError::field, FieldError::code)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("nodeGroups", "required")));
  }

  @Test
  void aValidKubernetesSpecHasNoErrors() {
    KubernetesSpec spec = KubernetesSpec.named("platform-prod").version("1.30")
        .nodeGroup("default", "m5.large", 2, 6).vpcId("vpc-0abc").subnetIds("subnet-0a", "subnet-0b").build();
    assertThat(spec.validate()).isEmpty();
    assertThat(spec.toBuilder().build()).isEqualTo(spec);
  }

  @Test
  void datastoreRulesDependOnTheEngine() {
    DatastoreSpec sql = new DatastoreSpec(null, DatastoreEngine.POSTGRES, "16.3", "db.t3.medium", 10, true, 40,
        null, null);
    assertThat(fields(sql)).containsExactlyInAnyOrder("allocatedStorageGB", "backupRetentionDays");
    DatastoreSpec redis = new DatastoreSpec(null, DatastoreEngine.REDIS, "7.1", "cache.t3.small", 50, false,
        null, null, null);
    assertThat(fields(redis)).containsExactly("allocatedStorageGB");
    DatastoreSpec missing = new DatastoreSpec(null, null, null, null, null, null, null, null, null);
    assertThat(fields(missing)).containsExactlyInAnyOrder("engine", "version", "instanceClass");
    assertThat(DatastoreSpec.postgres().version("16.3").instanceClass("db.t3.medium").allocatedStorageGb(50)
        .multiAz(true).backupRetentionDays(7).build().validate()).isEmpty();
  }

  @Test
  void vmPoolNeedsPortsForItsLoadBalancer() {
    VmPoolSpec spec = new VmPoolSpec("edge", "m5.large", 2, 6, true, "classic", List.of(), null, null, null, null);
    assertThat(fields(spec)).containsExactlyInAnyOrder("loadBalancerType", "listenerPorts");
    VmPoolSpec ports = new VmPoolSpec("edge", "m5.large", 2, 6, true, null, List.of(80, 80, 70000), null, null,
        null, null);
    assertThat(fields(ports)).containsExactlyInAnyOrder("listenerPorts[2]", "listenerPorts");
  }

  @Test
  void networkChecksCidrsContainmentAndOverlap() {
    NetworkSpec spec = new NetworkSpec("core", "10.0.0.0/16",
        List.of(Subnet.of("a", "10.0.1.0/24"), Subnet.of("b", "10.0.1.128/25"), Subnet.of("c", "10.1.0.0/24"),
            Subnet.of("d", "10.0.2.1/24")),
        null, "Not A Domain");
    assertThat(spec.validate()).extracting(FieldError::field, FieldError::code).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple("subnets[1].cidr", "overlap"),
        org.assertj.core.groups.Tuple.tuple("subnets[2].cidr", "outside_network"),
        org.assertj.core.groups.Tuple.tuple("subnets[3].cidr", "invalid_cidr"),
        org.assertj.core.groups.Tuple.tuple("dnsZone", "invalid_format"));
    assertThat(fields(new NetworkSpec("core", "10.0.0.0/8", List.of(), null, null))).containsExactly("cidr");
  }

  @Test
  void natGatewaysNeedAPublicSubnetAndPerZoneNeedsItsZones() {
    List<Subnet> privateOnly = List.of(Subnet.privateSubnet("app", "10.0.1.0/24", "us-east-1a"));
    assertThat(new NetworkSpec("core", "10.0.0.0/16", privateOnly, null, null, "single").validate())
        .extracting(FieldError::code).containsExactly("requires_public_subnet");
    assertThat(new NetworkSpec("core", "10.0.0.0/16", privateOnly, null, null, "everywhere").validate())
        .extracting(FieldError::code).containsExactly("invalid_value");
    List<Subnet> unzoned = List.of(Subnet.publicSubnet("edge", "10.0.0.0/24", null),
        Subnet.privateSubnet("app", "10.0.1.0/24", null));
    assertThat(new NetworkSpec("core", "10.0.0.0/16", unzoned, null, null, "perZone").validate())
        .extracting(FieldError::code).containsExactly("requires_zones");
    assertThat(new NetworkSpec("core", "10.0.0.0/16", unzoned, null, null, "single").validate()).isEmpty();
    assertThat(new NetworkSpec("core", "10.0.0.0/16", unzoned, null, null, null).natGatewayMode())
        .isEqualTo("none");
  }

  @Test
  void aSubnetIsPublicOnlyWhenItSaysSo() throws Exception {
    var json = new com.fasterxml.jackson.databind.ObjectMapper();
    NetworkSpec spec = json.readValue("""
        {"name": "core", "cidr": "10.0.0.0/16", "natGateways": "single", "subnets": [
          {"name": "edge", "cidr": "10.0.0.0/24", "public": true},
          {"name": "app", "cidr": "10.0.1.0/24"}]}""", NetworkSpec.class);
    assertThat(spec.publicSubnets()).extracting(Subnet::name).containsExactly("edge");
    assertThat(spec.privateSubnets()).extracting(Subnet::name).containsExactly("app");
    assertThat(json.writeValueAsString(spec.subnets().get(0))).contains("\"public\":true");
  }

  @Test
  void registryAndComponentNames() {
    assertThat(fields(new RegistrySpec("Team/App", null, null))).containsExactly("name");
    assertThat(fields(new RegistrySpec("team/checkout-api", null, null))).isEmpty();
    assertThat(fields(new ComponentSpec("Ingress Nginx", "Bad_NS", Map.of()))).containsExactly("componentID",
        "namespace");
    assertThat(fields(new ComponentSpec("kong", null, Map.of(), "latest"))).containsExactly("chartVersion");
    assertThat(fields(new ComponentSpec("kong", null, Map.of(), "3.4.1"))).isEmpty();
    assertThat(fields(new ComponentSpec("kong", null, Map.of(), "1.0.0-rc.1+build.5"))).isEmpty();
  }

  @Test
  void specsReadTheProductsJsonFieldNames() throws Exception {
    ObjectMapper json = new ObjectMapper();
    KubernetesSpec cluster = json.readValue("""
        { "name": "platform-prod", "version": "1.30",
          "nodeGroups": [ { "name": "default", "instanceType": "m5.large", "min": 2, "max": 6 } ],
          "vpcID": "vpc-0abc", "subnetIDs": ["subnet-0a", "subnet-0b"] }""", KubernetesSpec.class);
    assertThat(cluster.validate()).isEmpty();
    assertThat(cluster.vpcId()).isEqualTo("vpc-0abc");
    assertThat(cluster.subnetIds()).containsExactly("subnet-0a", "subnet-0b");
    DatastoreSpec db = json.readValue("""
        { "engine": "postgres", "version": "16.3", "instanceClass": "db.t3.medium", "allocatedStorageGB": 50,
          "multiAZ": true, "backupRetentionDays": 7 }""", DatastoreSpec.class);
    assertThat(db.validate()).isEmpty();
    assertThat(db.multiAz()).isTrue();
    assertThat(json.writeValueAsString(db)).contains("\"allocatedStorageGB\":50", "\"multiAZ\":true")
        .doesNotContain("kind");
  }
}
