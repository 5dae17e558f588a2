package dev.zop.provisioner.server.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The OpenAPI 3.1 document of the service, generated from the same route table the server registers: every
 * route's request body and the {@code data} of its answer as JSON Schemas made from the records the service reads
 * and writes ({@link WireSchemas}).
 */
public final class OpenApi {
  private static final Pattern PARAM = Pattern.compile("\\{([^}]+)}");

  private OpenApi() {}

  public static Map<String, Object> document(List<Endpoint> endpoints, String version) {
    WireSchemas schemas = new WireSchemas();
    Map<String, Object> paths = new java.util.TreeMap<>();
    for (Endpoint endpoint : endpoints) {
      @SuppressWarnings("unchecked")
      Map<String, Object> item = (Map<String, Object>) paths.computeIfAbsent(endpoint.path(),
          p -> new java.util.TreeMap<String, Object>());
      item.put(endpoint.method().toLowerCase(Locale.ROOT), operation(endpoint, schemas));
    }
    Map<String, Object> components = new java.util.TreeMap<>();
    components.put("Error", ERROR);
    schemas.definitions().properties().forEach(field -> components.put(field.getKey(), field.getValue()));
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.1.0");
    doc.put("info", Map.of("title", "Zop Provisioner", "version", version,
        "description", "Every response is {\"data\": ...}; every error is {\"error\": {code, message, category, "
            + "fixHint, consoleUrl, fields, requestId}}. x-policy names the policy a route needs."));
    doc.put("paths", paths);
    doc.put("components", Map.of(
        "securitySchemes", Map.of("bearer", Map.of("type", "http", "scheme", "bearer")),
        "schemas", components));
    return doc;
  }

  private static final Map<String, Object> ERROR = Map.of("type", "object", "properties", Map.of("error", Map.of(
            "type", "object", "required", List.of("code", "message", "requestId"), "properties", Map.of(
                "code", Map.of("type", "string"),
                "message", Map.of("type", "string"),
                "category", Map.of("type", "string", "enum", List.of("user_action", "transient", "system")),
                "fixHint", Map.of("type", "string"),
                "consoleUrl", Map.of("type", "string"),
                "requestId", Map.of("type", "string"),
                "fields", Map.of("type", "array", "items", Map.of("type", "object", "properties", Map.of(
                    "field", Map.of("type", "string"), "code", Map.of("type", "string"),
                    "message", Map.of("type", "string"))))))));

  private static Map<String, Object> operation(Endpoint endpoint, WireSchemas schemas) {
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("summary", endpoint.summary());
    op.put("operationId", operationId(endpoint));
    if (!endpoint.isPublic()) {
      op.put("security", List.of(Map.of("bearer", List.of())));
    }
    if (endpoint.policy() != null) {
      op.put("x-policy", endpoint.policy());
    }
    List<Map<String, Object>> params = new ArrayList<>();
    Matcher m = PARAM.matcher(endpoint.path());
    while (m.find()) {
      params.add(Map.of("name", m.group(1), "in", "path", "required", true, "schema", Map.of("type", "string")));
    }
    if (endpoint.method().equals("POST")) {
      params.add(Map.of("name", "Idempotency-Key", "in", "header", "required", false,
          "schema", Map.of("type", "string")));
    }
    // finished jobs, and pages of them, carry a validator (see AnswerWriter)
    boolean validated = endpoint.method().equals("GET") && endpoint.response() != null
        && (endpoint.response().type() == dev.zop.provisioner.Job.class
            || endpoint.response().type() == dev.zop.provisioner.Page.class
            && dev.zop.provisioner.Job.class.equals(endpoint.response().arguments()[0]));
    if (validated) {
      params.add(Map.of("name", "If-None-Match", "in", "header", "required", false, "description",
          "the ETag of an earlier answer: 304 with no body if the answer is still byte for byte the same",
          "schema", Map.of("type", "string")));
    }
    if (!params.isEmpty()) {
      op.put("parameters", params);
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    Map<String, Object> error = Map.of("description", "error", "content",
        Map.of("application/json", Map.of("schema", Map.of("$ref", "#/components/schemas/Error"))));
    if (endpoint.request() != null) {
      op.put("requestBody", Map.of("required", true, "content", Map.of("application/json",
          Map.of("schema", schemas.reference(endpoint.request())))));
    }
    if (endpoint.response() == null) {
      responses.put(Integer.toString(endpoint.successStatus()), Map.of("description", "done; no body"));
    } else if (endpoint.path().endsWith("/stream")) {
      responses.put(Integer.toString(endpoint.successStatus()), Map.of("description",
          "Server-Sent Events; each event's data is this", "content", Map.of("text/event-stream",
              Map.of("schema", schemas.reference(endpoint.response())))));
    } else if (endpoint.response().type() == dev.zop.provisioner.Page.class) {
      // a page is written as its items under data, and the cursor of the next page beside them
      responses.put(Integer.toString(endpoint.successStatus()), Map.of("description",
          "{\"data\": [...], \"nextCursor\": ...}; pass nextCursor as ?cursor= for the next page",
          "content", Map.of("application/json", Map.of("schema", Map.of("type", "object",
              "required", List.of("data"), "properties", Map.of(
                  "data", Map.of("type", "array", "items", schemas.reference(
                      Endpoint.Shape.of(endpoint.response().arguments()[0]))),
                  "nextCursor", Map.of("type", List.of("string", "null"))))))));
    } else {
      responses.put(Integer.toString(endpoint.successStatus()), Map.of("description", "{\"data\": ...}",
          "content", Map.of("application/json", Map.of("schema", Map.of("type", "object",
              "required", List.of("data"), "properties", Map.of("data", schemas.reference(endpoint.response())))))));
    }
    if (validated) {
      responses.put("304", Map.of("description", "not modified: If-None-Match named this answer's ETag, which an"
          + " answer of finished jobs only carries"));
    }
    if (!endpoint.isPublic()) {
      responses.put("400", error);
      responses.put("401", error);
      responses.put("403", error);
      responses.put("404", error);
      responses.put("409", error);
      responses.put("429", error);
    }
    if (!endpoint.method().equals("GET")) { // a body is read: it may be too large or not JSON
      responses.put("413", error);
      responses.put("415", error);
    }
    op.put("responses", responses);
    return op;
  }

  private static String operationId(Endpoint endpoint) {
    String cleaned = endpoint.path().replaceAll("[{}]", "").replaceAll("[^A-Za-z0-9]+", "_");
    return endpoint.method().toLowerCase(Locale.ROOT) + cleaned;
  }
}
