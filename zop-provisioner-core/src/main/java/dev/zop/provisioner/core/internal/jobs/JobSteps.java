package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A provisioning job's row → what it runs on: its provider session and driver, and the steps of the phase it is
 * in. The engine runs those steps; a drift check, a revision's plan and a teardown read the job through the same
 * session and driver.
 */
final class JobSteps {
  private final Database db;
  private final JobRepository jobs;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final JobScopes scopes;
  private final ClusterTargets targets;

  JobSteps(Database db, JobRepository jobs, AccountRepository accounts, ProviderRegistry providers, JobScopes scopes,
      ClusterTargets targets) {
    this.db = db;
    this.jobs = jobs;
    this.accounts = accounts;
    this.providers = providers;
    this.scopes = scopes;
    this.targets = targets;
  }

  /** A job's provider session and the driver of its kind. */
  record Driving(ProviderSession session, ResourceDriver<ResourceSpec> driver) {}

  /**
   * The steps a job's phase runs, on {@code session}: the update phase holds every revision's steps one after
   * another, and this run's begin at {@code firstStep}; {@code timeLimit} is the provider's for the job's kind, or
   * null.
   */
  record Phase(ProviderSession session, List<Step> definitions, int firstStep, Duration timeLimit) {}

  /** The job's session and driver; its account is read only when no session is open for it yet. */
  Driving driving(JobRecord job) {
    return driving(job, providers.session(job.accountId(), job.region(), scopes.of(job),
        () -> db.read(c -> accounts.findAnyOrg(c, job.accountId()))));
  }

  /** As {@link #driving(JobRecord)}, with the account already read. */
  Driving driving(JobRecord job, CloudAccount account) {
    return driving(job, providers.session(account.id(), job.region(), scopes.of(job), () -> account));
  }

  private Driving driving(JobRecord job, ProviderSession session) {
    return new Driving(session, providers.driver(session, job.kind(), () -> targets.of(job.orgId(), job.spaceId())));
  }

  /** The steps of the phase {@code job} is in, given every step row it has ({@code all}). */
  Phase phase(JobRecord job, List<StepRecord> all) {
    Driving driving = driving(job);
    ResourceDriver<ResourceSpec> driver = driving.driver();
    List<Step> definitions;
    int firstStep = 0;
    if (job.phase() == JobPhase.UPDATE) {
      RevisionRows.RevisionRow applying = RevisionRows.latest(db.read(c -> RevisionRows.all(c, job.id())));
      Outputs recorded = recordedOutputs(all, applying.firstStep());
      // the job's config is the one last applied: the revision changes it to the revision's own
      definitions = applying.reconcile() ? driver.reconcile(job.spec(), recorded).steps()
          : driver.revise(job.spec(), Json.spec(job.kind(), applying.config()), recorded).steps();
      firstStep = applying.firstStep();
    } else if (job.phase() == JobPhase.CREATE) {
      // an imported job's create phase adopts what exists rather than making it
      String importedFrom = job.outputs().get(JobImports.IMPORTED_FROM);
      definitions = importedFrom != null ? driver.adopt(job.spec(), importedFrom) : driver.create(job.spec());
    } else {
      definitions = driver.teardown(RevisionRows.attempted(job, db.read(c -> RevisionRows.all(c, job.id()))),
          recordedOutputs(all, Integer.MAX_VALUE));
    }
    return new Phase(driving.session(), definitions, firstStep,
        providers.find(job.provider()).metadata().defaultTimeouts().get(job.kind()));
  }

  /**
   * Every output the create steps and the revisions' steps before {@code updatesBefore} recorded, intents included,
   * in the order they ran: what teardown (or a revision) must consider existing.
   */
  static Outputs recordedOutputs(List<StepRecord> all, int updatesBefore) {
    Map<String, String> merged = new LinkedHashMap<>();
    all.stream().filter(s -> s.phase() == JobPhase.CREATE).forEach(s -> merged.putAll(s.outputs()));
    all.stream().filter(s -> s.phase() == JobPhase.UPDATE && s.index() < updatesBefore)
        .sorted(Comparator.comparingInt(StepRecord::index)).forEach(s -> merged.putAll(s.outputs()));
    return Outputs.of(merged);
  }

  /** Whether the step rows are the steps defined now, by name and in order. */
  static boolean matches(List<StepRecord> rows, List<Step> definitions) {
    if (rows.size() != definitions.size()) {
      return false;
    }
    for (int i = 0; i < rows.size(); i++) {
      if (!rows.get(i).name().equals(definitions.get(i).name())) {
        return false;
      }
    }
    return true;
  }
}
