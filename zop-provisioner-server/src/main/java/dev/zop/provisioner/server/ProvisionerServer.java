package dev.zop.provisioner.server;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.wire.WireJson;
import dev.zop.provisioner.server.internal.Admission;
import dev.zop.provisioner.server.internal.ConsoleAssets;
import dev.zop.provisioner.server.internal.Dispatcher;
import dev.zop.provisioner.server.internal.Endpoint;
import dev.zop.provisioner.server.internal.JobEventStreams;
import dev.zop.provisioner.server.internal.JsonErrorHandler;
import dev.zop.provisioner.server.internal.OpenApi;
import dev.zop.provisioner.server.internal.Routes;
import io.javalin.Javalin;
import io.javalin.http.HandlerType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.server.handler.GracefulHandler;

/**
 * The REST service over an engine: every endpoint of the product documents, with the {@code {"data": ...}}
 * envelope, bearer tokens, the product's policies, an audit log, Server-Sent Events and an OpenAPI document at
 * {@code /openapi.json}. Embed it, or run it with {@code zop serve}.
 *
 * <pre>{@code
 * EmbeddedProvisioner engine = EmbeddedProvisioner.builder().build();
 * ProvisionerServer server = ProvisionerServer.builder(engine, AccessStore.open(engine.dataSource())).start();
 * }</pre>
 */
public final class ProvisionerServer implements AutoCloseable {
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
  private static final String OPEN_METRICS = "application/openmetrics-text; version=1.0.0; charset=utf-8";

  /** An API call's time: most answer in milliseconds; a plan that reads the cloud, or an await, in seconds. */
  private static final java.time.Duration[] HTTP_BUCKETS = java.util.stream.LongStream.of(5, 10, 25, 50, 100, 250,
      500, 1_000, 2_500, 5_000, 10_000, 30_000).mapToObj(java.time.Duration::ofMillis)
      .toArray(java.time.Duration[]::new);

  public static final int DEFAULT_PORT = 5087;
  static final String VERSION = "0.1.0";

  private final Javalin app;
  private final JobEventStreams streams;
  private final List<Endpoint> endpoints;
  private final Duration shutdownGrace;
  private final GracefulHandler graceful = new GracefulHandler();
  private final Admission admission;

