package dev.zop.provisioner.core;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.zop.provisioner.Catalog;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.CloudAccounts;
import dev.zop.provisioner.ClusterAccessGrant;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Connection;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.Connections;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.Databases;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Jobs;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.Namespaces;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Secrets;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.Spaces;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.core.internal.databases.DatabaseService;
import dev.zop.provisioner.core.internal.jobs.JobEngine;
import dev.zop.provisioner.core.internal.jobs.JobService;
import dev.zop.provisioner.core.internal.jobs.RemediationService;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.remediation.LoggingNotifier;
import dev.zop.provisioner.core.internal.remediation.NotificationRules;
import dev.zop.provisioner.core.internal.remediation.RecommendationStore;
import dev.zop.provisioner.core.internal.remediation.TemplateRegistry;
import dev.zop.provisioner.core.internal.secrets.LocalSecretStore;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.accounts.AccountService;
import dev.zop.provisioner.core.internal.accounts.ClusterAccessRepository;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.spaces.SpaceService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.SpaceDiscovery;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.Remediations;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spec.ResourceSpec;
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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * The engine, embedded in this JVM. {@code EmbeddedProvisioner.builder().build()} gives an H2 file store in the
 * user's data directory, every provider {@link java.util.ServiceLoader} finds, and a worker pool sized for the
 * machine. Point several instances at one PostgreSQL database and they share the work.
 */
public final class EmbeddedProvisioner implements Provisioner {
  private final Runtime runtime;
  private final Principal principal;
  /** Only the instance the builder returned owns the engine; views made with {@link #as} do not. */
  private final boolean owner;

