package dev.zop.provisioner.gcp;

import com.google.api.client.googleapis.services.AbstractGoogleClientRequest;
import com.google.api.client.json.GenericJson;
import com.google.api.client.json.gson.GsonFactory;
import com.google.api.client.util.ClassInfo;
import com.google.api.client.util.Data;
import com.google.api.client.util.FieldInfo;
import com.google.api.pathtemplate.PathTemplate;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * What {@link GcpFake} serves for the APIs that have no protos on Maven Central, only the discovery documents
 * their Java clients are generated from (Cloud SQL Admin, Cloud DNS): routes come from those clients' own request
 * objects (their HTTP method and URI template), bodies are parsed into their model classes and any key a model
 * does not define is refused, as Google refuses an unknown field. Each API's behaviour is a subclass.
 */
abstract class DiscoveryApiFake {
  static final GsonFactory JSON = GsonFactory.getDefaultInstance();

  /** A route: the HTTP method and URI template of one generated request class, and its IAM permission. */
  record Route(String verb, PathTemplate template, String permission, String method) {}

  /** An answer: status and JSON body. */
  record Reply(int status, String body) {
    static Reply ok(Object model) throws IOException {
      return new Reply(200, JSON.toString(model));
    }

    static Reply error(GcpFake.Fault fault) {
      return new Reply(fault.status(), GcpFake.errorBody(fault));
    }
  }

  final GcpFake fake;
  private final List<Route> routes = new ArrayList<>();

  DiscoveryApiFake(GcpFake fake) {
    this.fake = fake;
  }

  /** Adds the route of a request the generated client builds, as it would send it. */
  void route(AbstractGoogleClientRequest<?> request, String permission, String method) {
    routes.add(new Route(request.getRequestMethod(), PathTemplate.create(request.getUriTemplate()), permission,
        method));
  }

  abstract Reply answer(Route route, Map<String, String> vars, HttpExchange exchange) throws IOException;

  abstract void reset();

  void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      Reply reply;
      try {
        reply = routeOf(exchange);
      } catch (RuntimeException e) {
        // a fault in the fake itself is a 500 naming it, not a dropped connection the client would retry
        e.printStackTrace();
        reply = Reply.error(new GcpFake.Fault(500, "INTERNAL", "FAKE_FAILED", "the fake failed: " + e));
      }
      GcpFake.respond(exchange, reply.status(), reply.body());
    }
  }

  private Reply routeOf(HttpExchange exchange) throws IOException {
    if (!fake.authorized(exchange)) {
      return Reply.error(new GcpFake.Fault(401, "UNAUTHENTICATED", "authError",
          "Request had invalid authentication credentials."));
    }
    String path = URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8).substring(1);
    // the JDK's HTTP client cannot send PATCH: Google's client then POSTs with the method in this header, which
    // Google's front end honours
    String override = exchange.getRequestHeaders().getFirst("X-HTTP-Method-Override");
    String verb = override != null && exchange.getRequestMethod().equals("POST") ? override
        : exchange.getRequestMethod();
    for (Route route : routes) {
      Map<String, String> vars = route.verb().equals(verb) ? route.template().match(path) : null;
      if (vars == null) {
        continue;
      }
      GcpFake.Fault fault = fake.called(route.permission());
      return fault != null ? Reply.error(fault) : answer(route, vars, exchange);
    }
    return Reply.error(new GcpFake.Fault(404, "NOT_FOUND", "notFound",
        "The requested URL /" + path + " was not found on this server."));
  }

  /** The request body as the model class; a key the model does not define is a {@link BadRequest}. */
  static <T extends GenericJson> T parse(HttpExchange exchange, Class<T> model) {
    return parse(exchange, model, null);
  }

  /**
   * The request body as the model class. Google's gRPC-generated clients, over REST, send enums as their numbers
   * ({@code $alt=json;enum-encoding=int}), which a discovery model cannot read: such a body is read first as
   * {@code proto}, the API's published message, and given to the model with the enums' names.
   */
  static <T extends GenericJson> T parse(HttpExchange exchange, Class<T> model, com.google.protobuf.Message proto) {
    try {
      String body = GcpFake.body(exchange);
      String query = String.valueOf(exchange.getRequestURI().getRawQuery());
      if (proto != null && (query.contains("enum-encoding%3Dint") || query.contains("enum-encoding=int"))) {
        com.google.protobuf.Message.Builder message = proto.newBuilderForType();
        com.google.protobuf.util.JsonFormat.parser().merge(body, message);
        body = com.google.protobuf.util.JsonFormat.printer().print(message);
      }
      T parsed = JSON.fromString(body, model);
      refuseUnknownKeys(parsed, "");
      return parsed;
    } catch (IOException | IllegalArgumentException e) {
      throw new BadRequest("Invalid JSON payload received. " + e.getMessage());
    }
  }

  /** A body Google would refuse with 400. */
  static final class BadRequest extends RuntimeException {
    BadRequest(String message) {
      super(message);
    }

    Reply reply() {
      return Reply.error(new GcpFake.Fault(400, "INVALID_ARGUMENT", "invalid", getMessage()));
    }
  }

  private static void refuseUnknownKeys(Object value, String at) {
    if (value instanceof GenericJson json) {
      if (!json.getUnknownKeys().isEmpty()) {
        throw new IllegalArgumentException("Unknown name \"" + json.getUnknownKeys().keySet().iterator().next()
            + "\" at '" + (at.isEmpty() ? "body" : at) + "': Cannot find field.");
      }
      ClassInfo info = ClassInfo.of(json.getClass());
      for (String name : info.getNames()) {
        FieldInfo field = info.getFieldInfo(name);
        Object nested = field.getValue(json);
        if (nested != null && !Data.isNull(nested)) {
          refuseUnknownKeys(nested, at.isEmpty() ? name : at + "." + name);
        }
      }
    } else if (value instanceof Collection<?> list) {
      int i = 0;
      for (Object item : list) {
        refuseUnknownKeys(item, at + "[" + i++ + "]");
      }
    }
  }
}
