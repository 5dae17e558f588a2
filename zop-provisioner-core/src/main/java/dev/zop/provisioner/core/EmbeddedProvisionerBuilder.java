package dev.zop.provisioner.core;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.core.internal.jobs.EngineMetrics;
import dev.zop.provisioner.core.internal.jobs.EngineTracing;
import dev.zop.provisioner.core.internal.jobs.JobEngine;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.secrets.LocalSecretStore;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ClusterComponents;
import dev.zop.provisioner.spi.Notifier;
import dev.zop.provisioner.spi.RecommendationSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import javax.sql.DataSource;

/** Configures an {@link EmbeddedProvisioner}; every setting has a default. */
public final class EmbeddedProvisionerBuilder {
  private DataSource dataSource;
  private String schema;
  private String jdbcUrl;
  private String jdbcUser;
  private String jdbcPassword;
  private int maxPoolSize;
  private Path dataDirectory;
  private final List<CloudProvider> providers = new ArrayList<>();
  private boolean discoverProviders = true;
  private ClusterComponents components;
  private int workerThreads = Math.min(64, Math.max(4, 4 * java.lang.Runtime.getRuntime().availableProcessors()));
  private Duration lease = Duration.ofSeconds(30);
  private Duration poll = Duration.ofMillis(250);
  private io.micrometer.core.instrument.MeterRegistry meterRegistry;
  private Duration connectionTimeout;
  private io.opentelemetry.api.OpenTelemetry openTelemetry;
  private RetryPolicy retryPolicy = RetryPolicy.defaults();
  private boolean runWorkers = true;
  private String instanceId;
  private Principal principal = Principal.local();
  final List<WorkflowTemplate> templates = new ArrayList<>();
  RecommendationSource recommendations;
  Notifier notifier;
  Boolean notifyTerminal;
  Duration driftSchedulePoll = Duration.ofMinutes(1);

  EmbeddedProvisionerBuilder() {}

  /**
   * Adds a remediation workflow template. Host templates are tried before the built-in ones; register a new
   * version with the same step ids to keep approvals addressed by id working.
   */
  public EmbeddedProvisionerBuilder template(WorkflowTemplate template) {
    this.templates.add(Objects.requireNonNull(template));
    return this;
  }

  /** Where recommendations come from (default: the engine's table, filled with putRecommendation). */
  public EmbeddedProvisionerBuilder recommendations(RecommendationSource source) {
    this.recommendations = Objects.requireNonNull(source);
    return this;
  }

  /** Who delivers notifications (default: the log). */
  public EmbeddedProvisionerBuilder notifier(Notifier value) {
    this.notifier = Objects.requireNonNull(value);
    return this;
  }

  /**
   * Whether remediation success and failure are notified. Default: the {@code REMEDIATION_NOTIFY_TERMINAL}
   * environment variable ({@code true} to notify); approval requests are always notified.
   */
  public EmbeddedProvisionerBuilder notifyTerminal(boolean value) {
    this.notifyTerminal = value;
    return this;
  }

  /** Use this data source (the host owns and closes it). Default: an H2 file in the data directory. */
  public EmbeddedProvisionerBuilder dataSource(DataSource value) {
    this.dataSource = value;
    return this;
  }

  /**
   * Keep the engine's tables and migration history in this schema of the database, created if missing: a host
   * application's own schema and Flyway then never see them, whichever migrates first. Only with the engine's own
   * pool ({@link #jdbc}); a host's {@link #dataSource} is used in the schema its connections already have.
   */
  public EmbeddedProvisionerBuilder schema(String value) {
    if (value != null && !value.matches("[a-z_][a-z0-9_]{0,62}")) {
      throw new IllegalArgumentException("schema: lower-case letters, digits and _ (at most 63), not " + value);
    }
    this.schema = value;
    return this;
  }

  /** Connect to this database (H2 or PostgreSQL) through a pool the engine owns. */
  public EmbeddedProvisionerBuilder jdbc(String url, String user, String password) {
    this.jdbcUrl = url;
    this.jdbcUser = user;
    this.jdbcPassword = password;
    return this;
  }

  /**
   * Where the default H2 store and the local secret store live (secrets in {@code secrets/}, their key in
   * {@code secret.key} unless {@code ZOP_SECRET_KEY} holds it). Default: {@code $ZOP_HOME}, else {@code $XDG_DATA_HOME/zop-provisioner},
   * else {@code ~/.local/share/zop-provisioner}.
   */
  public EmbeddedProvisionerBuilder dataDirectory(Path value) {
    this.dataDirectory = value;
    return this;
  }