  private ProvisionerServer(Builder builder) {
    ObjectMapper strict = WireJson.requests();
    this.streams = new JobEventStreams(builder.keepAlive, builder.maxEventStreams,
        builder.maxEventStreamsPerCaller, builder.maxUnsentBytes, builder.maxUnsentTotalBytes);
    this.endpoints = new ArrayList<>(new Routes(builder.access, streams, builder.simulation).all());
    byte[] openApi;
    try {
      openApi = strict.writeValueAsBytes(OpenApi.document(endpoints, VERSION));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the OpenAPI document", e);
    }
    // strict: a request field we do not know is refused rather than silently dropped
    this.admission = new Admission(builder.maxConcurrentRequests, builder.admissionWait);
    Dispatcher dispatcher = new Dispatcher(builder.engine, builder.access, strict, builder.maxBodyBytes,
        builder.requestsPerSecond, builder.openTelemetry != null ? builder.openTelemetry
            : io.opentelemetry.api.GlobalOpenTelemetry.get(), admission);
    this.shutdownGrace = builder.shutdownGrace;
    this.app = Javalin.create(config -> {
      config.startup.showJavalinBanner = false;
      config.http.maxRequestSize = builder.maxBodyBytes;
      // gzip's fastest level: a page of jobs shrinks almost as far as at Javalin's default level 6, in a fraction of
      // the time, which was the largest single cost of serving that page (ServiceBenchmark)
      config.http.compressionStrategy = new io.javalin.compression.CompressionStrategy(null,
          new io.javalin.compression.Gzip(1));
      config.router.ignoreTrailingSlashes = true;
      config.jetty.host = builder.host;
      config.jetty.modifyServer(server -> {
        server.setStopTimeout(builder.shutdownGrace.toMillis());
        // requests in flight when stop() is called finish; new ones are refused
        graceful.setHandler(server.getHandler());
        server.setHandler(graceful);
        server.setErrorHandler(new JsonErrorHandler());
      });
      for (Endpoint endpoint : endpoints) {
        config.routes.addHttpHandler(HandlerType.findOrCreate(endpoint.method()), endpoint.path(), ctx -> {
          long started = System.nanoTime();
          try {
            dispatcher.handle(endpoint, ctx);
          } finally {
            if (builder.metrics != null) {
              // the route's template, not the path: ids would make a series per job
              io.micrometer.core.instrument.Timer.builder("http.server.requests")
                  .tag("method", endpoint.method()).tag("uri", endpoint.path())
                  .tag("status", Integer.toString(ctx.statusCode()))
                  // buckets, which add up across instances as a summary's quantiles do not
                  .serviceLevelObjectives(HTTP_BUCKETS).register(builder.metrics)
                  .record(System.nanoTime() - started, java.util.concurrent.TimeUnit.NANOSECONDS);
            }
          }
        });
      }
      // the document itself, not wrapped in {"data": ...}
      config.routes.get("/openapi.json", ctx -> ctx.contentType("application/json").result(openApi));
      // the web console: static files that call the routes above with the user's own token
      ConsoleAssets console = new ConsoleAssets();
      config.routes.get("/ui", console::index);
      config.routes.get("/ui/{file}", console::file);
      if (builder.metrics != null) {
        io.micrometer.prometheusmetrics.PrometheusMeterRegistry registry = builder.metrics;
        // any valid token may read the meters (Prometheus sends one with bearer_token); they hold no secrets
        config.routes.get("/metrics", ctx -> {
          String header = ctx.header("Authorization");
          if (header == null || !header.startsWith("Bearer ") || builder.access.authenticate(
              header.substring(7).trim()) == null) {
            ctx.header("WWW-Authenticate", "Bearer realm=\"zop\"");
            dispatcher.writeRouteError(ctx, 401, "unauthenticated", "send a bearer token: Authorization: Bearer"
                + " <token>");
            return;
          }
          // OpenMetrics to a scraper that asks for it (Prometheus does, for exemplars and created times)
          String accept = ctx.header("Accept");
          String type = accept != null && accept.contains("application/openmetrics-text") ? OPEN_METRICS
              : PROMETHEUS_TEXT;
          ctx.contentType(type).result(registry.scrape(type));
        });
      }
      // a path served with other methods is a 405 that lists them (RFC 9110, 15.5.6), whichever Javalin answered
      io.javalin.http.Handler unrouted = ctx -> {
        if (Dispatcher.answered(ctx)) {
          return;
        }
        String allow = allowed(endpoints, ctx.path());
        if (allow.isEmpty()) {
          dispatcher.writeRouteError(ctx, 404, "no_such_route", "no route " + ctx.method() + " " + ctx.path());
        } else {
          ctx.header("Allow", allow);
          dispatcher.writeRouteError(ctx, 405, "method_not_allowed", ctx.method() + " is not served at " + ctx.path());
        }
      };
      config.routes.error(404, "*", unrouted);
      config.routes.error(405, "*", unrouted);
      config.routes.exception(Exception.class, (e, ctx) ->
          dispatcher.writeRouteError(ctx, 400, "bad_request", "the request could not be read"));
    });
    app.start(builder.host, builder.port);
  }

  /** The methods the endpoints serve at {@code path}, as an Allow header lists them. */
  static String allowed(List<Endpoint> endpoints, String path) {
    String trimmed = path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    return endpoints.stream()
        .filter(e -> trimmed.matches(java.util.Arrays.stream(e.path().split("/", -1))
            .map(part -> part.startsWith("{") ? "[^/]+" : java.util.regex.Pattern.quote(part))
            .collect(java.util.stream.Collectors.joining("/"))))
        .map(Endpoint::method).distinct().sorted().collect(java.util.stream.Collectors.joining(", "));
  }

