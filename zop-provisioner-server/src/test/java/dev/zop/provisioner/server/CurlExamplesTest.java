package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import dev.zop.provisioner.testkit.kube.KubeTestCluster;
import dev.zop.provisioner.sim.SimCloud;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every curl example of the product documents (copied verbatim into spec-curl-examples.txt), run with curl
 * against a real {@code zop serve} process. Only the host, the token and the placeholder ids change (the ids
 * become real objects made first: a space, an AWS account, a datastore job, a recommendation, a VPC). The sim
 * provider (a test double) stands in for the cloud; its postgres datastores are the real local PostgreSQL.
 */
class CurlExamplesTest {
  static Path dir;
  static ZopServeProcess serve;
  static String base;
  static String token;
  static Provisioner client;
  static final Map<String, String> IDS = new LinkedHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    SimCloud.Server pg = TestDatabaseServers.postgres(); // fails loudly when PostgreSQL is not there
    dropDocumentedDatabase(pg); // the example's names are fixed; a run that died midway may have left them
    dir = Files.createTempDirectory("zop-serve");
    token = zop("tokens", "create", "--data-dir", dir.toString(), "--org", "acme", "--actor", "alice@acme.com",
        "--role", "admin").trim();
    serve = ZopServeProcess.start(dir, Map.of("ZOP_SIM_POLL_MS", "20", "ZOP_SIM_POSTGRES",
        pg.host() + ":" + pg.port() + ":" + pg.adminUser() + ":" + pg.adminPassword()));
    base = serve.base();
    client = dev.zop.provisioner.client.ProvisionerClient.builder().baseUrl(base).bearerToken(token).build();
    CloudAccount sim = client.accounts().create(CloudAccountRequest.of("sim", "curl-examples"));
    // the space's cluster is a real kube-apiserver on loopback, reached with a kubeconfig the space carries
    Space space = client.spaces().create(SpaceRequest.of("sim", "curl-examples", sim.id()).region("sim-east-1")
        .kubeconfig(KubeTestCluster.shared().kubeconfig()));
    CloudAccount aws = client.accounts().create(CloudAccountRequest.of("aws", "acme-aws")
        .credentialsRef("env:AWS_PROFILE"));
    Job datastore = client.jobs().await(client.jobs().submit(space.id(),
        DatastoreSpec.postgres().name("orders").version("16.3").instanceClass("db.t3.medium").allocatedStorageGb(20).build()).id(),
        Duration.ofSeconds(60));
    assertThat(datastore.status()).isEqualTo(JobStatus.SUCCEEDED);
    // the cluster example names a VPC and subnets, which must exist: a network job makes them in the sim cloud
    Job network = client.jobs().await(client.jobs().submit(space.id(), NetworkSpec.named("platform-net")
        .cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24").subnet("b", "10.0.2.0/24").build()).id(),
        Duration.ofSeconds(60));
    assertThat(network.status()).isEqualTo(JobStatus.SUCCEEDED);
    client.remediations().putRecommendation(new Recommendation("rec_curl", "sim", sim.id(), "sim-east-1", "vm",
        "i-0123456789abcdef0", "stop"));
    IDS.put("spc_abc123", space.id().value());
    IDS.put("spc_abc", space.id().value());
    IDS.put("ca_abc123", aws.id().value());
    IDS.put("job_abc", datastore.id().value());
    IDS.put("rec_abc123", "rec_curl");
    IDS.put("vpc-0abc", "platform-net");
    IDS.put("subnet-0a", "platform-net-a");
    IDS.put("subnet-0b", "platform-net-b");
  }

  static void dropDocumentedDatabase(SimCloud.Server pg) throws java.sql.SQLException {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(
        TestDatabaseServers.postgresUrl(pg, "postgres"), pg.adminUser(), pg.adminPassword());
        java.sql.Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS checkout");
      s.execute("DROP ROLE IF EXISTS checkout_app");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (client != null && IDS.containsKey("job_abc")) {
      dev.zop.provisioner.JobId datastore = dev.zop.provisioner.JobId.of(IDS.get("job_abc"));
      client.jobs().databases(datastore).list()
          .forEach(db -> client.jobs().databases(datastore).delete(db.id())); // drops them on the server
    }
    if (client != null) {
      client.close();
    }
    if (serve != null) {
      assertThat(serve.stop()).as("zop serve stops on SIGTERM").isTrue();
    }
  }

  static String zop(String... args) {
    return ZopServeProcess.zop(args);
  }

  record Example(String title, String command) {}

  static List<Example> examples() throws IOException {
    String text = new String(CurlExamplesTest.class.getResourceAsStream("/spec-curl-examples.txt").readAllBytes(),
        StandardCharsets.UTF_8);
    List<Example> examples = new ArrayList<>();
    for (String block : text.split("\n(?=# )")) {
      int newline = block.indexOf('\n');
      examples.add(new Example(block.substring(2, newline), block.substring(newline + 1).trim()));
    }
    return examples;
  }