  /** Adds a provider; it replaces a discovered provider with the same id. */
  public EmbeddedProvisionerBuilder provider(CloudProvider provider) {
    this.providers.add(Objects.requireNonNull(provider));
    return this;
  }

  /** What installs catalog components (default: the one {@link java.util.ServiceLoader} finds, if any). */
  public EmbeddedProvisionerBuilder components(ClusterComponents value) {
    this.components = Objects.requireNonNull(value);
    return this;
  }

  /** Whether to load providers with {@link java.util.ServiceLoader} (default true). */
  public EmbeddedProvisionerBuilder discoverProviders(boolean value) {
    this.discoverProviders = value;
    return this;
  }

  /** Threads that run steps; waiting jobs take none. Default: 4 per core, 4 to 64. */
  public EmbeddedProvisionerBuilder workerThreads(int value) {
    if (value < 1) {
      throw new IllegalArgumentException("workerThreads must be at least 1");
    }
    this.workerThreads = value;
    return this;
  }

  /**
   * How long a call waits for a connection of the engine's own pool before it fails (default 30 s): while the
   * database is away, calls fail after this long (the REST service answers them 503).
   */
  public EmbeddedProvisionerBuilder connectionTimeout(Duration value) {
    if (value.toMillis() < 250) {
      throw new IllegalArgumentException("connectionTimeout must be at least 250 ms");
    }
    this.connectionTimeout = value;
    return this;
  }

  /**
   * Connections of the engine's own pool (with {@link #jdbc} or the default H2 store; a host's data source keeps
   * its own size). Default: half the worker threads plus four, at least 10. A service answering many callers at
   * once wants more: each request holds a connection while it reads.
   */
  public EmbeddedProvisionerBuilder maxPoolSize(int value) {
    if (value < 2) {
      throw new IllegalArgumentException("maxPoolSize must be at least 2");
    }
    this.maxPoolSize = value;
    return this;
  }

  /** How long a claim lasts without a heartbeat before another engine may take the job (default 30 s). */
  public EmbeddedProvisionerBuilder leaseDuration(Duration value) {
    if (value.toMillis() < 100) {
      throw new IllegalArgumentException("leaseDuration must be at least 100 ms");
    }
    this.lease = value;
    return this;
  }