  private EmbeddedProvisioner(Runtime runtime, Principal principal, boolean owner) {
    this.runtime = runtime;
    this.principal = principal;
    this.owner = owner;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public Spaces spaces() {
    return new SpaceView();
  }

  @Override
  public CloudAccounts accounts() {
    return new AccountView();
  }

  @Override
  public Jobs jobs() {
    return new JobView();
  }

  @Override
  public Secrets secrets() {
    return ref -> runtime.secrets.reveal(principal, ref);
  }

  @Override
  public Remediations remediations() {
    return new RemediationView();
  }

  @Override
  public Catalog catalog() {
    return () -> {
      ClusterComponents components = runtime.providers.components();
      if (components == null) {
        throw new ConflictException("no_component_installer",
            "no component installer is installed (add provider-helm to the classpath)");
      }
      return components.catalog();
    };
  }

  @Override
  public Provisioner as(Principal other) {
    return new EmbeddedProvisioner(runtime, Objects.requireNonNull(other, "principal"), false);
  }

  @Override
  public Principal principal() {
    return principal;
  }

  /**
   * Stops claiming work, lets running steps finish, gives unfinished jobs back and closes the store. On a view
   * made with {@link #as} it does nothing: the engine belongs to the instance the builder returned.
   */
  @Override
  public void close() {
    if (owner) {
      runtime.close();
    }
  }

  /**
   * The engine's store, for a host that keeps its own tables beside the engine's (the REST service keeps its
   * tokens and audit log there). The engine's tables are its own: read them through this interface, not SQL.
   */
  public DataSource dataSource() {
    return runtime.store;
  }

  /**
   * Stops this engine the way a crashed process stops: running steps are abandoned mid-way, no lease is
   * released and nothing more is written. Another engine takes the jobs over when the leases expire. Meant for
   * crash tests; a host shuts down with {@link #close()}.
   */
  public void simulateCrash() {
    runtime.halt();
  }

  /** Everything one engine owns; shared by the principal views of it. */
  private static final class Runtime {
    final SpaceService spaces;
    final AccountService accounts;
    final JobService jobs;
    final RemediationService remediations;
    final SecretService secrets;
    final DatabaseService databases;
    final JobEngine engine;
    final ProviderRegistry providers;
    final HikariDataSource ownedDataSource;
    final DataSource store;
    final ScheduledExecutorService recovery;
    private boolean closed;

    Runtime(Database db, ProviderRegistry providers, LocalSecretStore localSecrets, JobEngine.Settings settings,
        Builder builder, HikariDataSource owned) {
      SpaceRepository spaceRepository = new SpaceRepository();
      AccountRepository accountRepository = new AccountRepository();
      this.providers = providers;
      this.store = db.dataSource();
      ClusterAccessRepository clusterAccess = new ClusterAccessRepository();
      this.secrets = new SecretService(db, localSecrets, providers, accountRepository);
      ClusterTargets targets = new ClusterTargets(db, spaceRepository, accountRepository, providers, clusterAccess,
          secrets);
      this.spaces = new SpaceService(db, spaceRepository, accountRepository, providers, secrets, targets);
      this.accounts = new AccountService(db, accountRepository, providers, clusterAccess);
      this.databases = new DatabaseService(db, secrets);
      RecommendationStore recommendationStore = new RecommendationStore(db);
      JobEngine.RemediationParts remediation = new JobEngine.RemediationParts(
          new TemplateRegistry(builder.templates),
          builder.recommendations != null ? builder.recommendations : recommendationStore,
          recommendationStore,
          builder.notifier != null ? builder.notifier : new LoggingNotifier(),
          builder.notifyTerminal != null ? new NotificationRules(builder.notifyTerminal)
              : NotificationRules.fromEnvironment(System::getenv));
      this.engine = new JobEngine(db, providers, spaceRepository, accountRepository, secrets, targets,
          job -> databases.hasDatabases(job)
              ? "datastore job " + job + " still has databases; delete them first" : null,
          remediation, settings);
      this.jobs = engine.service();
      this.remediations = engine.remediations();
      this.ownedDataSource = owned;
      if (settings.runWorkers()) {
        // database operations an engine left part-way: now, then every minute
        this.recovery = Executors.newSingleThreadScheduledExecutor(r -> {
          Thread t = new Thread(r, "zop-database-recovery");
          t.setDaemon(true);
          return t;
        });
        recovery.scheduleWithFixedDelay(databases::recover, 0, 60, TimeUnit.SECONDS);
      } else {
        this.recovery = null;
      }
    }

    synchronized void close() {
      if (closed) {
        return;
      }
      closed = true;
      stopRecovery();
      engine.close();
      providers.close();
      if (ownedDataSource != null) {
        ownedDataSource.close();
      }
    }

    synchronized void halt() {
      if (closed) {
        return;
      }
      closed = true;
      stopRecovery();
      engine.halt();
      if (ownedDataSource != null) {
        ownedDataSource.close();
      }
    }

    private void stopRecovery() {
      if (recovery != null) {
        recovery.shutdownNow();
      }
    }
  }

  private final class SpaceView implements Spaces {
    @Override
    public Space create(SpaceRequest request) {
      return runtime.spaces.create(principal, request);
    }

    @Override
    public Space get(SpaceId id) {
      return runtime.spaces.get(principal, id);
    }

    @Override
    public List<Space> list() {
      return runtime.spaces.list(principal);
    }

    @Override
    public Space setStatus(SpaceId id, SpaceStatus status) {
      return runtime.spaces.setStatus(principal, id, status);
    }

    @Override
    public Kubeconfig kubeconfig(SpaceId id) {
      return runtime.spaces.kubeconfig(principal, id);
    }

    @Override
    public Namespaces namespaces(SpaceId id) {
      return runtime.spaces.namespaces(principal, id);
    }

    @Override
    public SpaceDiscovery discovery(SpaceId id) {
      return runtime.spaces.discovery(principal, id);
    }

    @Override
    public void delete(SpaceId id) {
      runtime.spaces.delete(principal, id);
    }
  }

  private final class AccountView implements CloudAccounts {
    @Override
    public CloudAccount create(CloudAccountRequest request) {
      return runtime.accounts.create(principal, request);
    }

    @Override
    public CloudAccount get(CloudAccountId id) {
      return runtime.accounts.get(principal, id);
    }

    @Override
    public List<CloudAccount> list() {
      return runtime.accounts.list(principal);
    }

    @Override
    public List<DiscoveredCluster> clusters(CloudAccountId id, String region) {
      return runtime.accounts.clusters(principal, id, region);
    }

    @Override
    public ClusterAccessGrant registerClusterAccess(CloudAccountId id, String region, String clusterName) {
      return runtime.accounts.registerClusterAccess(principal, id, region, clusterName);
    }

    @Override
    public void revokeClusterAccess(CloudAccountId id, String region, String clusterName) {
      runtime.accounts.revokeClusterAccess(principal, id, region, clusterName);
    }
  }

  private final class JobView implements Jobs {
    @Override
    public Plan plan(SpaceId spaceId, ResourceSpec spec) {
      return runtime.jobs.plan(principal, spaceId, spec);
    }

    @Override
    public Job submit(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
      return runtime.jobs.submit(principal, spaceId, spec, options == null ? SubmitOptions.none() : options);
    }

    @Override
    public Job get(JobId id) {
      return runtime.jobs.get(principal, id);
    }

    @Override
    public Page<Job> list(JobQuery query) {
      return runtime.jobs.list(principal, query);
    }

    @Override
    public Job update(JobId id, JobPatch patch) {
      return runtime.jobs.update(principal, id, patch);
    }

    @Override
    public Job delete(JobId id) {
      return runtime.jobs.delete(principal, id);
    }

    @Override
    public Job retry(JobId id) {
      return runtime.jobs.retry(principal, id);
    }

    @Override
    public Job await(JobId id, Duration timeout) {
      return runtime.jobs.await(principal, id, timeout);
    }

    @Override
    public Subscription watch(JobId id, JobEventListener listener) {
      return runtime.jobs.watch(principal, id, listener);
    }

    @Override
    public List<JobEvent> events(JobId id, long afterSeq) {
      return runtime.jobs.events(principal, id, afterSeq);
    }

    @Override
    public Databases databases(JobId datastoreJob) {
      return new DatabaseView(datastoreJob);
    }

    @Override
    public Connections connections(JobId datastoreJob) {
      return new ConnectionView(datastoreJob, null);
    }
  }

  private final class RemediationView implements Remediations {
    @Override
    public RemediationJob start(String recommendationId, SubjectType subjectType, String subjectId) {
      return runtime.remediations.start(principal, recommendationId, subjectType, subjectId);
    }

    @Override
    public RemediationJob get(JobId id) {
      return runtime.remediations.get(principal, id);
    }

    @Override
    public Page<RemediationJob> list(int limit, String cursor) {
      return runtime.remediations.list(principal, limit, cursor);
    }

    @Override
    public RemediationJob approve(JobId id, StepRef step, String reason) {
      return runtime.remediations.approve(principal, id, step, reason);
    }

    @Override
    public RemediationJob reject(JobId id, StepRef step, String reason) {
      return runtime.remediations.reject(principal, id, step, reason);
    }

    @Override
    public RemediationJob cancel(JobId id, String reason) {
      return runtime.remediations.cancel(principal, id, reason);
    }

    @Override
    public RemediationJob await(JobId id, Duration timeout) {
      return runtime.remediations.await(principal, id, timeout);
    }

    @Override
    public List<AuditEntry> audit(JobId id) {
      return runtime.remediations.audit(principal, id);
    }

    @Override
    public void putRecommendation(Recommendation recommendation) {
      runtime.remediations.putRecommendation(principal, recommendation);
    }

    @Override
    public List<WorkflowTemplate> templates() {
      return runtime.remediations.templates();
    }
  }

  private final class DatabaseView implements Databases {
    private final JobId job;

    DatabaseView(JobId job) {
      this.job = Objects.requireNonNull(job, "job");
    }

    @Override
    public dev.zop.provisioner.Database create(String name, String owner) {
      return runtime.databases.create(principal, job, name, owner);
    }

    @Override
    public List<dev.zop.provisioner.Database> list() {
      return runtime.databases.list(principal, job);
    }

    @Override
    public dev.zop.provisioner.Database get(DatabaseId id) {
      return runtime.databases.get(principal, job, id);
    }

    @Override
    public void delete(DatabaseId id) {
      runtime.databases.delete(principal, job, id);
    }

    @Override
    public Connections connections(DatabaseId id) {
      return new ConnectionView(job, Objects.requireNonNull(id, "id"));
    }
  }

  /** Connections of a job ({@code database} null) or of one of its databases. */
  private final class ConnectionView implements Connections {
    private final JobId job;
    private final DatabaseId database;

    ConnectionView(JobId job, DatabaseId database) {
      this.job = Objects.requireNonNull(job, "job");
      this.database = database;
    }

    @Override
    public Connection create() {
      return runtime.databases.createConnection(principal, job, database);
    }

    @Override
    public List<Connection> list() {
      return runtime.databases.connections(principal, job, database);
    }

    @Override
    public Connection get(ConnectionId id) {
      return runtime.databases.connection(principal, job, database, id);
    }

    @Override
    public void delete(ConnectionId id) {
      runtime.databases.deleteConnection(principal, job, database, id);
    }
  }

  /** Configures an {@link EmbeddedProvisioner}; every setting has a default. */
  public static final class Builder {
    private DataSource dataSource;
    private String jdbcUrl;
    private String jdbcUser;
    private String jdbcPassword;
    private Path dataDirectory;
    private final List<CloudProvider> providers = new ArrayList<>();
    private boolean discoverProviders = true;
    private ClusterComponents components;
    private int workerThreads = Math.min(64, Math.max(4, 4 * java.lang.Runtime.getRuntime().availableProcessors()));
    private Duration lease = Duration.ofSeconds(30);
    private Duration poll = Duration.ofMillis(250);
    private RetryPolicy retryPolicy = RetryPolicy.defaults();
    private boolean runWorkers = true;
    private String instanceId;
    private Principal principal = Principal.local();
    private final List<WorkflowTemplate> templates = new ArrayList<>();
    private RecommendationSource recommendations;
    private Notifier notifier;
    private Boolean notifyTerminal;

    private Builder() {}

    /**
     * Adds a remediation workflow template. Host templates are tried before the built-in ones; register a new
     * version with the same step ids to keep approvals addressed by id working.
     */
    public Builder template(WorkflowTemplate template) {
      this.templates.add(Objects.requireNonNull(template));
      return this;
    }

    /** Where recommendations come from (default: the engine's table, filled with putRecommendation). */
    public Builder recommendations(RecommendationSource source) {
      this.recommendations = Objects.requireNonNull(source);
      return this;
    }

    /** Who delivers notifications (default: the log). */
    public Builder notifier(Notifier value) {
      this.notifier = Objects.requireNonNull(value);
      return this;
    }

    /**
     * Whether remediation success and failure are notified. Default: the {@code REMEDIATION_NOTIFY_TERMINAL}
     * environment variable ({@code true} to notify); approval requests are always notified.
     */
    public Builder notifyTerminal(boolean value) {
      this.notifyTerminal = value;
      return this;
    }

    /** Use this data source (the host owns and closes it). Default: an H2 file in the data directory. */
    public Builder dataSource(DataSource value) {
      this.dataSource = value;
      return this;
    }

    /** Connect to this database (H2 or PostgreSQL) through a pool the engine owns. */
    public Builder jdbc(String url, String user, String password) {
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
    public Builder dataDirectory(Path value) {
      this.dataDirectory = value;
      return this;
    }

    /** Adds a provider; it replaces a discovered provider with the same id. */
    public Builder provider(CloudProvider provider) {
      this.providers.add(Objects.requireNonNull(provider));
      return this;
    }

    /** Whether to load providers with {@link java.util.ServiceLoader} (default true). */
    /** What installs catalog components (default: the one {@link java.util.ServiceLoader} finds, if any). */
    public Builder components(ClusterComponents value) {
      this.components = Objects.requireNonNull(value);
      return this;
    }

    public Builder discoverProviders(boolean value) {
      this.discoverProviders = value;
      return this;
    }

    /** Threads that run steps; waiting jobs take none. Default: 4 per core, 4 to 64. */
    public Builder workerThreads(int value) {
      if (value < 1) {
        throw new IllegalArgumentException("workerThreads must be at least 1");
      }
      this.workerThreads = value;
      return this;
    }

    /** How long a claim lasts without a heartbeat before another engine may take the job (default 30 s). */
    public Builder leaseDuration(Duration value) {
      if (value.toMillis() < 100) {
        throw new IllegalArgumentException("leaseDuration must be at least 100 ms");
      }
      this.lease = value;
      return this;
    }

    /** How often idle workers and watchers look for work and events made elsewhere (default 250 ms). */
    public Builder pollInterval(Duration value) {
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException("pollInterval must be positive");
      }
      this.poll = value;
      return this;
    }

    public Builder retryPolicy(RetryPolicy value) {
      this.retryPolicy = Objects.requireNonNull(value);
      return this;
    }

    /** False for an instance that serves calls but runs no steps (default true). */
    public Builder runWorkers(boolean value) {
      this.runWorkers = value;
      return this;
    }

    /** Names this instance in leases (default: host, pid and a random suffix). */
    public Builder instanceId(String value) {
      this.instanceId = value;
      return this;
    }

    /** The principal of the returned instance (default: organisation {@code default}, actor {@code local}). */
    public Builder principal(Principal value) {
      this.principal = Objects.requireNonNull(value);
      return this;
    }

    public EmbeddedProvisioner build() {
      HikariDataSource owned = null;
      DataSource ds = dataSource;
      if (ds == null) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl != null ? jdbcUrl : defaultH2Url());
        config.setUsername(jdbcUrl != null ? jdbcUser : "sa");
        config.setPassword(jdbcUrl != null ? jdbcPassword : "");
        config.setMaximumPoolSize(Math.max(10, workerThreads / 2 + 4));
        config.setPoolName("zop-provisioner");
        owned = new HikariDataSource(config);
        ds = owned;
      }
      try {
        Database db = Database.open(ds);
        ProviderRegistry registry = ProviderRegistry.of(discoverProviders, providers, components,
            Thread.currentThread().getContextClassLoader());
        String id = instanceId != null ? instanceId
            : ManagementFactory.getRuntimeMXBean().getName() + "-" + UUID.randomUUID().toString().substring(0, 8);
        JobEngine.Settings settings = new JobEngine.Settings(id, workerThreads, lease, poll, retryPolicy, runWorkers);
        Path dir = dataDirectory != null ? dataDirectory : defaultDataDirectory();
        LocalSecretStore localSecrets = LocalSecretStore.open(dir.resolve("secrets"), dir.resolve("secret.key"),
            System.getenv("ZOP_SECRET_KEY"));
        return new EmbeddedProvisioner(new Runtime(db, registry, localSecrets, settings, this, owned), principal,
            true);
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
      return "jdbc:h2:file:" + dir.resolve("zop").toAbsolutePath() + ";DB_CLOSE_ON_EXIT=FALSE;QUERY_CACHE_SIZE=64";
    }

    private static Path defaultDataDirectory() {
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
}
