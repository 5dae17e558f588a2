package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.remediation.NotificationRules;
import dev.zop.provisioner.core.internal.remediation.RecommendationStore;
import dev.zop.provisioner.core.internal.remediation.TemplateRegistry;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.Notifier;
import dev.zop.provisioner.spi.RecommendationSource;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

/** Wires the job machinery together: the API-facing service, the worker, the watch hub. */
public final class JobEngine implements AutoCloseable {
  private final JobService service;
  private final RemediationService remediations;
  private final Worker worker;
  private final WatchHub watchHub;

  /** Settings the host chose; see {@code EmbeddedProvisioner.Builder} for what each means. */
  public record Settings(String instanceId, int workerThreads, Duration lease, Duration poll,
      RetryPolicy retryPolicy, boolean runWorkers) {}

  /** Where remediation finds its templates and recommendations, and how it tells people. */
  public record RemediationParts(TemplateRegistry templates, RecommendationSource source, RecommendationStore store,
      Notifier notifier, NotificationRules rules) {}

  /**
   * @param teardownBlocker names why a job may not be torn down yet (a datastore that still has databases), or
   *                        returns null when it may
   */
  public JobEngine(Database db, ProviderRegistry providers, SpaceRepository spaces, AccountRepository accounts,
      SecretService secrets, ClusterTargets targets, Function<JobId, String> teardownBlocker,
      RemediationParts remediation,
      Settings settings) {
    JobRepository jobs = new JobRepository();
    JobSignals signals = new JobSignals();
    Worker[] self = new Worker[1];
    BooleanSupplier halted = () -> self[0] != null && self[0].halted();
    FencedWriter writer = new FencedWriter(db, jobs, signals, halted);
    RemediationRepository remediationRows = new RemediationRepository();
    RemediationReconciler reconciler = new RemediationReconciler(db, jobs, remediationRows, accounts, providers,
        remediation.templates(), settings.retryPolicy(), remediation.notifier(), remediation.rules(), writer);
    StepRunner runner = new StepRunner(db, jobs, accounts, spaces, providers, settings.retryPolicy(), signals,
        secrets, targets, writer, reconciler, halted, () -> self[0] != null && self[0].stopping());
    this.worker = settings.runWorkers()
        ? new Worker(db, runner, settings.instanceId(), settings.workerThreads(), settings.lease(), settings.poll())
        : null;
    self[0] = worker;
    this.watchHub = new WatchHub(db, jobs, signals, settings.poll());
    Runnable wake = worker == null ? () -> { } : worker::wake;
    this.service = new JobService(db, jobs, spaces, accounts, providers, targets, signals, watchHub, wake,
        settings.poll(), teardownBlocker);
    this.remediations = new RemediationService(db, jobs, remediationRows, accounts, providers,
        remediation.templates(), remediation.source(), remediation.store(), service, wake);
    if (worker != null) {
      worker.start();
    }
  }

  public JobService service() {
    return service;
  }

  public RemediationService remediations() {
    return remediations;
  }

  /** Stops as a crashed process would: nothing is released, nothing more is written. */
  public void halt() {
    if (worker != null) {
      worker.halt();
    }
    watchHub.close();
  }

  @Override
  public void close() {
    if (worker != null) {
      worker.close();
    }
    watchHub.close();
  }
}
