package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hostile and broken requests: every one a 4xx in the one error shape, none a 5xx, and nothing written. */
class BadInputTest {
  static ServerFixture fixture;
  static Provisioner acme;
  static Space space;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture(b -> b.maxBodyBytes(64 * 1024));
    acme = fixture.client(fixture.adminToken);
    CloudAccount account = acme.accounts().create(CloudAccountRequest.of("sim", "bad-input"));
    space = acme.spaces().create(SpaceRequest.of("sim", "bad-input", account.id()).region("sim-east-1"));
  }

  @AfterAll
  static void stop() {
    acme.close();
    fixture.close();
  }

  RawHttp.Reply post(String path, String body) {
    return RawHttp.json(fixture.baseUrl(), "POST", path, fixture.adminToken, body);
  }

  static void assertError(RawHttp.Reply reply, int status, String code) {
    assertThat(reply.status()).as(reply.body()).isEqualTo(status);
    JsonNode error = reply.json().get("error");
    assertThat(error).as(reply.body()).isNotNull();
    assertThat(error.get("code").asText()).isEqualTo(code);
    assertThat(error.get("message").asText()).isNotBlank();
    assertThat(error.get("requestId").asText()).isNotBlank();
    assertThat(reply.body()).doesNotContain("at dev.zop", "at io.javalin", "Exception:");
  }

  static List<String> fields(RawHttp.Reply reply) {
    List<String> fields = new ArrayList<>();
    reply.json().at("/error/fields").forEach(f -> fields.add(f.get("field").asText()));
    return fields;
  }

  @Test
  void brokenBodiesAreRefusedNamingTheField() {
    String spaceId = space.id().value();
    int spaces = acme.spaces().list().size();
    assertError(post("/provisioning-jobs", "{\"spaceID\": \"" + spaceId + "\", \"kind\": "), 400, "malformed_json");
    assertError(post("/provisioning-jobs", "[1,2,3]"), 400, "malformed_json");

    RawHttp.Reply missing = post("/provisioning-jobs", "{}");
    assertError(missing, 400, "validation_failed");
    assertThat(fields(missing)).containsExactlyInAnyOrder("spaceID", "kind", "config");

    RawHttp.Reply unknownKind = post("/provisioning-jobs",
        "{\"spaceID\":\"" + spaceId + "\",\"kind\":\"mainframe\",\"config\":{}}");
    assertError(unknownKind, 400, "unknown_kind");
    assertThat(fields(unknownKind)).containsExactly("kind");

    RawHttp.Reply wrongType = post("/provisioning-jobs", "{\"spaceID\":\"" + spaceId + "\",\"kind\":\"kubernetes\","
        + "\"config\":{\"name\":\"x\",\"version\":\"1.30\",\"nodeGroups\":[{\"name\":\"a\",\"instanceType\":\"m5.large\","
        + "\"min\":\"two\",\"max\":3}]}}");
    assertError(wrongType, 400, "validation_failed");
    assertThat(fields(wrongType)).containsExactly("config.nodeGroups[0].min");
    assertThat(wrongType.json().at("/error/fields/0/code").asText()).isEqualTo("wrong_type");
    assertThat(wrongType.json().at("/error/fields/0/message").asText())
        .isEqualTo("config.nodeGroups[0].min: expected an integer from -2147483648 to 2147483647");

    RawHttp.Reply unknownField = post("/provisioning-jobs", "{\"spaceID\":\"" + spaceId + "\",\"kind\":\"registry\","
        + "\"config\":{\"name\":\"r\",\"colour\":\"blue\"}}");
    assertError(unknownField, 400, "unknown_field");
    assertThat(fields(unknownField)).containsExactly("config.colour");

    RawHttp.Reply invalidSpec = post("/provisioning-jobs", "{\"spaceID\":\"" + spaceId + "\",\"kind\":\"vm_pool\","
        + "\"config\":{\"name\":\"\",\"instanceType\":\"m5.large\",\"min\":5,\"max\":2}}");
    assertError(invalidSpec, 400, "validation_failed");
    assertThat(fields(invalidSpec)).allMatch(f -> f.startsWith("config.")).hasSizeGreaterThan(1);

    assertError(RawHttp.json(fixture.baseUrl(), "PATCH", "/spaces/" + spaceId + "/status", fixture.adminToken,
        "{\"status\":\"sideways\"}"), 400, "invalid_argument");
    assertError(post("/remediation-jobs", "{\"subjectType\":\"resource\"}"), 400, "validation_failed");
    RawHttp.Reply wrongTypes = post("/spaces", "{\"name\": 42, \"provider\": [], \"cloudAccountId\": {}}");
    assertError(wrongTypes, 400, "validation_failed");
    assertThat(wrongTypes.json().at("/error/fields/0/code").asText()).isEqualTo("wrong_type");
    assertThat(wrongTypes.json().at("/error/fields/0/message").asText()).isEqualTo("name: expected a string");

    assertThat(acme.jobs().list(JobQuery.inSpace(space.id())).items()).isEmpty();
    assertThat(acme.spaces().list()).hasSize(spaces);
  }

  @Test
  void aMethodAPathDoesNotServeIsA405ThatSaysWhatItDoes() {
    RawHttp.Reply put = RawHttp.json(fixture.baseUrl(), "PUT", "/provisioning-jobs", fixture.adminToken, "{}");
    assertError(put, 405, "method_not_allowed");
    assertThat(put.header("Allow")).isEqualTo("GET, POST");
    RawHttp.Reply post = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs/job_0123456789abcdef",
        fixture.adminToken, "{}");
    assertError(post, 405, "method_not_allowed");
    assertThat(post.header("Allow")).isEqualTo("DELETE, GET, PATCH");
  }

  @Test
  void aNullTagValueIsRefusedNamingTheTag() {
    // in a space of its own: the test above counts the jobs of the shared one
    String spaceId = acme.spaces().create(dev.zop.provisioner.SpaceRequest.of("sim", "bad-input-tags",
        space.cloudAccountId()).region("sim-east-1")).id().value();
    // a tag's value is a string: null is refused naming the tag, not a 500
    RawHttp.Reply nullTag = post("/provisioning-jobs", "{\"spaceID\":\"" + spaceId + "\",\"kind\":\"registry\","
        + "\"config\":{\"name\":\"tags/null\"},\"tags\":{\"team\":null}}");
    assertError(nullTag, 400, "validation_failed");
    assertThat(fields(nullTag)).containsExactly("tags.team");
    String job = post("/provisioning-jobs", "{\"spaceID\":\"" + spaceId + "\",\"kind\":\"registry\","
        + "\"config\":{\"name\":\"tags/patched\"}}").json().at("/data/id").asText();
    RawHttp.Reply nullPatch = RawHttp.json(fixture.baseUrl(), "PATCH", "/provisioning-jobs/" + job,
        fixture.adminToken, "{\"tags\":{\"team\":null}}");
    assertError(nullPatch, 400, "validation_failed");
    assertThat(fields(nullPatch)).containsExactly("tags.team");

    assertThat(acme.jobs().list(JobQuery.inSpace(dev.zop.provisioner.SpaceId.of(spaceId))).items()).hasSize(1);
  }

  @Test
  void sizeAndMediaTypeAreChecked() {
    byte[] huge = ("{\"name\":\"" + "x".repeat(200_000) + "\"}").getBytes(StandardCharsets.UTF_8);
    assertError(RawHttp.send(fixture.baseUrl(), "POST", "/cloud-accounts", fixture.adminToken, "application/json",
        huge), 413, "body_too_large");
    assertError(RawHttp.send(fixture.baseUrl(), "POST", "/cloud-accounts", fixture.adminToken, "text/plain",
        "provider=sim".getBytes(StandardCharsets.UTF_8)), 415, "unsupported_media_type");
    assertThat(acme.accounts().list()).hasSize(1);
  }

  @Test
  void hostilePathsAndQueriesAreFourHundreds() {
    String token = fixture.adminToken;
    for (String path : List.of("/provisioning-jobs/..%2F..%2Fetc%2Fpasswd", "/provisioning-jobs/%00",
        "/provisioning-jobs/" + "a".repeat(300), "/provisioning-jobs/'%20OR%201=1--",
        "/spaces/%3Cscript%3E", "/provisioning-jobs/job_x/databases/..%2F", "/no/such/route",
        "/remediation-jobs/job_x/steps-by-id/not-a-uuid/approve")) {
      String method = path.endsWith("/approve") ? "POST" : "GET";
      RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), method, path, token, null);
      assertThat(reply.status()).as(path + " " + reply.body()).isBetween(400, 499);
      assertThat(reply.json().at("/error/code").asText()).as(path).isNotBlank();
    }
    // every query parameter checked against the route's contract, in the document's words
    RawHttp.Reply notANumber = RawHttp.json(fixture.baseUrl(), "GET", "/provisioning-jobs?limit=abc", token, null);
    assertError(notANumber, 400, "validation_failed");
    assertThat(notANumber.json().at("/error/fields/0/message").asText())
        .isEqualTo("limit: expected an integer from 1 to 500");
    RawHttp.Reply tooMany = RawHttp.json(fixture.baseUrl(), "GET", "/provisioning-jobs?limit=100000", token, null);
    assertError(tooMany, 400, "validation_failed");
    assertThat(tooMany.json().at("/error/fields/0/code").asText()).isEqualTo("out_of_range");
    assertError(RawHttp.json(fixture.baseUrl(), "GET", "/provisioning-jobs?status=exploded", token, null), 400,
        "validation_failed");
    RawHttp.Reply spacesStatus = RawHttp.json(fixture.baseUrl(), "GET", "/spaces?status=bogus", token, null);
    assertError(spacesStatus, 400, "validation_failed");
    assertThat(spacesStatus.json().at("/error/fields/0/code").asText()).isEqualTo("unknown_parameter");
    assertError(RawHttp.json(fixture.baseUrl(), "GET", "/provisioning-jobs?cursor=notacursor", token, null), 400,
        "validation_failed");
  }

  @Test
  void theOpenApiDocumentDescribesEveryRouteWithItsPolicy() {
    JsonNode openApi = RawHttp.json(fixture.baseUrl(), "GET", "/openapi.json", null, null).json();
    assertThat(openApi.get("openapi").asText()).startsWith("3.");
    for (ApiRoute endpoint : fixture.server.routes()) {
      JsonNode operation = openApi.path("paths").path(endpoint.path())
          .path(endpoint.method().toLowerCase(java.util.Locale.ROOT));
      assertThat(operation.isObject()).as(endpoint.describe()).isTrue();
      assertThat(operation.path("x-policy").asText(null)).as(endpoint.describe()).isEqualTo(endpoint.policy());
      assertThat(operation.path("responses").has(Integer.toString(endpoint.successStatus()))).isTrue();
    }
    assertThat(openApi.at("/paths/~1provisioning-jobs/post/x-policy").asText()).isEqualTo("provisioning:create");
  }

  @Test
  void theCatalogWithoutAComponentInstallerIsAConflictNotAFailure() {
    // this server's engine was built without provider-helm
    assertError(RawHttp.json(fixture.baseUrl(), "GET", "/catalog/components", fixture.adminToken, null), 409,
        "no_component_installer");
  }

  @Test
  void tooManyRequestsAre429WithRetryAfter() {
    try (ServerFixture limited = new ServerFixture(b -> b.requestsPerSecond(5))) {
      int tooMany = 0;
      for (int i = 0; i < 20; i++) {
        RawHttp.Reply reply = RawHttp.json(limited.baseUrl(), "GET", "/spaces", limited.adminToken, null);
        if (reply.status() == 429) {
          tooMany++;
          assertError(reply, 429, "rate_limited");
        }
      }
      assertThat(tooMany).isPositive();
    }
  }
}
