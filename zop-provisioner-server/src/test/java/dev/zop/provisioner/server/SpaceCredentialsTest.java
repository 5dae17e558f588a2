package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.testkit.kube.KubeTestCluster;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/**
 * A space registered with its cluster's CA certificate and a service-account token, as the spaces document
 * describes: the credentials go to the secret store, the space keeps a reference, no answer and no row of the
 * engine's database holds them, and the namespaces calls reach the cluster with a kubeconfig built from them.
 */
class SpaceCredentialsTest {
  @Test
  void caCertAndTokenAreKeptAsAReferenceAndReachTheCluster() throws Exception {
    KubeTestCluster kube = KubeTestCluster.shared();
    try (ServerFixture fixture = ServerFixture.withComponents(); Provisioner acme = fixture.client(fixture.adminToken)) {
      CloudAccount account = acme.accounts().create(CloudAccountRequest.of("sim", "credentials"));
      String pem = new String(Base64.getDecoder().decode(kube.caData()), StandardCharsets.UTF_8);
      String body = "{\"name\":\"token-space\",\"provider\":\"sim\",\"spaceType\":\"kubernetes\",\"cloudAccountId\":\""
          + account.id() + "\",\"config\":{\"clusterName\":\"token-cluster\",\"region\":\"sim-east-1\",\"endpoint\":\""
          + kube.server() + "\",\"caCert\":" + RawHttp.JSON.writeValueAsString(pem) + ",\"serviceAccountToken\":\""
          + KubeTestCluster.TOKEN + "\"}}";
      RawHttp.Reply created = RawHttp.json(fixture.baseUrl(), "POST", "/spaces", fixture.adminToken, body);
      assertThat(created.status()).as(created.body()).isEqualTo(201);
      // the documents show a space's config as a JSON string
      JsonNode config = RawHttp.JSON.readTree(created.json().at("/data/config").asText());
      assertThat(config.has("caCert")).isFalse();
      assertThat(config.has("serviceAccountToken")).isFalse();
      assertThat(config.path("kubeconfigRef").asText()).as(created.body()).isNotBlank();
      SpaceId space = SpaceId.of(created.json().at("/data/id").asText());

      String listed = RawHttp.json(fixture.baseUrl(), "GET", "/spaces", fixture.adminToken, null).body();
      String got = RawHttp.json(fixture.baseUrl(), "GET", "/spaces/" + space, fixture.adminToken, null).body();
      assertThat(listed + got).doesNotContain(KubeTestCluster.TOKEN, kube.caData(), "BEGIN CERTIFICATE");

      // the kubeconfig built from them reaches the cluster
      assertThat(acme.spaces().namespaces(space).list()).extracting(Namespace::name).contains("default");

      StringBuilder everything = new StringBuilder();
      try (Connection c = fixture.engine.dataSource().getConnection(); Statement s = c.createStatement();
          ResultSet dump = s.executeQuery("SCRIPT")) {
        while (dump.next()) {
          everything.append(dump.getString(1)).append('\n');
        }
      }
      assertThat(everything).contains("token-space").doesNotContain(KubeTestCluster.TOKEN);
      assertThat(everything.toString()).doesNotContain(kube.caData());
    }
  }

  @Test
  void aTokenWithoutItsCaAndEndpointIsRefusedNamingTheFields() {
    try (ServerFixture fixture = new ServerFixture(); Provisioner acme = fixture.client(fixture.adminToken)) {
      CloudAccount account = acme.accounts().create(CloudAccountRequest.of("sim", "credentials"));
      RawHttp.Reply refused = RawHttp.json(fixture.baseUrl(), "POST", "/spaces", fixture.adminToken,
          "{\"name\":\"half\",\"provider\":\"sim\",\"cloudAccountId\":\"" + account.id() + "\",\"config\":"
              + "{\"region\":\"sim-east-1\",\"serviceAccountToken\":\"abcdefgh12345678\"}}");
      assertThat(refused.status()).isEqualTo(400);
      assertThat(BadInputTest.fields(refused)).contains("config.caCert", "config.endpoint");
      assertThat(refused.body()).doesNotContain("abcdefgh12345678");
      assertThat(acme.spaces().list()).isEmpty();
    }
  }
}