  /**
   * How often the engine looks for jobs whose scheduled drift check is due (default one minute). A space schedules
   * checks with {@code config.driftCheckMinutes}; without it, none are made.
   */
  public EmbeddedProvisionerBuilder driftScheduleInterval(Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("driftScheduleInterval must be positive");
    }
    this.driftSchedulePoll = value;
    return this;
  }

  /** How often idle workers and watchers look for work and events made elsewhere (default 250 ms). */
  public EmbeddedProvisionerBuilder pollInterval(Duration value) {
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("pollInterval must be positive");
    }
    this.poll = value;
    return this;
  }

  /**
   * Where the engine's meters go (jobs by status, step timers, claims, lease losses, retries, failures) and, for
   * the engine's own pool, the pool's; none by default.
   */
  public EmbeddedProvisionerBuilder meterRegistry(io.micrometer.core.instrument.MeterRegistry value) {
    this.meterRegistry = Objects.requireNonNull(value);
    return this;
  }

  /**
   * Where the engine's spans go: a span for each job's submission (a child of the caller's current span) and one
   * for each run of a step, in the same trace however much later and on whichever engine it runs. Default:
   * {@code GlobalOpenTelemetry}, a no-op unless the host installed an SDK.
   */
  public EmbeddedProvisionerBuilder openTelemetry(io.opentelemetry.api.OpenTelemetry value) {
    this.openTelemetry = Objects.requireNonNull(value);
    return this;
  }

  public EmbeddedProvisionerBuilder retryPolicy(RetryPolicy value) {
    this.retryPolicy = Objects.requireNonNull(value);
    return this;
  }

  /** False for an instance that serves calls but runs no steps (default true). */
  public EmbeddedProvisionerBuilder runWorkers(boolean value) {
    this.runWorkers = value;
    return this;
  }

  /** Names this instance in leases (default: host, pid and a random suffix). */
  public EmbeddedProvisionerBuilder instanceId(String value) {
    this.instanceId = value;
    return this;
  }

  /** The principal of the returned instance (default: organisation {@code default}, actor {@code local}). */
  public EmbeddedProvisionerBuilder principal(Principal value) {
    this.principal = Objects.requireNonNull(value);
    return this;
  }

  private static void createSchema(HikariConfig config, String schema) {
    try (java.sql.Connection c = java.sql.DriverManager.getConnection(config.getJdbcUrl(), config.getUsername(),
        config.getPassword()); java.sql.Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException("cannot create schema " + schema + ": " + e.getMessage(), e);
    }
  }

  public EmbeddedProvisioner build() {
    HikariDataSource owned = null;
    DataSource ds = dataSource;
    if (schema != null && ds != null) {
      throw new IllegalStateException("schema(...) needs the engine's own pool (jdbc(...)): a host data source is"
          + " used in the schema its connections have");
    }
    if (ds == null) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(jdbcUrl != null ? jdbcUrl : defaultH2Url());
      config.setUsername(jdbcUrl != null ? jdbcUser : "sa");
      config.setPassword(jdbcUrl != null ? jdbcPassword : "");
      config.setMaximumPoolSize(maxPoolSize > 0 ? maxPoolSize : Math.max(10, workerThreads / 2 + 4));
      config.setPoolName("zop-provisioner");
      if (connectionTimeout != null) {
        config.setConnectionTimeout(connectionTimeout.toMillis());
      }
      if (meterRegistry != null) {
        // the pool's connections, waits and timeouts beside the engine's own meters
        config.setMetricsTrackerFactory(new com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory(
            meterRegistry));
      }
      if (schema != null) {
        createSchema(config, schema);
        config.setSchema(schema);
      }
      owned = new HikariDataSource(config);
      ds = owned;
    }
    try {
      Database db = Database.open(ds);
      ProviderRegistry registry = ProviderRegistry.of(discoverProviders, providers, components,
          Thread.currentThread().getContextClassLoader());
      String id = instanceId != null ? instanceId
          : ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8);
      EngineMetrics metrics = new EngineMetrics(meterRegistry);
      metrics.registerProviders(registry.metadata());
      JobEngine.Settings settings = new JobEngine.Settings(id, workerThreads, lease, poll, retryPolicy, runWorkers,
          metrics, new EngineTracing(openTelemetry != null ? openTelemetry
              : io.opentelemetry.api.GlobalOpenTelemetry.get()));
      Path dir = dataDirectory != null ? dataDirectory : defaultDataDirectory();
      LocalSecretStore localSecrets = LocalSecretStore.open(dir.resolve("secrets"), dir.resolve("secret.key"),
          System.getenv("ZOP_SECRET_KEY"));
      return new EmbeddedProvisioner(new EngineAssembly(db, registry, localSecrets, settings, this, owned),
          principal, true);
    } catch (RuntimeException e) {
      if (owned != null) {
        owned.close();
      }
      throw e;
    }
  }

  private String defaultH2Url() {
    Path dir = dataDirectory != null ? dataDirectory : defaultDataDirectory();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the data directory " + dir, e);
    }
    // the engine uses a few dozen distinct statements; H2's default parse cache holds 8
    return "jdbc:h2:file:" + h2Database(dir) + ";DB_CLOSE_ON_EXIT=FALSE;QUERY_CACHE_SIZE=64";
  }

  /** The H2 database (its path, without H2's file suffix) of the default store in {@code dataDirectory}. */
  public static String h2Database(Path dataDirectory) {
    return dataDirectory.resolve("zop").toAbsolutePath().toString();
  }

  /**
   * Where the default store lives when {@link #dataDirectory} is not given: {@code $ZOP_HOME}, else
   * {@code $XDG_DATA_HOME/zop-provisioner}, else {@code ~/.local/share/zop-provisioner}.
   */
  public static Path defaultDataDirectory() {
    String home = System.getenv("ZOP_HOME");
    if (home != null && !home.isBlank()) {
      return Path.of(home);
    }
    String xdg = System.getenv("XDG_DATA_HOME");
    if (xdg != null && !xdg.isBlank()) {
      return Path.of(xdg, "zop-provisioner");
    }
    return Path.of(System.getProperty("user.home"), ".local", "share", "zop-provisioner");
  }
}