  /** Runs one example with curl; returns the status and the body. */
  static RawHttp.Reply curl(String command) throws Exception {
    String runnable = command
        .replace(" \\ -", " -") // the documents flatten line continuations to "\ " inside one line
        .replace("https://zopnight.com/api", base)
        .replace("Bearer <token>", "Bearer " + token)
        .replace("Bearer \"", "Bearer " + token + "\"");
    for (Map.Entry<String, String> id : IDS.entrySet()) {
      runnable = runnable.replaceAll("\\b" + id.getKey() + "\\b", id.getValue());
    }
    Process curl = new ProcessBuilder("bash", "-c", runnable + " -s -w '\\n%{http_code}'").start();
    String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(curl.waitFor(60, TimeUnit.SECONDS)).isTrue();
    int split = out.lastIndexOf('\n');
    return new RawHttp.Reply(Integer.parseInt(out.substring(split + 1).trim()), out.substring(0, split));
  }

  @Test
  void everyDocumentedExampleAnswersWithTheDocumentedShape() throws Exception {
    List<Example> examples = examples();
    assertThat(examples).hasSize(8);
    Map<String, RawHttp.Reply> replies = new LinkedHashMap<>();
    for (Example example : examples) {
      replies.put(example.title() + " " + example.command().substring(0, Math.min(80, example.command().length())),
          curl(example.command()));
    }
    List<String> results = new ArrayList<>();
    replies.forEach((title, reply) -> results.add(reply.status() + " " + title));

    for (Map.Entry<String, RawHttp.Reply> entry : replies.entrySet()) {
      String title = entry.getKey();
      RawHttp.Reply reply = entry.getValue();
      JsonNode body = reply.json();
      assertThat(reply.status()).as(title + " -> " + reply.body()).isEqualTo(201);
      JsonNode data = body.get("data");
      assertThat(data).as(title).isNotNull();
      if (title.contains("/namespaces")) {
        assertThat(data.get("name").asText()).isEqualTo("checkout-prod");
        assertThat(data.get("managedByZopnight").asBoolean()).isTrue();
        assertThat(data.get("createdAt").asText()).isNotBlank();
      } else if (title.contains("install-component")) {
        assertThat(data.get("kind").asText()).isEqualTo("component");
        assertThat(data.at("/config/componentID").asText()).isEqualTo("ingress-nginx");
        assertThat(data.at("/config/values/controller.service.type").asText()).isEqualTo("LoadBalancer");
      } else if (title.contains("provisioning-jobs/job_")) {
        assertThat(data.get("name").asText()).isEqualTo("checkout");
        assertThat(data.get("owner").asText()).isEqualTo("checkout_app");
        assertThat(data.get("secretRef").asText()).isNotBlank();
        assertThat(reply.body()).doesNotContain("password");
      } else if (title.contains("/provisioning-jobs")) {
        assertThat(data.get("id").asText()).startsWith("job_");
        assertThat(data.get("status").asText()).isIn("pending", "running", "succeeded");
        assertThat(data.get("config").isObject()).isTrue();
      } else if (title.contains("/remediation-jobs")) {
        assertThat(data.get("templateId").asText()).isEqualTo("stop-idle-vm");
      } else if (title.contains("/spaces")) {
        assertThat(data.get("id").asText()).startsWith("spc_");
        assertThat(data.get("provider").asText()).isEqualTo("aws");
        assertThat(data.get("spaceType").asText()).isEqualTo("kubernetes");
        assertThat(data.get("config").isTextual()).as("config is a JSON string, as documented").isTrue();
        assertThat(data.get("config").asText()).contains("\"clusterName\":\"checkout-prod\"");
      }
    }
    assertThat(results).hasSize(8);

    // the documented responses of the GET examples
    JsonNode catalog = RawHttp.json(base, "GET", "/catalog/components", token, null).json();
    assertThat(catalog.get("data").isArray()).isTrue();
    assertThat(catalog.get("data")).anySatisfy(c -> {
      assertThat(c.get("id").asText()).isEqualTo("ingress-nginx");
      assertThat(c.get("category").asText()).isEqualTo("ingress");
      assertThat(c.get("version").asText()).isNotBlank();
      assertThat(c.get("name").asText()).isNotBlank();
      assertThat(c.get("description").asText()).isNotBlank();
    });
    JsonNode namespaces = RawHttp.json(base, "GET", "/space-discovery/" + IDS.get("spc_abc") + "/namespaces",
        token, null).json();
    assertThat(namespaces.get("data")).anySatisfy(n -> {
      assertThat(n.get("name").asText()).isEqualTo("default");
      assertThat(n.get("managedByZopnight").asBoolean()).isFalse();
      assertThat(n.has("createdAt")).isFalse();
    });
    JsonNode spaces = RawHttp.json(base, "GET", "/spaces", token, null).json();
    assertThat(spaces.get("data").isArray()).isTrue();
    assertThat(spaces.at("/data/0/cloudAccountId").isTextual()).isTrue();
    assertThat(spaces.toString()).doesNotContain("caCert", "serviceAccountToken");
  }
}
