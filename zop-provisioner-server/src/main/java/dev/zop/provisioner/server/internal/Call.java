package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.server.AccessStore.Caller;
import io.javalin.http.Context;
import java.util.stream.Collectors;

/** One request as a route sees it: the caller, the engine acting as the caller, path, query and body. */
public final class Call {
  private final Context ctx;
  private final Endpoint endpoint;
  private final Caller caller;
  private final Provisioner zop;
  private final ObjectMapper json;
  private final JsonNode body;
  private String resourceId;

  /** {@code body} is the request's JSON, already read and checked by the dispatcher; null when none was sent. */
  Call(Context ctx, Endpoint endpoint, Caller caller, Provisioner zop, ObjectMapper json, JsonNode body) {
    this.ctx = ctx;
    this.endpoint = endpoint;
    this.caller = caller;
    this.zop = zop;
    this.json = json;
    this.body = body;
  }

  public Context ctx() {
    return ctx;
  }

  public Caller caller() {
    return caller;
  }

  /** The engine, acting as the caller: it sees only the caller's organisation. */
  public Provisioner zop() {
    return zop;
  }

  public ObjectMapper json() {
    return json;
  }

  public String path(String name) {
    return ctx.pathParam(name);
  }

  /** A query parameter the route declares in its contract (so the OpenAPI document names every one it reads). */
  public String query(String name) {
    declared(name);
    return ctx.queryParam(name);
  }

  /** Every value of a query parameter given more than once ({@code status=failed&status=running}). */
  public java.util.List<String> queryAll(String name) {
    declared(name);
    return ctx.queryParams(name);
  }

  private void declared(String name) {
    if (endpoint.contract() == null || !endpoint.contract().declares(name)) {
      throw new IllegalStateException(endpoint.auditAction() + " reads ?" + name + ", which its contract does not"
          + " declare (Routes.describe)");
    }
  }

  public String header(String name) {
    return ctx.header(name);
  }

  /** Names the object a mutating call touched, for the audit log. */
  public void touched(Object id) {
    this.resourceId = id == null ? null : id.toString();
  }

  String resourceId() {
    return resourceId;
  }

  /** Whether the request carried a JSON body. */
  public boolean hasBody() {
    return body != null;
  }

  /** The JSON body as {@code type}; malformed JSON, wrong types and unknown fields are 400s naming the field. */
  public <T> T body(Class<T> type) {
    if (body == null) {
      throw ApiError.badRequest("body", "required", "a JSON body is required");
    }
    if (body.isNull()) {
      throw ApiError.badRequest("body", "required", "a JSON object is required, not null");
    }
    return convert(body, type, "");
  }

  /** {@code node} (a part of the body under {@code prefix}) as {@code type}, with the same 400s as {@link #body}. */
  public <T> T convert(JsonNode node, Class<T> type, String prefix) {
    try {
      return json.treeToValue(node, type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw bad(e, prefix);
    }
  }

  RuntimeException bad(Exception e, String prefix) {
    if (e instanceof ValueInstantiationException creator && creator.getCause() instanceof ValidationException refused) {
      // the type's own checks refused what it was given, naming the fields: said as they said it
      return prefix.isEmpty() ? refused : new ValidationException(refused.fieldErrors().stream()
          .map(f -> f.under(prefix)).toList());
    }
    if (e instanceof UnrecognizedPropertyException unknown) {
      String field = field(unknown, prefix);
      return ApiError.badRequest(field, "unknown_field", "unknown field " + field);
    }
    Class<?> target = e instanceof InvalidFormatException format ? format.getTargetType()
        : e instanceof ValueInstantiationException creator ? creator.getType().getRawClass() : null;
    if (target != null && target.isEnum() && e instanceof JsonMappingException mapping) {
      // answered in the API's words: the values a client may send, never the Java type that refused it
      String field = field(mapping, prefix);
      return ApiError.badRequest(field, "invalid_value", field + " must be "
          + JsonTypes.describe(json, json.constructType(target)));
    }
    if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
      // a value of the wrong JSON type, out of its type's range, or refused as its type was built: said in the
      // API's words (boolean, integer, array of strings), never the Java type's
      String field = field(mapping, prefix);
      String expected = JsonTypes.expected(json, mapping);
      Throwable cause = mapping.getCause();
      if (cause instanceof IllegalArgumentException refused && refused.getMessage() != null) {
        return ValidationException.of(field, "invalid_value", field + ": " + firstLine(refused.getMessage()));
      }
      if (cause instanceof com.fasterxml.jackson.core.exc.InputCoercionException) {
        return ValidationException.of(field, "out_of_range", field + ": expected " + expected + ", and this number"
            + " is beyond its range");
      }
      return ValidationException.of(field, "wrong_type", field + ": expected " + expected);
    }
    if (e instanceof JsonProcessingException) {
      String where = prefix.isEmpty() ? "body" : prefix;
      return ApiError.badRequest(where, "malformed_json", "the body is not valid JSON of the expected shape");
    }
    String where = prefix.isEmpty() ? "body" : prefix;
    return ApiError.badRequest(where, "invalid_value", firstLine(e.getMessage()));
  }

  private static String field(JsonMappingException e, String prefix) {
    String path = e.getPath().stream()
        .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
        .collect(Collectors.joining());
    String joined = prefix + path;
    return joined.startsWith(".") ? joined.substring(1) : joined.isEmpty() ? "body" : joined;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "invalid value";
    }
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() > 300 ? line.substring(0, 300) : line;
  }
}
