package dev.zop.provisioner.spring;

import java.nio.file.Path;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** The embedded engine's settings, under {@code zop.*}. */
@ConfigurationProperties(prefix = "zop")
public class ZopProperties {
  /** Whether to make the engine bean at all. */
  private boolean enabled = true;

  /**
   * Keep the engine's tables in the application's own DataSource (its migrations in their own Flyway history
   * table, zop_engine_history, beside the application's). When false, or when the application has no DataSource,
   * the engine uses zop.jdbc-url, else an H2 file in zop.data-directory.
   */
  private boolean useApplicationDataSource = true;

  /** A database of the engine's own (PostgreSQL or H2), in place of the application's DataSource. */
  private String jdbcUrl;

  /** The user for zop.jdbc-url. */
  private String jdbcUser;

  /** The password for zop.jdbc-url. */
  private String jdbcPassword;

  /** A schema of its own for the engine's tables, in the database of zop.jdbc-url (made if missing). */
  private String schema;

  /** Where the default H2 store and the local secret store live (default: $ZOP_HOME, else the XDG data directory). */
  private Path dataDirectory;

  /** Threads that run steps (default: 4 per core, 4 to 64). */
  private Integer workerThreads;

  /** How long a claimed job is this instance's before another may take it over. */
  private Duration leaseDuration;

  /** How often idle workers look for due work. */
  private Duration pollInterval;

  /**
   * How often the engine looks for jobs whose scheduled drift check is due (default one minute); a space schedules
   * checks with config.driftCheckMinutes.
   */
  private Duration driftScheduleInterval;

  /** False for an instance that serves calls but runs no steps. */
  private boolean runWorkers = true;

  /**
   * Install the simulated cloud (provider sim, in memory: nothing real is created), for demos and tests; needs
   * dev.zop:provider-sim on the class path.
   */
  private boolean simulatedCloud;

  /** This instance's name in leases and logs (default: the process and a random suffix). */
  private String instanceId;

  /**
   * Guardrails to make at start, by name: each one's level, rule (rule.type and that kind's fields), scope and
   * approver grant; one that differs from the organisation's gets its next version.
   */
  private final java.util.Map<String, ZopGuardrailProperties> guardrails = new java.util.LinkedHashMap<>();

  /** The organisation zop.guardrails (and GuardrailRequest beans) are made in: the embedded engine's own by default. */
  private String guardrailsOrganisation = "default";

  public java.util.Map<String, ZopGuardrailProperties> getGuardrails() {
    return guardrails;
  }

  public String getGuardrailsOrganisation() {
    return guardrailsOrganisation;
  }

  public void setGuardrailsOrganisation(String guardrailsOrganisation) {
    this.guardrailsOrganisation = guardrailsOrganisation;
  }

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public boolean isUseApplicationDataSource() {
    return useApplicationDataSource;
  }

  public void setUseApplicationDataSource(boolean useApplicationDataSource) {
    this.useApplicationDataSource = useApplicationDataSource;
  }

  public String getJdbcUrl() {
    return jdbcUrl;
  }

  public void setJdbcUrl(String jdbcUrl) {
    this.jdbcUrl = jdbcUrl;
  }

  public String getJdbcUser() {
    return jdbcUser;
  }

  public void setJdbcUser(String jdbcUser) {
    this.jdbcUser = jdbcUser;
  }

  public String getJdbcPassword() {
    return jdbcPassword;
  }

  public void setJdbcPassword(String jdbcPassword) {
    this.jdbcPassword = jdbcPassword;
  }

  public String getSchema() {
    return schema;
  }

  public void setSchema(String schema) {
    this.schema = schema;
  }

  public Path getDataDirectory() {
    return dataDirectory;
  }

  public void setDataDirectory(Path dataDirectory) {
    this.dataDirectory = dataDirectory;
  }

  public Integer getWorkerThreads() {
    return workerThreads;
  }

  public void setWorkerThreads(Integer workerThreads) {
    this.workerThreads = workerThreads;
  }

  public Duration getLeaseDuration() {
    return leaseDuration;
  }

  public void setLeaseDuration(Duration leaseDuration) {
    this.leaseDuration = leaseDuration;
  }

  public Duration getPollInterval() {
    return pollInterval;
  }

  public void setPollInterval(Duration pollInterval) {
    this.pollInterval = pollInterval;
  }

  public Duration getDriftScheduleInterval() {
    return driftScheduleInterval;
  }

  public void setDriftScheduleInterval(Duration driftScheduleInterval) {
    this.driftScheduleInterval = driftScheduleInterval;
  }

  public boolean isRunWorkers() {
    return runWorkers;
  }

  public void setRunWorkers(boolean runWorkers) {
    this.runWorkers = runWorkers;
  }

  public boolean isSimulatedCloud() {
    return simulatedCloud;
  }

  public void setSimulatedCloud(boolean simulatedCloud) {
    this.simulatedCloud = simulatedCloud;
  }

  public String getInstanceId() {
    return instanceId;
  }

  public void setInstanceId(String instanceId) {
    this.instanceId = instanceId;
  }
}
