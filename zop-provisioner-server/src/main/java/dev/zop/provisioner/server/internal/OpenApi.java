package dev.zop.provisioner.server.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The OpenAPI 3 document of the service, generated from the same route table the server registers. */
public final class OpenApi {
  private static final Pattern PARAM = Pattern.compile("\\{([^}]+)}");

  private OpenApi() {}

  public static Map<String, Object> document(List<Endpoint> endpoints, String version) {
    Map<String, Object> paths = new LinkedHashMap<>();
    for (Endpoint endpoint : endpoints) {
      @SuppressWarnings("unchecked")
      Map<String, Object> item = (Map<String, Object>) paths.computeIfAbsent(endpoint.path(),
          p -> new LinkedHashMap<String, Object>());
      item.put(endpoint.method().toLowerCase(Locale.ROOT), operation(endpoint));
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.0.3");
    doc.put("info", Map.of("title", "Zop Provisioner", "version", version,
        "description", "Every response is {\"data\": ...}; every error is {\"error\": {code, message, category, "
            + "fixHint, consoleUrl, fields, requestId}}. x-policy names the policy a route needs."));
    doc.put("paths", paths);
    doc.put("components", Map.of(
        "securitySchemes", Map.of("bearer", Map.of("type", "http", "scheme", "bearer")),
        "schemas", Map.of("Error", Map.of("type", "object", "properties", Map.of("error", Map.of(
            "type", "object", "required", List.of("code", "message", "requestId"), "properties", Map.of(
                "code", Map.of("type", "string"),
                "message", Map.of("type", "string"),
                "category", Map.of("type", "string", "enum", List.of("user_action", "transient", "system")),
                "fixHint", Map.of("type", "string"),
                "consoleUrl", Map.of("type", "string"),
                "requestId", Map.of("type", "string"),
                "fields", Map.of("type", "array", "items", Map.of("type", "object", "properties", Map.of(
                    "field", Map.of("type", "string"), "code", Map.of("type", "string"),
                    "message", Map.of("type", "string")))))))))));
    return doc;
  }

  private static Map<String, Object> operation(Endpoint endpoint) {
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
    if (!params.isEmpty()) {
      op.put("parameters", params);
    }
    Map<String, Object> responses = new LinkedHashMap<>();
    Map<String, Object> error = Map.of("description", "error", "content",
        Map.of("application/json", Map.of("schema", Map.of("$ref", "#/components/schemas/Error"))));
    responses.put(Integer.toString(endpoint.successStatus()), Map.of("description",
        endpoint.successStatus() == 204 ? "done; no body" : "{\"data\": ...}"));
    if (!endpoint.isPublic()) {
      responses.put("400", error);
      responses.put("401", error);
      responses.put("403", error);
      responses.put("404", error);
      responses.put("409", error);
      responses.put("429", error);
    }
    if (endpoint.mutating()) {
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
