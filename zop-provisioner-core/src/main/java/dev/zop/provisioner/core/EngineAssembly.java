package dev.zop.provisioner.core;

import com.zaxxer.hikari.HikariDataSource;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.accounts.AccountService;
import dev.zop.provisioner.core.internal.accounts.ClusterAccessRepository;
import dev.zop.provisioner.core.internal.databases.DatabaseService;
import dev.zop.provisioner.core.internal.jobs.JobEngine;
import dev.zop.provisioner.core.internal.jobs.JobDrift;
import dev.zop.provisioner.core.internal.jobs.JobImports;
import dev.zop.provisioner.core.internal.jobs.JobRevisions;
import dev.zop.provisioner.core.internal.jobs.JobService;
import dev.zop.provisioner.core.internal.remediation.RemediationService;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.remediation.LoggingNotifier;
import dev.zop.provisioner.core.internal.remediation.NotificationRules;
import dev.zop.provisioner.core.internal.remediation.RecommendationStore;
import dev.zop.provisioner.core.internal.remediation.RemediationWorkflows;
import dev.zop.provisioner.core.internal.remediation.RemediationRepository;
import dev.zop.provisioner.core.internal.remediation.TemplateRegistry;
import dev.zop.provisioner.core.internal.secrets.LocalSecretStore;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.spaces.ClusterSpaces;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.spaces.SpaceService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.Notifier;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Everything one engine owns, wired together; shared by the principal views of it. */
final class EngineAssembly {
  private static final Logger LOG = LoggerFactory.getLogger(EngineAssembly.class);
  final SpaceService spaces;
  final AccountService accounts;
  final JobService jobs;
  final dev.zop.provisioner.core.internal.jobs.SpaceCosts spaceCosts;
  final JobRevisions revisions;
  final JobDrift drift;
  final JobImports imports;
  final RemediationService remediations;
  final SecretService secrets;
  final DatabaseService databases;
  final JobEngine engine;
  final ProviderRegistry providers;
  final HikariDataSource ownedDataSource;
  final DataSource store;
  final ScheduledExecutorService recovery;
  private boolean closed;

  EngineAssembly(Database db, ProviderRegistry providers, LocalSecretStore localSecrets, JobEngine.Settings settings,
      EmbeddedProvisionerBuilder builder, HikariDataSource owned) {
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
    TemplateRegistry templates = new TemplateRegistry(builder.templates, providers.remediationTypes());
    RemediationRepository remediationRows = new RemediationRepository();
    Notifier notifier = builder.notifier != null ? builder.notifier : new LoggingNotifier();
    NotificationRules rules = builder.notifyTerminal != null ? new NotificationRules(builder.notifyTerminal)
        : NotificationRules.fromEnvironment(System::getenv);
    ClusterSpaces clusterSpaces = new ClusterSpaces(db, spaceRepository, clusterAccess, providers);
    // the job engine runs remediation workflows' steps through the Workflow seam; it knows nothing of them
    this.engine = new JobEngine(db, providers, spaceRepository, accountRepository, secrets, targets,
        List.of(job -> databases.hasDatabases(job) ? new ConflictException("job_has_dependents",
            "datastore job " + job + " still has databases; delete them first") : null, clusterSpaces),
        List.of(clusterSpaces),
        new RemediationWorkflows(db, remediationRows, accountRepository, providers, templates, notifier, rules),
        notifier, settings);
    this.jobs = engine.service();
    this.spaceCosts = new dev.zop.provisioner.core.internal.jobs.SpaceCosts(db, spaceRepository, providers, targets,
        jobs);
    this.revisions = engine.revisions();
    this.drift = engine.drift();
    this.imports = engine.imports();
    this.remediations = new RemediationService(db, engine.jobRows(), remediationRows, accountRepository,
        providers, templates, builder.recommendations != null ? builder.recommendations : recommendationStore,
        recommendationStore, jobs, engine.wake());
    this.ownedDataSource = owned;
    if (settings.runWorkers()) {
      // two threads: a long pass of drift checks (cloud reads) must not hold recovery up
      this.recovery = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "zop-database-recovery-and-drift");
        t.setDaemon(true);
        return t;
      });
      // database operations an engine left part-way: now, then every minute
      recovery.scheduleWithFixedDelay(databases::recover, 0, 60, TimeUnit.SECONDS);
      // spaces' drift schedules: a due job is claimed in the database, so engines sharing one check it once
      long every = builder.driftSchedulePoll.toMillis();
      recovery.scheduleWithFixedDelay(() -> {
        try {
          drift.scheduledPass();
        } catch (RuntimeException e) {
          LOG.warn("scheduled drift checks failed; the next pass tries again", e);
        }
      }, every, every, TimeUnit.MILLISECONDS);
    } else {
      this.recovery = null;
    }
  }

  synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (recovery != null) {
      // a recovery under way is let finish: an interrupt inside a JDBC call would close an embedded H2 store
      recovery.shutdown();
      try {
        if (!recovery.awaitTermination(30, TimeUnit.SECONDS)) {
          LOG.warn("database recovery still running after 30 s; it goes on when an engine next starts");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
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
    if (recovery != null) {
      recovery.shutdownNow();
    }
    engine.halt();
    if (ownedDataSource != null) {
      ownedDataSource.close();
    }
  }
}