  public static Builder builder(Provisioner engine, AccessStore access) {
    return new Builder(engine, access);
  }

  /** The port the service listens on (useful with port 0). */
  public int port() {
    return app.port();
  }

  /** Event streams open now. */
  public int openEventStreams() {
    return streams.open();
  }

  /** Event streams ended because their reader stopped reading, since start. */
  public long droppedEventStreams() {
    return streams.droppedSlowReaders();
  }

  /** Bytes the open event streams hold unsent, together. */
  public long unsentEventBytes() {
    return streams.unsent();
  }

  /** Requests being handled right now, long polls included; what {@link #close()} waits for. */
  public long requestsInFlight() {
    return graceful.getCurrentRequestCount();
  }

  /** Requests queued for one of the {@link Builder#maxConcurrentRequests(int) slots} right now. */
  public int requestsWaiting() {
    return admission.waiting();
  }

  /** Requests that waited {@link Builder#admissionWait(Duration) the longest wait} and ran without a slot. */
  public long requestsOverran() {
    return admission.overran();
  }

  /** The routes this server serves, from the table it registered (the OpenAPI document is built from it too). */
  public List<ApiRoute> routes() {
    return endpoints.stream().map(e -> new ApiRoute(e.method(), e.path(), e.policy(), e.summary(),
        e.successStatus(), e.isPublic())).toList();
  }

  /**
   * Stops taking requests, lets those in flight finish (up to the grace period) and ends event streams. The
   * engine is not closed: it belongs to the caller, and closing it lets running steps release their leases.
   */
  @Override
  public void close() {
    streams.stop();
    app.stop();
  }

  public Duration shutdownGrace() {
    return shutdownGrace;
  }

  /** Settings of a server; the engine and the access store are required. */
  public static final class Builder {
    private final Provisioner engine;
    private final AccessStore access;
    private String host = "0.0.0.0";
    private int port = DEFAULT_PORT;
    private long maxBodyBytes = 1024 * 1024;
    private int requestsPerSecond = 500;
    private Duration keepAlive = Duration.ofSeconds(15);
    private int maxEventStreams = 10_000;
    private int maxEventStreamsPerCaller = 1_000;
    private int maxUnsentBytes = JobEventStreams.DEFAULT_MAX_UNSENT_BYTES;
    private long maxUnsentTotalBytes = JobEventStreams.DEFAULT_MAX_UNSENT_TOTAL_BYTES;
    private Duration shutdownGrace = Duration.ofSeconds(30);
    private int maxConcurrentRequests = Math.max(8, 4 * Runtime.getRuntime().availableProcessors());
    private Duration admissionWait = Duration.ofMillis(100);
    private io.micrometer.prometheusmetrics.PrometheusMeterRegistry metrics;
    private io.opentelemetry.api.OpenTelemetry openTelemetry;
    private dev.zop.provisioner.spi.FaultInjection simulation;

    private Builder(Provisioner engine, AccessStore access) {
      this.engine = Objects.requireNonNull(engine, "engine");
      this.access = Objects.requireNonNull(access, "access");
    }

    public Builder host(String value) {
      this.host = Objects.requireNonNull(value);
      return this;
    }

    /** 0 picks a free port. */
    public Builder port(int value) {
      this.port = value;
      return this;
    }

    /** Bodies larger than this are refused with 413 (default 1 MiB). */
    public Builder maxBodyBytes(long value) {
      this.maxBodyBytes = value;
      return this;
    }

    /** Requests per second one token may make before it gets 429s (default 500). */
    public Builder requestsPerSecond(int value) {
      this.requestsPerSecond = value;
      return this;
    }

