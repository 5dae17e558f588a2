package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import io.swagger.v3.parser.OpenAPIV3Parser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /openapi.json}: read without a message by a third-party OpenAPI parser, a schema for every request body
 * and every answer, the same as the copy committed beside this module, and real answers valid against it.
 */
class OpenApiDocumentTest {
  /** The committed copy: what a reviewer diffs and a client generator reads. */
  static final Path COMMITTED = Path.of("openapi.json");

  static ServerFixture fixture;
  static JsonNode document;

  @BeforeAll
  static void start() throws Exception {
    fixture = new ServerFixture();
    RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), "GET", "/openapi.json", null, null);
    assertThat(reply.status()).isEqualTo(200);
    document = reply.json();
    if (Boolean.getBoolean("openapi.write")) {
      // keys sorted: the served maps' order varies from run to run, and the committed copy should not
      Files.writeString(COMMITTED, RawHttp.JSON.copy()
          .configure(com.fasterxml.jackson.databind.cfg.JsonNodeFeature.WRITE_PROPERTIES_SORTED, true)
          .writerWithDefaultPrettyPrinter().writeValueAsString(document) + "\n");
    }
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void aThirdPartyParserReadsItWithoutAMessage() {
    ParseOptions options = new ParseOptions();
    options.setResolve(true);
    SwaggerParseResult parsed = new OpenAPIV3Parser().readContents(document.toString(), null, options);
    assertThat(parsed.getMessages()).isEmpty();
    assertThat(parsed.getOpenAPI().getPaths()).hasSizeGreaterThan(40);
  }

  @Test
  void everyRouteHasItsRequestAndResponseSchema() {
    List<String> missing = new ArrayList<>();
    int operations = 0;
    for (Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").fields(); paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        operations++;
        String name = op.getKey().toUpperCase() + " " + path.getKey();
        JsonNode success = op.getValue().get("responses").fields().next().getValue();
        boolean empty = op.getValue().get("responses").has("204");
        if (!empty && success.at("/content").findValue("schema") == null) {
          missing.add(name + ": response");
        }
        boolean readsBody = Set.of("post", "put", "patch").contains(op.getKey())
            && !op.getValue().path("x-no-body").asBoolean(false);
        if (readsBody && !op.getValue().has("requestBody") && bodyExpected(name)) {
          missing.add(name + ": request");
        }
      }
    }
    assertThat(operations).isGreaterThan(50);
    assertThat(missing).isEmpty();
  }

  /**
   * POSTs that act on their path alone (retry, kubeconfig, connections, cluster access, a drift check, a reconcile
   * and its plan) take no body.
   */
  private static boolean bodyExpected(String operation) {
    return !(operation.endsWith("/retry") || operation.endsWith("/kubeconfig") || operation.endsWith("/connections")
        || operation.endsWith("/access") || operation.endsWith("/drift-checks") || operation.endsWith("/reconcile")
        || operation.endsWith("/reconcile/plan"));
  }

  @Test
  void itIsTheCommittedCopy() throws Exception {
    assertThat(Files.exists(COMMITTED)).as("zop-provisioner-server/openapi.json is committed").isTrue();
    JsonNode committed = RawHttp.JSON.readTree(Files.readString(COMMITTED, StandardCharsets.UTF_8));
    assertThat(committed).as("the served document differs from the committed openapi.json: review the change,"
        + " then ./mvnw test -pl zop-provisioner-server -Dtest=OpenApiDocumentTest -Dopenapi.write=true")
        .isEqualTo(document);
  }

  @Test
  void realAnswersMatchTheirSchemas() throws Exception {
    Provisioner client = fixture.client(fixture.adminToken);
    String token = fixture.adminToken;
    String base = fixture.baseUrl();
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "openapi"));
    Space space = client.spaces().create(SpaceRequest.of("sim", "openapi", account.id()).region("sim-east-1"));
    String job = RawHttp.json(base, "POST", "/provisioning-jobs", token,
        ProvisioningDocument.DATASTORE.replace("spc_abc123", space.id().value())).json().at("/data/id").asText();
    assertThat(client.jobs().await(dev.zop.provisioner.JobId.of(job), Duration.ofSeconds(60)).status())
        .isEqualTo(JobStatus.SUCCEEDED);

    List<String[]> calls = List.of(
        new String[] {"GET", "/me", "/me", null},
        new String[] {"GET", "/cloud-accounts", "/cloud-accounts", null},
        new String[] {"GET", "/cloud-accounts/{accountID}", "/cloud-accounts/" + account.id().value(), null},
        new String[] {"POST", "/cloud-accounts", "/cloud-accounts", "{\"provider\":\"sim\",\"name\":\"second\"}"},
        new String[] {"GET", "/spaces", "/spaces", null},
        new String[] {"GET", "/spaces/{spaceID}", "/spaces/" + space.id().value(), null},
        new String[] {"POST", "/provisioning-jobs/plan", "/provisioning-jobs/plan",
            ProvisioningDocument.VM_POOL.replace("spc_abc123", space.id().value())},
        new String[] {"POST", "/provisioning-jobs", "/provisioning-jobs",
            "{\"spaceID\":\"" + space.id().value() + "\",\"kind\":\"registry\",\"config\":{\"name\":\"team/api\"}}"},
        new String[] {"GET", "/provisioning-jobs", "/provisioning-jobs", null},
        new String[] {"GET", "/provisioning-jobs/{id}", "/provisioning-jobs/" + job, null},
        new String[] {"GET", "/provisioning-jobs/{id}/events", "/provisioning-jobs/" + job + "/events", null},
        new String[] {"POST", "/provisioning-jobs/{id}/revisions/plan", "/provisioning-jobs/" + job
            + "/revisions/plan", RevisionsThroughTheServiceTest.REVISED},
        new String[] {"GET", "/provisioning-jobs/{id}/revisions", "/provisioning-jobs/" + job + "/revisions", null},
        new String[] {"POST", "/provisioning-jobs/{id}/drift-checks", "/provisioning-jobs/" + job + "/drift-checks",
            null},
        new String[] {"GET", "/remediation-templates", "/remediation-templates", null},
        new String[] {"GET", "/recommendations", "/recommendations", null},
        new String[] {"GET", "/tokens", "/tokens", null},
        new String[] {"GET", "/space-discovery/{spaceID}/networks", "/space-discovery/" + space.id().value()
            + "/networks", null},
        new String[] {"GET", "/space-discovery/{spaceID}/subnets", "/space-discovery/" + space.id().value()
            + "/subnets", null},
        new String[] {"GET", "/space-discovery/{spaceID}/dns-zones", "/space-discovery/" + space.id().value()
            + "/dns-zones", null},
        new String[] {"GET", "/space-discovery/{spaceID}/clusters", "/space-discovery/" + space.id().value()
            + "/clusters", null},
        new String[] {"GET", "/space-discovery/{spaceID}/offerings", "/space-discovery/" + space.id().value()
            + "/offerings", null},
        new String[] {"GET", "/remediation-jobs", "/remediation-jobs", null},
        new String[] {"GET", "/audit-log", "/audit-log", null},
        new String[] {"DELETE", "/provisioning-jobs/{id}", "/provisioning-jobs/" + job, null});
    List<String> invalid = new ArrayList<>();
    for (String[] call : calls) {
      RawHttp.Reply reply = RawHttp.json(base, call[0], call[2], token, call[3]);
      assertThat(reply.status()).as(call[0] + " " + call[2] + ": " + reply.body()).isLessThan(300);
      JsonNode operation = document.get("paths").get(call[1]).get(call[0].toLowerCase());
      JsonNode schema = operation.get("responses").get(Integer.toString(reply.status()))
          .at("/content/application~1json/schema");
      Set<ValidationMessage> messages = validator(schema).validate(reply.json());
      messages.forEach(m -> invalid.add(call[0] + " " + call[1] + ": " + m.getMessage()));
    }
    assertThat(invalid).isEmpty();
    client.close();
  }

  /**
   * What a request body's schema lists as required is what the server refuses a body without: {@code {}} sent to
   * each route answers 400 naming exactly those fields as required (a submit's per-kind bodies share theirs).
   */
  @Test
  void aRequestBodysRequiredFieldsAreTheOnesTheServerAsksFor() {
    Provisioner client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "required"));
    Space space = client.spaces().create(SpaceRequest.of("sim", "required", account.id()).region("sim-east-1"));
    Map<String, String[]> routes = new java.util.LinkedHashMap<>();
    routes.put("CloudAccountRequest", new String[] {"POST", "/cloud-accounts"});
    routes.put("SpaceRequest", new String[] {"POST", "/spaces"});
    routes.put("SpaceStatusChange", new String[] {"PATCH", "/spaces/" + space.id().value() + "/status"});
    routes.put("SubmitRegistryJob", new String[] {"POST", "/provisioning-jobs"});
    routes.put("InstallComponent", new String[] {"POST", "/provisioning-jobs/install-component"});
    routes.put("StartRemediation", new String[] {"POST", "/remediation-jobs"});
    List<String> differences = new ArrayList<>();
    routes.forEach((schema, route) -> {
      Set<String> declared = new java.util.TreeSet<>();
      document.at("/components/schemas/" + schema + "/required").forEach(f -> declared.add(f.asText()));
      RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), route[0], route[1], fixture.adminToken, "{}");
      Set<String> asked = new java.util.TreeSet<>();
      reply.json().at("/error/fields").forEach(f -> {
        if (f.get("code").asText().equals("required")) {
          asked.add(f.get("field").asText());
        }
      });
      if (reply.status() != 400 || !asked.equals(declared)) {
        differences.add(schema + ": declared " + declared + ", " + route[0] + " " + route[1] + " {} answered "
            + reply.status() + " asking for " + asked + " (" + reply.body() + ")");
      }
    });
    assertThat(differences).isEmpty();
    client.close();
  }

  /** The operation's schema with the document's components beside it, so its references resolve. */
  private static JsonSchema validator(JsonNode schema) {
    ObjectNode root = ((ObjectNode) schema.deepCopy());
    root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    root.set("components", document.get("components"));
    return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(root);
  }
}
