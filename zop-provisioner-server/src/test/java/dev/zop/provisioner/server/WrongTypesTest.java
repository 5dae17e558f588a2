package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.SpaceRequest;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Driven by the served OpenAPI document: every field of every request body (and of each kind's {@code config})
 * sent with values of the wrong JSON type, out of its type's range, or empty where a value is required, and every
 * query parameter of every route sent with values outside its declared type, limits or values. Every answer is a
 * 400 naming the field, says what was expected in the API's words (no Java or Jackson name, no exception), and
 * writes nothing.
 */
class WrongTypesTest {
  /** What an answer must never hold: a Java or Jackson name, an exception, a stack frame, a Java type's name. */
  private static final Pattern INTERNAL = Pattern.compile("java\\.|Jackson|jackson|Exception|dev\\.zop|\\tat |"
      + "\\b(Boolean|Integer|Long|Double|String|ArrayList|List|Map|HashMap|LinkedHashMap|Object|JsonNode|Instant|"
      + "BigInteger|BigDecimal|CoercionConfig)\\b");
  private static final String ID = "abc_0123456789";

  static ServerFixture fixture;
  static JsonNode document;
  static String space;
  static final List<String> findings = new ArrayList<>();
  static int requests;

  @BeforeAll
  static void start() {
    // some 900 requests from one caller, as fast as the host answers them: the rate limit is another test's
    fixture = new ServerFixture(b -> b.requestsPerSecond(100_000));
    document = RawHttp.json(fixture.baseUrl(), "GET", "/openapi.json", null, null).json();
    try (Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "types"));
      space = client.spaces().create(SpaceRequest.of("sim", "types", account.id()).region("sim-east-1")).id().value();
    }
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void everyBodyFieldOfTheWrongTypeIsRefusedNamingItAndWritesNothing() throws Exception {
    for (Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").fields(); paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        JsonNode body = op.getValue().at("/requestBody/content/application~1json/schema");
        if (body.isMissingNode()) {
          continue;
        }
        String method = op.getKey().toUpperCase(java.util.Locale.ROOT);
        String route = path.getKey().replaceAll("\\{spaceID}", space).replaceAll("\\{stepID}",
            "00000000-0000-0000-0000-000000000000").replaceAll("\\{[A-Za-z]+}", ID);
        JsonNode schema = resolve(body);
        if (schema.has("oneOf")) {
          for (JsonNode variant : schema.get("oneOf")) {
            JsonNode kindBody = resolve(variant);
            ObjectNode base = RawHttp.JSON.createObjectNode()
                .put("kind", kindBody.at("/properties/kind/enum/0").asText());
            if (kindBody.at("/properties/spaceID").isObject()) {
              // a submit's and an import's; a revision's body has no space (its job's is kept)
              base.put("spaceID", space);
            }
            base.putObject("config");
            fields(method, route, base, "", kindBody, List.of("spaceID", "kind", "config"));
            fields(method, route, base, "config.", resolve(kindBody.at("/properties/config")), List.of());
          }
        } else {
          fields(method, route, RawHttp.JSON.createObjectNode(), "", schema, List.of());
        }
      }
    }
    assertThat(findings).as("over " + requests + " requests").isEmpty();
    assertThat(requests).isGreaterThan(300);
  }

  @Test
  void everyQueryParameterOutsideItsDeclaredTypeIsRefusedNamingIt() throws Exception {
    for (Iterator<Map.Entry<String, JsonNode>> paths = document.get("paths").fields(); paths.hasNext(); ) {
      Map.Entry<String, JsonNode> path = paths.next();
      for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
        Map.Entry<String, JsonNode> op = ops.next();
        String method = op.getKey().toUpperCase(java.util.Locale.ROOT);
        String route = path.getKey().replaceAll("\\{spaceID}", space).replaceAll("\\{[A-Za-z]+}", ID);
        // a parameter no route takes
        expectRefused(method, route + "?zzUnknown=1", null, "zzUnknown");
        for (JsonNode parameter : op.getValue().path("parameters")) {
          if (!parameter.get("in").asText().equals("query")) {
            continue;
          }
          String name = parameter.get("name").asText();
          for (String wrong : wrongQueryValues(parameter.get("schema"))) {
            expectRefused(method, route + "?" + name + "=" + wrong, null, name);
          }
        }
      }
    }
    assertThat(findings).as("over " + requests + " requests").isEmpty();
    assertThat(requests).isGreaterThan(80);
  }

  /** The answers an independent run found coerced or worded in Java, each refused now in the API's words. */
  @Test
  void theCoercionsAnIndependentRunFoundAreRefusedInTheApisWords() {
    Map<String, String[]> cases = new java.util.LinkedHashMap<>();
    cases.put("registry {\"name\":\"t/a\",\"scanOnPush\":\"yes\"}",
        new String[] {"config.scanOnPush", "expected boolean"});
    cases.put("registry {\"name\":\"t/b\",\"scanOnPush\":-505221}",
        new String[] {"config.scanOnPush", "expected boolean"});
    cases.put("datastore {\"name\":\"d\",\"engine\":\"postgres\",\"version\":\"16.3\",\"instanceClass\":"
        + "\"db.t3.medium\",\"allocatedStorageGB\":20,\"subnetIDs\":\"\"}",
        new String[] {"config.subnetIDs", "expected an array of strings"});
    cases.put("datastore {\"name\":\"d\",\"engine\":\"postgres\",\"version\":\"16.3\",\"instanceClass\":"
        + "\"db.t3.medium\",\"allocatedStorageGB\":9223372036854775808}",
        new String[] {"config.allocatedStorageGB", "expected an integer from -2147483648 to 2147483647"});
    cases.put("vm_pool {\"name\":\"p\",\"instanceType\":\"m5.large\",\"min\":1,\"max\":2,\"imageId\":0.0}",
        new String[] {"config.imageId", "expected a string"});
    cases.put("vm_pool {\"name\":\"p\",\"instanceType\":\"m5.large\",\"min\":1,\"max\":2,"
        + "\"createLoadBalancer\":-1442935}", new String[] {"config.createLoadBalancer", "expected boolean"});
    cases.put("kubernetes {\"name\":\"k\",\"version\":\"1.30\",\"clusterRole\":false}",
        new String[] {"config.clusterRole", "expected a string"});
    for (String route : List.of("/provisioning-jobs/plan", "/provisioning-jobs")) {
      cases.forEach((input, expected) -> {
        String kind = input.substring(0, input.indexOf(' '));
        String body = "{\"spaceID\":\"" + space + "\",\"kind\":\"" + kind + "\",\"config\":"
            + input.substring(input.indexOf(' ') + 1) + "}";
        RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), "POST", route, fixture.adminToken, body);
        assertThat(reply.status()).as(body).isEqualTo(400);
        assertThat(reply.json().at("/error/fields/0/field").asText()).as(body).isEqualTo(expected[0]);
        assertThat(reply.json().at("/error/fields/0/message").asText()).as(body).contains(expected[1]);
        assertThat(reply.body()).as(body).doesNotContainPattern(INTERNAL.pattern());
      });
    }
    RawHttp.Reply longId = RawHttp.json(fixture.baseUrl(), "GET", "/provisioning-jobs/" + "x".repeat(65),
        fixture.adminToken, null);
    assertThat(longId.status()).isEqualTo(400);
    assertThat(longId.json().at("/error/fields/0/message").asText()).isEqualTo("id: must be 1..64 characters");
    RawHttp.Reply longSpace = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs/plan", fixture.adminToken,
        "{\"spaceID\":\"" + "s".repeat(65) + "\",\"kind\":\"registry\",\"config\":{\"name\":\"t/c\"}}");
    assertThat(longSpace.json().at("/error/fields/0/message").asText()).isEqualTo(
        "spaceID: must be 1..64 characters");
  }

  private static List<String> wrongQueryValues(JsonNode schema) {
    List<String> wrong = new ArrayList<>();
    JsonNode values = schema.has("items") ? schema.get("items") : schema;
    if (values.has("enum")) {
      wrong.add("bogus");
    }
    if (values.path("type").asText().equals("integer")) {
      wrong.add("abc");
      wrong.add("1.5");
      wrong.add("99999999999999999999");
      if (values.has("minimum")) {
        wrong.add(Long.toString(values.get("minimum").asLong() - 1));
      }
      if (values.has("maximum")) {
        wrong.add(Long.toString(values.get("maximum").asLong() + 1));
      }
    }
    if (values.path("type").asText().equals("string") && !values.has("enum")) {
      wrong.add("s".repeat(501));
    }
    return wrong;
  }

  /** Each property of {@code schema} in turn, in {@code base}, with each wrong value for its type. */
  private static void fields(String method, String route, ObjectNode base, String prefix, JsonNode schema,
      List<String> keep) throws Exception {
    for (Iterator<Map.Entry<String, JsonNode>> properties = schema.path("properties").fields();
        properties.hasNext(); ) {
      Map.Entry<String, JsonNode> property = properties.next();
      if (keep.contains(property.getKey())) {
        continue;
      }
      for (JsonNode wrong : wrongValues(resolve(property.getValue()))) {
        ObjectNode body = base.deepCopy();
        ObjectNode target = prefix.isEmpty() ? body : (ObjectNode) body.get(prefix.substring(0, prefix.length() - 1));
        target.set(property.getKey(), wrong);
        expectRefused(method, route, body.toString(), prefix + property.getKey());
      }
    }
  }

  /** Values a field of this schema must refuse: another JSON type, a number beyond its type, an empty string. */
  private static List<JsonNode> wrongValues(JsonNode schema) throws Exception {
    String type = type(schema);
    List<String> wrong = new ArrayList<>();
    switch (type) {
      case "string" -> wrong.addAll(List.of("12345", "0.0", "true", "{}", "[]"));
      case "integer" -> wrong.addAll(List.of("\"7\"", "1.5", "true", "9223372036854775808", "{}", "\"\""));
      case "number" -> wrong.addAll(List.of("\"7\"", "true", "[]"));
      case "boolean" -> wrong.addAll(List.of("\"yes\"", "-505221", "0", "\"\"", "[]"));
      case "array" -> wrong.addAll(List.of("\"\"", "\"x\"", "{}", "5"));
      case "object" -> wrong.addAll(List.of("\"x\"", "[]", "5", "\"\""));
      default -> { // anyOf, untyped: anything goes
      }
    }
    List<JsonNode> nodes = new ArrayList<>();
    for (String value : wrong) {
      nodes.add(RawHttp.JSON.readTree(value));
    }
    return nodes;
  }

  private static String type(JsonNode schema) {
    JsonNode type = schema.get("type");
    if (type == null) {
      return schema.has("properties") || schema.has("additionalProperties") ? "object" : "";
    }
    if (type.isArray()) {
      for (JsonNode one : type) {
        if (!one.asText().equals("null")) {
          return one.asText();
        }
      }
    }
    return type.asText();
  }

  private static JsonNode resolve(JsonNode schema) {
    JsonNode at = schema;
    while (at.has("$ref")) {
      String name = at.get("$ref").asText().replace("#/components/schemas/", "");
      at = document.at("/components/schemas/" + name);
    }
    return at;
  }

  private static void expectRefused(String method, String route, String body, String field) throws Exception {
    Map<String, Long> before = rows();
    RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), method, route, fixture.adminToken, body);
    requests++;
    String what = method + " " + route + (body == null ? "" : " " + body);
    List<String> named = new ArrayList<>();
    reply.json().at("/error/fields").forEach(f -> named.add(f.get("field").asText()));
    if (reply.status() != 400 || !named.contains(field)) {
      findings.add(what + ": " + reply.status() + " naming " + named + " (" + reply.body() + ")");
    } else if (INTERNAL.matcher(reply.body()).find()) {
      findings.add(what + ": an internal name in " + reply.body());
    }
    Map<String, Long> after = rows();
    if (!after.equals(before)) {
      findings.add(what + ": rows changed " + before + " -> " + after);
    }
  }

  /** Rows per table but the audit log, which records refused mutating calls too. */
  private static Map<String, Long> rows() throws Exception {
    return StoreRows.count(fixture.engine.dataSource());
  }
}
