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

  /** The resource tags, in the order the document lists them, with what each holds. */
  private static final Map<String, String> TAGS = tags();

  private static Map<String, String> tags() {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put("jobs", "Provisioning jobs: plan, submit, list, await, watch, retry, tear down");
    tags.put("spaces", "Deployment spaces, their discovery (networks, subnets, DNS zones, clusters) and namespaces");
    tags.put("accounts", "Cloud accounts (credentials by reference) and cluster access");
    tags.put("databases", "Databases on a datastore job's server");
    tags.put("connections", "Connection records of a job or a database (secret references, never secrets)");
    tags.put("catalog", "Catalog components and their installation");
    tags.put("remediations", "Remediation workflows, their approvals and audit trail");
    tags.put("guardrails", "Limits on what may be made, checked on every plan, and the approvals of the jobs they hold");
    tags.put("access", "The caller, the organisation's API tokens (admins only) and its audit log");
    tags.put("simulation", "The simulated cloud's faults, served by zop serve --demo only");
    tags.put("health", "Liveness and readiness, served without a token");
    return tags;
  }

  public static Map<String, Object> document(List<Endpoint> endpoints, String version) {
    WireSchemas schemas = new WireSchemas();
    Map<String, Object> envelopes = new java.util.TreeMap<>();
    Map<String, Object> paths = new java.util.TreeMap<>();
    for (Endpoint endpoint : endpoints) {
      @SuppressWarnings("unchecked")
      Map<String, Object> item = (Map<String, Object>) paths.computeIfAbsent(endpoint.path(),
          p -> new java.util.TreeMap<String, Object>());
      item.put(endpoint.method().toLowerCase(Locale.ROOT), operation(endpoint, schemas, envelopes));
    }
    Map<String, Object> components = new java.util.TreeMap<>();
    components.put("Error", ERROR);
    schemas.definitions().properties().forEach(field -> components.put(field.getKey(), field.getValue()));
    envelopes.forEach((name, schema) -> {
      if (components.put(name, schema) != null) {
        throw new IllegalStateException("two schemas named " + name);
      }
    });
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("openapi", "3.1.0");
    doc.put("info", Map.of("title", "Zop Provisioner", "version", version,
        "description", "Every response is {\"data\": ...}; every error is {\"error\": {code, message, category, "
            + "fixHint, consoleUrl, fields, requestId, observed, verdicts}}. x-policy names the policy a route needs."
            + " Lists are newest first unless ?order=oldest; a page's nextCursor, passed as ?cursor=, reads the"
            + " page after it.",
        "license", Map.of("name", "Apache-2.0", "identifier", "Apache-2.0"),
        "contact", Map.of("name", "Zop Provisioner", "url", "https://zop.dev")));
    doc.put("servers", List.of(Map.of("url", "http://127.0.0.1:5087",
        "description", "zop serve on this machine, at its default port")));
    doc.put("security", List.of(Map.of("bearer", List.of())));
    // only the tags some route carries: a service without a simulated cloud lists no simulation
    java.util.Set<String> used = endpoints.stream().filter(e -> e.contract() != null).map(e -> e.contract().tag())
        .collect(java.util.stream.Collectors.toSet());
    doc.put("tags", TAGS.entrySet().stream().filter(t -> used.contains(t.getKey()))
        .map(t -> Map.of("name", t.getKey(), "description", t.getValue())).toList());
    doc.put("paths", paths);
    doc.put("components", Map.of(
        "securitySchemes", Map.of("bearer", Map.of("type", "http", "scheme", "bearer",
            "description", "a token from zop tokens create")),
        "schemas", components));
    return doc;
  }

  private static final Map<String, Object> ERROR = Map.of("type", "object", "required", List.of("error"),
      "properties", Map.of("error", Map.of(
            "type", "object", "required", List.of("code", "message", "requestId"), "properties", Map.of(
                "code", Map.of("type", "string"),
                "message", Map.of("type", "string"),
                "category", Map.of("type", "string", "enum", List.of("user_action", "transient", "system")),
                "fixHint", Map.of("type", "string"),
                "consoleUrl", Map.of("type", "string"),
                "requestId", Map.of("type", "string"),
                "fields", Map.of("type", "array", "items", Map.of("type", "object", "properties", Map.of(
                    "field", Map.of("type", "string"), "code", Map.of("type", "string"),
                    "message", Map.of("type", "string")))),
                "observed", Map.of("type", "object", "required", List.of("kind", "config"),
                    "description", "where a refusal compared the config with what the cloud has (an import), that,"
                        + " as a request's kind and config",
                    "properties", Map.of("kind", Map.of("type", "string"), "config", Map.of("type", "object"))),
                "verdicts", Map.of("type", "array", "description", "where guardrails refused the change"
                        + " (guardrail_denied, 422), every guardrail's verdict on it",
                    "items", Map.of("$ref", "#/components/schemas/GuardrailVerdict"))))));

  private static Map<String, Object> operation(Endpoint endpoint, WireSchemas schemas,
      Map<String, Object> envelopes) {
    Endpoint.Contract contract = endpoint.contract();
    if (!TAGS.containsKey(contract.tag())) {
      throw new IllegalStateException("tag " + contract.tag() + " of " + endpoint.auditAction() + " is not listed");
    }
    Map<String, Object> op = new LinkedHashMap<>();
    op.put("tags", List.of(contract.tag()));
    op.put("summary", endpoint.summary());
    op.put("description", description(endpoint));
    op.put("operationId", contract.operationId());
    // health is public: an empty requirement overrides the document's bearer token
    op.put("security", endpoint.isPublic() ? List.of() : List.of(Map.of("bearer", List.of())));
    if (endpoint.policy() != null) {
      op.put("x-policy", endpoint.policy());
    }
    List<Map<String, Object>> params = new ArrayList<>();
    Matcher m = PARAM.matcher(endpoint.path());
    while (m.find()) {
      params.add(Map.of("name", m.group(1), "in", "path", "required", true, "schema", Map.of("type", "string")));
    }
    for (Endpoint.QueryParameter query : contract.query()) {
      Map<String, Object> param = new LinkedHashMap<>();
      param.put("name", query.name());
      param.put("in", "query");
      param.put("required", false);
      param.put("description", query.description());
      param.put("schema", query.schema());
      if ("array".equals(query.schema().get("type"))) {
        param.put("style", "form");
        param.put("explode", false);
      }
      params.add(param);
    }
    if (endpoint.method().equals("POST")) {
      params.add(Map.of("name", "Idempotency-Key", "in", "header", "required", false,
          "description", "the same key again answers with what the first request made", "schema",
          Map.of("type", "string")));
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
    if (endpoint.path().endsWith("/stream")) {
      params.add(Map.of("name", "Last-Event-ID", "in", "header", "required", false, "description",
          "the id of the last event received, to resume a stream after it (wins over ?after=)",
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
    String status = Integer.toString(endpoint.successStatus());
    if (endpoint.response() == null) {
      responses.put(status, Map.of("description", "done; no body"));
    } else if (endpoint.path().endsWith("/stream")) {
      responses.put(status, Map.of("description",
          "Server-Sent Events; each event's data is this", "content", Map.of("text/event-stream",
              Map.of("schema", schemas.reference(endpoint.response())))));
    } else {
      responses.put(status, Map.of("description", "{\"data\": ...}", "content", Map.of("application/json",
          Map.of("schema", envelope(endpoint.response(), schemas, envelopes)))));
    }
    if (validated) {
      responses.put("304", Map.of("description", "not modified: If-None-Match named this answer's ETag, which an"
          + " answer of finished jobs only carries"));
    }
    responses.put("400", error); // a malformed parameter (a NUL in it) on any route
    if (!endpoint.isPublic()) {
      responses.put("401", error);
      responses.put("403", error);
      responses.put("404", error);
      responses.put("409", error);
      responses.put("429", error);
    }
    if (!endpoint.isPublic() && !endpoint.method().equals("GET")) {
      // a change guardrails refuse (guardrail_denied), or one the cloud refuses as the caller's to fix
      responses.put("422", error);
    }
    if (!endpoint.method().equals("GET")) { // a body is read: it may be too large or not JSON
      responses.put("413", error);
      responses.put("415", error);
    }
    if (endpoint.isPublic() && endpoint.path().equals("/readyz")) {
      responses.put("503", error);
    }
    op.put("responses", responses);
    return op;
  }

  /**
   * The named schema of an answer's envelope: {@code JobResponse} is {@code {"data": Job}}, {@code JobPage} a page
   * of jobs with the next page's cursor, {@code JobEventList} a whole list; each is made once and referred to.
   */
  private static Map<String, Object> envelope(Endpoint.Shape data, WireSchemas schemas,
      Map<String, Object> envelopes) {
    String name;
    Map<String, Object> schema;
    if (data.type() == dev.zop.provisioner.Page.class) {
      Endpoint.Shape item = Endpoint.Shape.of(data.arguments()[0]);
      name = WireSchemas.name(item) + "Page";
      schema = Map.of("type", "object", "required", List.of("data", "nextCursor"), "description",
          "a page, newest first unless ?order=oldest; pass nextCursor as ?cursor= for the next page (null: none)",
          "properties", Map.of(
              "data", Map.of("type", "array", "items", schemas.reference(item)),
              "nextCursor", Map.of("type", List.of("string", "null"))));
    } else if (data.type() == List.class) {
      Endpoint.Shape item = Endpoint.Shape.of(data.arguments()[0]);
      name = WireSchemas.name(item) + "List";
      schema = Map.of("type", "object", "required", List.of("data"), "properties", Map.of(
          "data", Map.of("type", "array", "items", schemas.reference(item))));
    } else {
      name = WireSchemas.name(data) + "Response";
      schema = Map.of("type", "object", "required", List.of("data"), "properties", Map.of(
          "data", Map.class.isAssignableFrom(data.type())
              ? Map.of("type", "object", "additionalProperties", Map.of("type", "string"))
              : schemas.reference(data)));
    }
    Object before = envelopes.putIfAbsent(name, schema);
    if (before != null && !before.equals(schema)) {
      throw new IllegalStateException("two envelopes named " + name);
    }
    return Map.of("$ref", "#/components/schemas/" + name);
  }

  /** What an operation does, who may call it and how its answer is shaped. */
  private static String description(Endpoint endpoint) {
    StringBuilder text = new StringBuilder(endpoint.summary()).append('.');
    if (endpoint.isPublic()) {
      text.append(" Served without a token.");
    } else if (endpoint.policy() != null) {
      text.append(" Needs the ").append(endpoint.policy()).append(" policy.");
    } else {
      text.append(" Any valid token may call it.");
    }
    if (endpoint.response() != null && endpoint.response().type() == dev.zop.provisioner.Page.class) {
      text.append(" Answers a page, newest first unless order=oldest; nextCursor, passed as cursor, reads the next.");
    }
    if (endpoint.heldOpen()) {
      text.append(" The request is held open on purpose.");
    }
    return text.toString();
  }
}
