package dev.zop.provisioner.client;

import dev.zop.provisioner.Catalog;
import dev.zop.provisioner.CloudAccounts;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.Jobs;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Secrets;
import dev.zop.provisioner.Spaces;
import dev.zop.provisioner.client.internal.HttpTransport;
import dev.zop.provisioner.client.internal.Interceptors;
import dev.zop.provisioner.client.internal.RemoteAccounts;
import dev.zop.provisioner.client.internal.RemoteGuardrails;
import dev.zop.provisioner.client.internal.RemoteJobs;
import dev.zop.provisioner.client.internal.RemoteRemediations;
import dev.zop.provisioner.client.internal.RemoteSpaces;
import dev.zop.provisioner.remediation.Remediations;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * {@link Provisioner} over HTTP, talking to a running {@code zop-provisioner-server}. It behaves as the embedded
 * engine does: the same results, and the same exceptions carrying the server's error code, category and fields.
 *
 * <pre>{@code
 * try (Provisioner zop = ProvisionerClient.builder().baseUrl("http://localhost:5087").bearerToken(token).build()) {
 *   Job job = zop.jobs().submit(spaceId, spec);
 * }
 * }</pre>
 *
 * <p>The caller is whoever the bearer token names; {@link #as(Principal)} is refused, since a remote client
 * cannot choose its identity. Secret values are not served over HTTP, so {@link #secrets()} refuses too.
 */
public final class ProvisionerClient implements Provisioner {
  /** The server may hold an {@code await} request this long before answering; reads allow for it. */
  private static final Duration AWAIT_LONG_POLL = Duration.ofSeconds(30);
  /** The version this client was built as, from the jar's {@code version.properties}. */
  public static final String VERSION = version();
  static final String USER_AGENT = "zop-provisioner-client/" + VERSION + " (Java " + System.getProperty(
      "java.version") + ")";

  private static String version() {
    try (var in = ProvisionerClient.class.getResourceAsStream("version.properties")) {
      java.util.Properties properties = new java.util.Properties();
      if (in != null) {
        properties.load(in);
      }
      return properties.getProperty("version", "unknown");
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  private final HttpTransport http;
  private final OkHttpClient ownHttp;
  private final Jobs jobs;
  private final Spaces spaces;
  private final CloudAccounts accounts;
  private final Remediations remediations;
  private final dev.zop.provisioner.Guardrails guardrails;
  private volatile Principal principal;

  private ProvisionerClient(Builder builder) {
    HttpUrl base = HttpUrl.get(Objects.requireNonNull(builder.baseUrl, "baseUrl"));
    // a caller's client lends its connection pool, dispatcher, proxy, TLS and interceptors; ours go after them
    OkHttpClient.Builder configured = builder.base != null ? builder.base.newBuilder() : new OkHttpClient.Builder()
        // OkHttp's own default keeps 5 idle connections: with more threads calling at once, every return beyond
        // the fifth closes a connection and a later call opens a new one
        .connectionPool(new ConnectionPool(builder.maxIdleConnections, 5, TimeUnit.MINUTES));
    configured
        .connectTimeout(builder.connectTimeout)
        .readTimeout(builder.readTimeout.plus(AWAIT_LONG_POLL))
        .callTimeout(Duration.ZERO)
        .addInterceptor(Interceptors.bearer(Objects.requireNonNull(builder.bearerToken, "bearerToken")))
        .addInterceptor(Interceptors.idempotencyKeys())
        .addInterceptor(Interceptors.traceContext())
        .addInterceptor(Interceptors.retries(builder.maxRetries, builder.retryBaseDelay))
        .addInterceptor(Interceptors.logging()) // inside the retries: one line per attempt
        .addInterceptor(Interceptors.userAgent(USER_AGENT));
    if (builder.customizer != null) {
      builder.customizer.accept(configured);
    }
    OkHttpClient http = configured.build();
    this.ownHttp = builder.base == null ? http : null;
    this.http = new HttpTransport(http, base);
    this.jobs = new RemoteJobs(this.http);
    this.spaces = new RemoteSpaces(this.http);
    this.accounts = new RemoteAccounts(this.http);
    this.remediations = new RemoteRemediations(this.http);
    this.guardrails = new RemoteGuardrails(this.http);
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Spaces spaces() {
    return spaces;
  }

  @Override
  public CloudAccounts accounts() {
    return accounts;
  }

  @Override
  public Jobs jobs() {
    return jobs;
  }

  @Override
  public Secrets secrets() {
    return ref -> {
      throw new ForbiddenException("secret_values_not_served",
          "secret values are never sent over the API; read " + ref + " from the secret store it names");
    };
  }

  @Override
  public Remediations remediations() {
    return remediations;
  }

  @Override
  public dev.zop.provisioner.Guardrails guardrails() {
    return guardrails;
  }

  @Override
  public Catalog catalog() {
    return () -> http.catalog();
  }

  /** Refused: a remote client acts as its bearer token. Build another client with that principal's token. */
  @Override
  public Provisioner as(Principal other) {
    throw new ForbiddenException("a remote client acts as the principal its bearer token names; build a client "
        + "with " + other.actor() + "'s token instead");
  }

  /** Who the bearer token names, as the server sees it. */
  @Override
  public Principal principal() {
    Principal known = principal;
    if (known == null) {
      known = http.whoAmI();
      principal = known;
    }
    return known;
  }

  /** Asks the server again who the token names (after roles changed, say). */
  public Principal refreshPrincipal() {
    Principal fresh = http.whoAmI();
    principal = fresh;
    return fresh;
  }

  @Override
  public void close() {
    // a client the caller handed in is the caller's to close: its pool and threads may serve others
    if (ownHttp != null) {
      ownHttp.dispatcher().executorService().shutdown();
      ownHttp.connectionPool().evictAll();
    }
  }

  /** Settings of a client; only the base URL and the token are required. */
  public static final class Builder {
    private String baseUrl;
    private String bearerToken;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration readTimeout = Duration.ofSeconds(30);
    private int maxRetries = 3;
    private Duration retryBaseDelay = Duration.ofMillis(200);
    private int maxIdleConnections = 64;
    private OkHttpClient base;
    private java.util.function.Consumer<OkHttpClient.Builder> customizer;

    private Builder() {}

    /**
     * An OkHttpClient to build on (its proxy, trust store, connection pool, interceptors); the client adds its
     * own interceptors and timeouts to a copy. Closing the provisioner client leaves it running.
     */
    public Builder httpClient(OkHttpClient value) {
      this.base = Objects.requireNonNull(value);
      return this;
    }

    /** Changes the OkHttpClient's builder last, after the client's own settings (e.g. an event listener). */
    public Builder customizeHttpClient(java.util.function.Consumer<OkHttpClient.Builder> value) {
      this.customizer = Objects.requireNonNull(value);
      return this;
    }

    /** Where the service listens, e.g. {@code http://localhost:5087}. */
    public Builder baseUrl(String value) {
      this.baseUrl = value;
      return this;
    }

    /** A token made with {@code zop tokens create}. */
    public Builder bearerToken(String value) {
      this.bearerToken = value;
      return this;
    }

    public Builder connectTimeout(Duration value) {
      this.connectTimeout = Objects.requireNonNull(value);
      return this;
    }

    /** How long to wait for a response once connected. Long polls of {@code await} are allowed for on top. */
    public Builder readTimeout(Duration value) {
      this.readTimeout = Objects.requireNonNull(value);
      return this;
    }

    /** How often a safe request is repeated after a refusal (429/503) or, where idempotent, an I/O failure. */
    public Builder maxRetries(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("maxRetries must not be negative");
      }
      this.maxRetries = value;
      return this;
    }

    /**
     * How many idle connections to the server the client keeps open for reuse (default 64; each is closed after
     * five idle minutes). Size it to the threads that call at once: a call that finds no idle connection opens a
     * new one. Ignored with {@link #httpClient(OkHttpClient)}, whose pool is the caller's.
     */
    public Builder maxIdleConnections(int value) {
      if (value < 0) {
        throw new IllegalArgumentException("maxIdleConnections must not be negative");
      }
      this.maxIdleConnections = value;
      return this;
    }

    public Builder retryBaseDelay(Duration value) {
      this.retryBaseDelay = Objects.requireNonNull(value);
      return this;
    }

    public ProvisionerClient build() {
      return new ProvisionerClient(this);
    }
  }

}