    /**
     * The most event streams open at once (default 10,000; past it, 503 with {@code Retry-After}) and the most one
     * caller (an organisation's actor, whatever its tokens) holds (default 1,000; past it, 429). An open stream
     * holds no thread, but a buffer and a watch.
     */
    public Builder maxEventStreams(int total, int perCaller) {
      if (total < 1 || perCaller < 1) {
        throw new IllegalArgumentException("event stream limits must be at least 1");
      }
      this.maxEventStreams = total;
      this.maxEventStreamsPerCaller = perCaller;
      return this;
    }

    /**
     * What an event stream may hold unsent before its reader counts as gone and the stream is ended (default 1 MiB),
     * and what all streams together may hold (default 64 MiB; past it, any stream holding more than 16 KiB is
     * ended at its next event). A reader that keeps up holds next to nothing; one that stopped reading is let go
     * rather than held, and reconnects with {@code Last-Event-ID} to miss nothing.
     */
    public Builder eventStreamBacklog(int perStreamBytes, long totalBytes) {
      if (perStreamBytes < 1024 || totalBytes < perStreamBytes) {
        throw new IllegalArgumentException("an event stream's backlog is at least 1 KiB, and the total at least that");
      }
      this.maxUnsentBytes = perStreamBytes;
      this.maxUnsentTotalBytes = totalBytes;
      return this;
    }

    /**
     * Serves {@code /simulation/faults}, through which admins inject and lift a test double's faults (what
     * {@code zop serve --demo} does with its simulated cloud's: {@code SimCloud.faultInjection()}). Never set for a
     * service on real clouds.
     */
    public Builder faultInjection(dev.zop.provisioner.spi.FaultInjection faults) {
      this.simulation = java.util.Objects.requireNonNull(faults, "faults");
      return this;
    }

    /** How often an idle event stream gets a keep-alive comment. */
    public Builder keepAlive(Duration value) {
      this.keepAlive = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Serves {@code /metrics} from this registry in Prometheus's text format, to any valid token, and times every
     * request into it ({@code http.server.requests} by method, route template and status). Give the engine the
     * same registry for its meters.
     */
    public Builder metrics(io.micrometer.prometheusmetrics.PrometheusMeterRegistry value) {
      this.metrics = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Where request spans go: one server span per request, a child of the caller's {@code traceparent} when it
     * sends one (the client does), and the parent of what the engine does for it. Default:
     * {@code GlobalOpenTelemetry}, a no-op unless the host installed an SDK. Give the engine the same one.
     */
    public Builder openTelemetry(io.opentelemetry.api.OpenTelemetry value) {
      this.openTelemetry = Objects.requireNonNull(value);
      return this;
    }

    /**
     * How many requests run at once (default four per processor, at least 8; 0 for no limit). The rest wait in
     * arrival order, so under load every request waits about as long as the others instead of the slowest waiting
     * several times the median, and the running ones do not crowd each other off the cores. Four a processor
     * leaves room for the time a request spends waiting on the store. Long polls, event streams and health probes
     * take no slot.
     */
    public Builder maxConcurrentRequests(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("maxConcurrentRequests must not be negative");
      }
      this.maxConcurrentRequests = value;
      return this;
    }

    /**
     * The longest a request waits for a slot (default 100 ms); past it, it runs anyway, so slow calls holding the
     * slots (a cloud discovery, a database created on a remote server) delay the others by this much at most.
     */
    public Builder admissionWait(Duration value) {
      if (value.isNegative()) {
        throw new IllegalArgumentException("admissionWait must not be negative");
      }
      this.admissionWait = value;
      return this;
    }

    /** How long {@link #close()} waits for requests in flight (default 30 s). */
    public Builder shutdownGrace(Duration value) {
      this.shutdownGrace = Objects.requireNonNull(value);
      return this;
    }

    public ProvisionerServer start() {
      return new ProvisionerServer(this);
    }
  }
}
