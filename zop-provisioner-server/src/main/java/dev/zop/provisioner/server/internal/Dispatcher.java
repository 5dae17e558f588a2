package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.wire.Requests.ErrorBody;
import dev.zop.provisioner.server.AccessStore.Caller;
import dev.zop.provisioner.server.AccessStore;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.RateLimiterRegistry;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one endpoint for one request: authenticate, authorise, check the body's type and size, rate-limit, run,
 * wrap the result in {@code {"data": ...}}, turn any failure into the one error shape, and audit every mutating
 * call with its outcome. Nothing below this class writes a status or an error body.
 */
public final class Dispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);
  static final String REQUEST_ID = "X-Request-Id";
  private static final String ANSWERED = "zop.answered";
  private static final long DISCARD_LIMIT_FACTOR = 16;
  /** Jackson's default nesting limit, which the strict mapper keeps. */
  private static final int MAX_NESTING = 1000;

  private final Provisioner engine;
  private final AccessStore access;
  private final ObjectMapper json;
  private final long maxBodyBytes;
  private final RateLimiterRegistry limiters;
  private final io.opentelemetry.api.trace.Tracer tracer;
  private final Admission admission;
  private final AnswerWriter answers;

  /** Reads the caller's W3C {@code traceparent}/{@code tracestate}, so a request's span joins the caller's trace. */
  private static final io.opentelemetry.context.propagation.TextMapGetter<Context> HEADERS =
      new io.opentelemetry.context.propagation.TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Context ctx) {
          return ctx.headerMap().keySet();
        }

        @Override
        public String get(Context ctx, String key) {
          return ctx == null ? null : ctx.header(key);
        }
      };

  public Dispatcher(Provisioner engine, AccessStore access, ObjectMapper json, long maxBodyBytes,
      int requestsPerSecondPerToken, io.opentelemetry.api.OpenTelemetry openTelemetry, Admission admission) {
    this.admission = admission;
    this.answers = new AnswerWriter(json);
    this.tracer = openTelemetry.getTracer("dev.zop.provisioner.server");
    this.engine = engine;
    this.access = access;
    this.json = json;
    this.maxBodyBytes = maxBodyBytes;
    this.limiters = RateLimiterRegistry.of(RateLimiterConfig.custom()
        .limitForPeriod(requestsPerSecondPerToken)
        .limitRefreshPeriod(Duration.ofSeconds(1))
        .timeoutDuration(Duration.ZERO)
        .build());
  }

  /**
   * A random (version 4) UUID for a request. It must be unique, not unguessable: {@link UUID#randomUUID()} draws
   * from one SecureRandom whose lock every request thread shares, and under 50 concurrent callers threads queued
   * on that lock for seconds in all.
   */
  static String newRequestId() {
    java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
    long high = (random.nextLong() & ~0xF000L) | 0x4000L;
    long low = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
    return new UUID(high, low).toString();
  }

  /** Whether a route wrote this response (so a 404 is the route's "not found", not "no such route"). */
  public static boolean answered(Context ctx) {
    return ctx.attribute(ANSWERED) != null;
  }

  public void handle(Endpoint endpoint, Context ctx) {
    // health probes and requests held open on purpose never queue behind the others
    if (endpoint.isPublic() || endpoint.heldOpen()) {
      run(endpoint, ctx);
      return;
    }
    try (Admission.Ticket slot = admission.enter()) {
      run(endpoint, ctx);
    }
  }

  private void run(Endpoint endpoint, Context ctx) {
    ctx.attribute(ANSWERED, Boolean.TRUE);
    String requestId = newRequestId();
    ctx.header(REQUEST_ID, requestId);
    io.opentelemetry.context.Context parent = io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator
        .getInstance().extract(io.opentelemetry.context.Context.root(), ctx, HEADERS);
    io.opentelemetry.api.trace.Span span = tracer.spanBuilder(endpoint.method() + " " + endpoint.path())
        .setParent(parent).setSpanKind(io.opentelemetry.api.trace.SpanKind.SERVER)
        .setAttribute("http.request.method", endpoint.method()).setAttribute("http.route", endpoint.path())
        .setAttribute("zop.request.id", requestId).startSpan();
    // what the engine does for this request (a job's submission span) is a child of the request's span, and
    // what it logs names the request
    try (io.opentelemetry.context.Scope ignored = span.makeCurrent();
        org.slf4j.MDC.MDCCloseable request = org.slf4j.MDC.putCloseable("zop.request", requestId)) {
      int status = respond(endpoint, ctx, requestId);
      span.setAttribute("http.response.status_code", (long) status);
      if (status >= 500) {
        span.setStatus(io.opentelemetry.api.trace.StatusCode.ERROR);
      }
    } finally {
      span.end();
    }
  }

  private int respond(Endpoint endpoint, Context ctx, String requestId) {
    Caller caller = null;
    Call call = null;
    int status;
    try {
      if (!endpoint.isPublic()) {
        caller = authenticate(ctx);
        authorise(endpoint, caller);
        limit(caller);
      }
      checkBody(ctx, requestId);
      checkParameters(ctx);
      QueryParameters.check(endpoint, ctx);
      JsonNode body = readBody(endpoint, ctx, requestId);
      call = new Call(ctx, endpoint, caller, caller == null ? engine : engine.as(caller.principal()), json,
          body);
      Object data = endpoint.action().run(call);
      if (ctx.res().isCommitted()) {
        status = ctx.statusCode(); // a stream wrote its own response
      } else if (data == null && endpoint.successStatus() == 204) {
        status = 204;
        ctx.status(204);
      } else {
        status = writeData(ctx, endpoint.successStatus(), data);
      }
    } catch (Exception e) {
      status = writeError(ctx, e, requestId);
    }
    if (endpoint.mutating() && caller != null) {
      audit(endpoint, ctx, caller, call, status, requestId);
    }
    return status;
  }

  private Caller authenticate(Context ctx) {
    String header = ctx.header("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      throw new ApiError(401, "unauthenticated", "send a bearer token: Authorization: Bearer <token>");
    }
    Caller caller = access.authenticate(header.substring(7).trim());
    if (caller == null) {
      throw new ApiError(401, "unauthenticated", "the bearer token is unknown, revoked or expired");
    }
    return caller;
  }

  /** The engine makes the same check again in its views; here it refuses before a body is even read. */
  private static void authorise(Endpoint endpoint, Caller caller) {
    if (endpoint.policy() != null) {
      Policies.require(caller.principal(), endpoint.policy());
    }
  }

  private void limit(Caller caller) {
    RateLimiter limiter = limiters.rateLimiter(caller.principal().orgId() + "/" + caller.principal().actor());
    if (!limiter.acquirePermission()) {
      throw new ApiError(429, "rate_limited", "too many requests; slow down and retry after a second");
    }
  }

  private void checkBody(Context ctx, String requestId) {
    String method = ctx.method().name();
    if (!(method.equals("POST") || method.equals("PUT") || method.equals("PATCH"))) {
      return;
    }
    long declared = ctx.req().getContentLengthLong();
    if (declared > maxBodyBytes) {
      discard(ctx, declared);
      throw new ApiError(413, "body_too_large", "the body is " + declared + " bytes; the limit is " + maxBodyBytes);
    }
    if (declared != 0) {
      String type = ctx.contentType();
      // a POST with neither Content-Length nor a body is a bodyless POST, as one with Content-Length: 0 is
      boolean none = declared < 0 && type == null && bodyBytes(ctx, requestId).length == 0;
      if (!none && (type == null || !type.toLowerCase(java.util.Locale.ROOT).startsWith("application/json"))) {
        throw new ApiError(415, "unsupported_media_type", "send the body as application/json");
      }
      if (declared < 0 && bodyBytes(ctx, requestId).length > maxBodyBytes) { // chunked: only reading tells the size
        throw new ApiError(413, "body_too_large", "the body is larger than " + maxBodyBytes + " bytes");
      }
    }
  }

  /** Path and query values reach the store too: one it cannot hold (a NUL) is refused naming the parameter. */
  /**
   * Whether a failure is the store being away rather than a fault: a connection that could not be had or was lost
   * (SQL state class 08, a server shutting down 57P0x, a pool that found no live connection in time).
   */
  static boolean storeAway(Throwable e) {
    return dev.zop.provisioner.core.StoreOutages.isStoreAway(e);
  }

  private static void checkParameters(Context ctx) {
    List<FieldError> errors = new ArrayList<>();
    ctx.pathParamMap().forEach((name, value) -> nul(name, value, errors));
    ctx.queryParamMap().forEach((name, values) -> values.forEach(value -> nul(name, value, errors)));
    ValidationException.throwIfAny(errors);
  }

  /**
   * Reads the JSON body once, before any route code runs: a body that ended early is a client error; malformed
   * or too deeply nested JSON, a NUL anywhere in it, or any body but {@code {}} on a route that takes none is a
   * 400 naming the field. Returns null when no body was sent.
   */
  private JsonNode readBody(Endpoint endpoint, Context ctx, String requestId) {
    String method = ctx.method().name();
    if (!(method.equals("POST") || method.equals("PUT") || method.equals("PATCH"))) {
      return null;
    }
    byte[] bytes = bodyBytes(ctx, requestId);
    if (bytes.length == 0) {
      return null;
    }
    JsonNode body;
    try {
      body = json.readTree(bytes);
    } catch (IOException e) {
      throw ApiError.badRequest("body", "malformed_json", "the body is not valid JSON (UTF-8, at most "
          + "nested " + MAX_NESTING + " deep)");
    }
    if (body == null || body.isMissingNode()) {
      return null;
    }
    List<FieldError> errors = new ArrayList<>();
    findNul(body, "", errors);
    ValidationException.throwIfAny(errors);
    if (!endpoint.takesBody() && !(body.isObject() && body.isEmpty())) {
      throw ApiError.badRequest("body", "unexpected_body", endpoint.method() + " " + endpoint.path()
          + " takes no body; send none or {}");
    }
    return body;
  }

  private static byte[] bodyBytes(Context ctx, String requestId) {
    try {
      return ctx.bodyAsBytes();
    } catch (Exception e) { // Jetty's EofException arrives unchecked through Javalin's Kotlin
      if (!causedByIo(e)) {
        throw e instanceof RuntimeException unchecked ? unchecked : new IllegalStateException(e);
      }
      // the client stopped sending before its Content-Length: its fault, and nothing to trace
      LOG.warn("request {} {} {}: the body could not be read in full ({})", requestId, ctx.method(), ctx.path(),
          rootMessage(e));
      throw new ApiError(400, "incomplete_body", "the body ended before the length the request declared");
    }
  }

  private static void findNul(JsonNode node, String path, List<FieldError> errors) {
    if (node.isTextual()) {
      nul(path.isEmpty() ? "body" : path, node.textValue(), errors);
    } else if (node.isObject()) {
      node.fields().forEachRemaining(field -> {
        String child = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
        if (field.getKey().indexOf('\0') >= 0) {
          errors.add(FieldError.of(path.isEmpty() ? "body" : path, "invalid_character",
              "field names must not contain the NUL character (U+0000)"));
        } else {
          findNul(field.getValue(), child, errors);
        }
      });
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        findNul(node.get(i), path + "[" + i + "]", errors);
      }
    }
  }

  private static void nul(String field, String value, List<FieldError> errors) {
    if (value != null && value.indexOf('\0') >= 0) {
      errors.add(FieldError.of(field, "invalid_character", "must not contain the NUL character (U+0000)"));
    }
  }

  private static boolean causedByIo(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  private static String rootMessage(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
  }

  /**
   * Reads and drops a refused body that is not far over the limit, so the client, still sending, reads our 413
   * rather than a reset connection; a body far larger is not read, and the connection is closed after the answer.
   */
  private void discard(Context ctx, long declared) {
    ctx.header("Connection", "close");
    if (declared > DISCARD_LIMIT_FACTOR * maxBodyBytes) {
      return;
    }
    try (java.io.InputStream body = ctx.req().getInputStream()) {
      body.transferTo(java.io.OutputStream.nullOutputStream());
    } catch (IOException e) {
      LOG.debug("could not drain a refused body", e);
    }
  }

  /** Writes the answer, or {@code 304} when a GET names its validator already; returns the status written. */
  private int writeData(Context ctx, int status, Object data) throws IOException {
    AnswerWriter.Answer answer = answers.answer(data);
    if (answer.etag() != null) {
      ctx.header("ETag", answer.etag());
      if (status == 200 && ctx.method() == io.javalin.http.HandlerType.GET
          && AnswerWriter.matches(ctx.header("If-None-Match"), answer.etag())) {
        ctx.status(304);
        return 304;
      }
    }
    ctx.status(status).contentType("application/json").result(answer.body());
    return status;
  }

  private int writeError(Context ctx, Exception e, String requestId) {
    ErrorBody body;
    int status;
    if (e instanceof ApiError api) {
      status = api.status();
      body = new ErrorBody(api.code(), api.getMessage(), "user_action", null, null,
          api.fields().isEmpty() ? null : api.fields(), requestId);
      if (status == 429) {
        ctx.header("Retry-After", "1");
      } else if (status == 503 && ctx.res().getHeader("Retry-After") == null) {
        ctx.header("Retry-After", "5");
      }
      if (status == 401) {
        // RFC 6750 section 3: the scheme, and whether the token sent was the trouble
        ctx.header("WWW-Authenticate", ctx.header("Authorization") == null ? "Bearer realm=\"zop\""
            : "Bearer realm=\"zop\", error=\"invalid_token\"");
      }
    } else if (e instanceof ValidationException v) {
      status = 400;
      body = new ErrorBody(v.code(), v.getMessage(), "user_action", null, null, v.fieldErrors(), requestId,
          v.observedConfig() == null ? null : json.createObjectNode()
              .put("kind", v.observedConfig().kind().wireName())
              .set("config", json.valueToTree(v.observedConfig())));
    } else if (e instanceof dev.zop.provisioner.GuardrailDeniedException g) {
      // the request is well formed; what it asks for is not allowed
      status = 422;
      body = new ErrorBody(g.code(), g.getMessage(), "user_action", null, null, g.fieldErrors(), requestId, null,
          g.verdicts());
    } else if (e instanceof NotFoundException n) {
      status = 404;
      body = new ErrorBody(n.code(), n.getMessage(), "user_action", null, null, null, requestId);
    } else if (e instanceof ConflictException c) {
      status = 409;
      body = new ErrorBody(c.code(), c.getMessage(), "user_action", null, null, null, requestId);
    } else if (e instanceof ForbiddenException f) {
      status = 403;
      body = new ErrorBody(f.code(), f.getMessage(), "user_action", null, null, null, requestId);
    } else if (e instanceof ProviderException p) {
      Failure failure = p.failure();
      status = failure.category() == FailureCategory.USER_ACTION ? 422
          : failure.category() == FailureCategory.TRANSIENT ? 503 : 502;
      if (status == 503) {
        ctx.header("Retry-After", "1");
      }
      body = new ErrorBody(failure.code(), failure.message(), failure.category().wireName(), failure.fixHint(),
          failure.consoleUrl(), null, failure.providerRequestId() != null ? failure.providerRequestId() : requestId);
    } else if (e instanceof AwaitTimeoutException t) {
      status = 408;
      body = new ErrorBody(t.code(), t.getMessage(), "transient", null, null, null, requestId);
    } else if (e instanceof HttpResponseException h) {
      status = h.getStatus() == 413 ? 413 : h.getStatus() >= 500 ? 500 : 400;
      body = new ErrorBody(status == 413 ? "body_too_large" : "bad_request", h.getMessage(), "user_action", null,
          null, null, requestId);
    } else if (e instanceof IllegalArgumentException i) {
      // ids, enum names and other values the API types refuse as they are built from the request
      status = 400;
      body = new ErrorBody("invalid_argument", i.getMessage(), "user_action", null, null, null, requestId);
    } else if (storeAway(e)) {
      // the database is away (restarting, unreachable): the request wrote nothing it can keep; retry shortly
      status = 503;
      ctx.header("Retry-After", "5");
      LOG.warn("request {} {} {}: the store does not answer ({})", requestId, ctx.method(), ctx.path(),
          rootMessage(e));
      body = new ErrorBody("store_unavailable", "the service's database does not answer; retry in a few seconds",
          "transient", null, null, null, requestId);
    } else {
      status = 500;
      LOG.error("request {} {} {} failed", requestId, ctx.method(), ctx.path(), e);
      body = new ErrorBody("internal_error", "the service failed; quote request " + requestId + " to support",
          "system", null, null, null, requestId);
    }
    if (!ctx.res().isCommitted()) {
      try {
        ctx.status(status).contentType("application/json").result(json.writeValueAsBytes(Map.of("error", body)));
      } catch (IOException io) {
        ctx.status(status).result("{\"error\":{\"code\":\"internal_error\"}}");
      }
    }
    return status;
  }

  /** Writes the error shape for a request no endpoint matched (404, 405) or that Javalin refused itself. */
  public void writeRouteError(Context ctx, int status, String code, String message) {
    String requestId = newRequestId();
    ctx.header(REQUEST_ID, requestId);
    writeError(ctx, new ApiError(status, code, message), requestId);
  }

  private void audit(Endpoint endpoint, Context ctx, Caller caller, Call call, int status, String requestId) {
    String resource = call == null ? null : call.resourceId();
    if (resource == null) {
      Map<String, String> params = ctx.pathParamMap();
      resource = params.isEmpty() ? null : List.copyOf(params.values()).get(params.size() - 1);
    }
    try {
      access.audit(caller.principal().orgId(), caller.principal().actor(), endpoint.auditAction(), ctx.method().name(),
          ctx.path(), resource, status, requestId);
    } catch (RuntimeException e) {
      if (storeAway(e)) {
        LOG.warn("audit entry for request {} not written: the store does not answer", requestId);
      } else {
        LOG.error("audit entry for request {} could not be written", requestId, e);
      }
    }
  }
}
