package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.core.internal.lifecycle.JobCompletionListener;
import dev.zop.provisioner.core.internal.lifecycle.TeardownGuard;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Duration;
import java.util.List;

/** Wires the job machinery together: the API-facing service, the worker, the watch hub. */
public final class JobEngine implements AutoCloseable {
  /**
   * Shared transactions of the fenced writer that may be under way at once. With one, the writer's lane was busy
   * for the whole of a PostgreSQL run while cores stood idle; two, with more jobs claimed ahead (see
   * {@link Worker#toClaim}), ran more steps a second on PostgreSQL and H2, and three fewer than two
   * ({@code EngineBenchmark}; figures in docs/benchmark-history.md).
   */
  static final int WRITER_LANES = 2;

  private final JobService service;
  private final GuardrailService guardrails;
  private final JobApprovals approvals;
  private final JobRevisions revisions;
  private final JobDrift drift;
  private final JobImports imports;
  private final Worker worker;
  private final WatchHub watchHub;
  private final JobRepository jobs;
  private final Runnable wake;

  /** Settings the host chose; see {@code EmbeddedProvisionerBuilder} for what each means. */
  public record Settings(String instanceId, int workerThreads, Duration lease, Duration poll,
      RetryPolicy retryPolicy, boolean runWorkers, EngineMetrics metrics, EngineTracing tracing) {}

  /**
   * @param teardownGuards  features that may hold up a teardown (a datastore that still has databases)
   * @param completionListeners features that act, in the same transaction, when a provisioning job ends
   * @param workflows       opens the workflow of a claimed remediation job, whose steps the runner runs
   * @param notifier        where a drift check's {@code job.drifted} goes
   */
  public JobEngine(Database db, ProviderRegistry providers, SpaceRepository spaces, AccountRepository accounts,
      SecretService secrets, ClusterTargets targets, List<TeardownGuard> teardownGuards,
      List<JobCompletionListener> completionListeners, Workflow.Source workflows,
      dev.zop.provisioner.spi.Notifier notifier, Settings settings) {
    JobRepository jobs = new JobRepository();
    JobSignals signals = new JobSignals();
    EngineStop stop = new EngineStop();
    FencedWriter writer = new FencedWriter(db, jobs, signals, stop::halted, WRITER_LANES);
    this.jobs = jobs;
    JobScopes scopes = new JobScopes(db, spaces, providers);
    this.guardrails = new GuardrailService(db);
    JobSteps steps = new JobSteps(db, jobs, accounts, providers, scopes, targets);
    StepRunner runner = new StepRunner(db, jobs, steps, completionListeners, scopes, settings.retryPolicy(), signals,
        secrets, writer, workflows, stop::halted, stop::stopping, settings.metrics(), settings.tracing());
    this.worker = settings.runWorkers()
        ? new Worker(db, runner, stop, settings.instanceId(), settings.workerThreads(), settings.lease(),
            settings.poll(), settings.metrics())
        : null;
    settings.metrics().watchJobs(db);
    this.watchHub = new WatchHub(db, jobs, signals, settings.poll());
    this.wake = worker == null ? () -> { } : worker::wake;
    this.service = new JobService(db, jobs, steps, spaces, accounts, providers, targets, signals, watchHub, wake,
        worker, settings.poll(), teardownGuards, settings.tracing(), guardrails);
    this.revisions = new JobRevisions(db, jobs, service, signals, wake);
    this.approvals = new JobApprovals(db, service, jobs, guardrails, signals, wake);
    this.drift = new JobDrift(db, jobs, service, signals, notifier);
    this.imports = new JobImports(db, jobs, service, signals, wake);
    if (worker != null) {
      worker.start();
    }
  }

  /** The job rows' SQL, for features that read their own kind of job (remediations). */
  public JobRepository jobRows() {
    return jobs;
  }

  /** Tells the worker there is work now, rather than at its next poll. */
  public Runnable wake() {
    return wake;
  }

  public GuardrailService guardrails() {
    return guardrails;
  }

  public JobApprovals approvals() {
    return approvals;
  }

  public JobService service() {
    return service;
  }

  public JobRevisions revisions() {
    return revisions;
  }

  public JobDrift drift() {
    return drift;
  }

  public JobImports imports() {
    return imports;
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
