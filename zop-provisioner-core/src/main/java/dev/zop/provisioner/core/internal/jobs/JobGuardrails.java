package dev.zop.provisioner.core.internal.jobs;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDeniedException;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.GuardrailRule;
import dev.zop.provisioner.GuardrailTrial;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.internal.guardrails.PlanDocument;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.ResourceDriver;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Guardrails where the engine decides a change: the plan's document built from what the change makes and what it
 * costs (at its size and at its maximum, and what the space's other jobs cost at theirs), answered by every
 * guardrail that applies. No guardrail applying costs one read and nothing else.
 */
final class JobGuardrails {
  private final GuardrailService guardrails;
  private final BiFunction<Principal, JobQuery, Page<Job>> listJobs;
  private final JobPlaces places;
  private final Database db;
  private final JobRepository rows;
  /** A succeeded job's monthly cost at its maximum size, by its id and row version: its spec is the same until then. */
  private final Cache<String, Priced> atMaxByJob = Caffeine.newBuilder().maximumSize(100_000).build();

  private record Priced(BigDecimal monthly, boolean complete) {}

  JobGuardrails(GuardrailService guardrails, BiFunction<Principal, JobQuery, Page<Job>> listJobs, JobPlaces places,
      Database db, JobRepository rows) {
    this.db = db;
    this.rows = rows;
    this.places = places;
    this.guardrails = guardrails;
    this.listJobs = listJobs;
  }

  /**
   * The guardrails' answer to a change, or null when none applies.
   *
   * @param before what the job's resources cost now (empty for a new job)
   * @param self the job changed, left out of the space's other jobs; null for a new one
   */
  GuardrailService.Answer answer(Principal principal, String action, Space space, ResourceDriver<ResourceSpec> driver,
      ResourceSpec spec, String name, Map<String, String> tags, List<CostComponent> before, JobId self) {
    List<Guardrail> applicable = guardrails.applicable(principal.orgId(), space.id(), space.provider(), spec.kind());
    if (applicable.isEmpty()) {
      return null;
    }
    PlanDocument plan = document(principal, action, space, driver, spec, name, tags, before, self,
        applicable.stream().anyMatch(JobGuardrails::readsTheSpace));
    return guardrails.answer(principal.orgId(), applicable, plan, self, space.id());
  }

  /** Whether a guardrail may read what the space's other jobs cost: a budget, or a CEL rule, which may read all. */
  private static boolean readsTheSpace(Guardrail g) {
    return g.rule() instanceof GuardrailRule.SpaceBudget || g.rule() instanceof GuardrailRule.Cel;
  }

  /** The plan document of a change; the space's other jobs are priced only when {@code withSpace}. */
  private PlanDocument document(Principal principal, String action, Space space, ResourceDriver<ResourceSpec> driver,
      ResourceSpec spec, String name, Map<String, String> tags, List<CostComponent> before, JobId self,
      boolean withSpace) {
    List<CostComponent> after = driver.price(spec, space.region());
    ResourceSpec largest = AtMaximum.of(spec);
    List<CostComponent> atMax = largest == spec ? after : driver.price(largest, space.region());
    boolean complete = priced(before) && priced(after) && priced(atMax);
    BigDecimal others = BigDecimal.ZERO;
    if (withSpace) {
      Priced spaceCost = othersAtMax(principal, space, self);
      others = spaceCost.monthly();
      complete &= spaceCost.complete();
    }
    List<PlanDocument.Resource> resources = PlanDocument.resourcesOf(spec);
    return new PlanDocument(action, spec.kind().wireName(), space.provider(), places.region(principal, space),
        space.id().value(), name, config(spec), tags == null ? Map.of() : tags, resources,
        PlanDocument.Cost.of(total(before), total(after), total(atMax), others, complete),
        new PlanDocument.Caller(principal.actor(), principal.roles().stream().sorted().toList()),
        PlanDocument.maxCount(resources));
  }

  /** The most succeeded jobs a trial reads. */
  static final int TRIAL_JOBS = 1_000;

  /**
   * What {@code request} would do, saved nowhere: its verdicts on the organisation's recent changes (as their
   * decisions recorded them) and on its succeeded jobs as they are.
   */
  GuardrailTrial trial(Principal principal, GuardrailRequest request, int lastPlans) {
    if (lastPlans < 0 || lastPlans > 10_000) {
      throw ValidationException.of("lastPlans", "out_of_range", "lastPlans must be 0..10000");
    }
    Guardrail trial = guardrails.unsaved(principal, request);
    List<GuardrailTrial.Finding> plans = new ArrayList<>();
    int plansChecked = 0;
    for (GuardrailService.Recorded change : guardrails.recentChanges(principal.orgId(), lastPlans)) {
      if (!trial.scope().covers(change.space(), change.plan().provider(), JobKind.fromWire(change.plan().kind()))) {
        continue;
      }
      plansChecked++;
      GuardrailVerdict verdict = guardrails.verdict(trial, change.plan());
      if (verdict.outcome() != GuardrailVerdict.Outcome.PASSED) {
        plans.add(new GuardrailTrial.Finding(change.job(), change.space(), change.action(), change.at(), verdict));
      }
    }
    List<GuardrailTrial.Finding> jobs = new ArrayList<>();
    int jobsChecked = 0;
    Map<SpaceId, Space> spaces = new HashMap<>();
    Map<String, ResourceDriver<ResourceSpec>> driversBySpaceAndKind = new HashMap<>();
    JobQuery query = JobQuery.all().withStatus(JobStatus.SUCCEEDED).limit(JobQuery.MAX_LIMIT);
    int read = 0;
    for (Page<Job> page = listJobs.apply(principal, query); read < TRIAL_JOBS;
        page = listJobs.apply(principal, query.after(page.nextCursor()))) {
      for (Job job : page.items()) {
        read++;
        Space space = spaces.computeIfAbsent(job.spaceId(), id -> places.place(principal, id).space());
        if (job.spec() == null || space == null || !trial.scope().covers(space.id(), space.provider(), job.kind())) {
          continue;
        }
        jobsChecked++;
        ResourceDriver<ResourceSpec> driver = driversBySpaceAndKind.computeIfAbsent(space.id() + "/" + job.kind(),
            key -> places.driver(principal, space, job.kind()));
        // a job as it is: "before" is what it costs now, so it adds nothing
        PlanDocument plan = document(principal, "existing", space, driver, job.spec(), job.name(), job.tags(),
            driver.price(job.spec(), space.region()), job.id(), readsTheSpace(trial));
        GuardrailVerdict verdict = guardrails.verdict(trial, plan);
        if (verdict.outcome() != GuardrailVerdict.Outcome.PASSED) {
          jobs.add(new GuardrailTrial.Finding(job.id(), space.id(), "existing", job.updatedAt(), verdict));
        }
      }
      if (page.nextCursor() == null) {
        break;
      }
    }
    return new GuardrailTrial(plansChecked, jobsChecked, plans, jobs);
  }

  /**
   * Refuses the change when the answer denies it, recording the refusal (the only row it writes; {@code job} null
   * for a new job); else returns the answer for the change to record with its own rows ({@link #written}).
   */
  GuardrailService.Answer enforce(Principal principal, GuardrailService.Answer answer, SpaceId space, JobId job) {
    if (answer != null && answer.denied()) {
      guardrails.record(principal.orgId(), answer.decision(job, space, principal), answer.planJson());
      throw new GuardrailDeniedException(answer.verdicts());
    }
    return answer;
  }

  /**
   * The history entries of a guardrails' answer: a {@code guardrail_warning} for each advisory guardrail the change
   * breaks (or an exemption lets it break), and a {@code guardrail_decision} naming those that hold it for approval.
   */
  static List<NewEvent> events(GuardrailService.Answer answer, JobStatus status) {
    if (answer == null) {
      return List.of();
    }
    List<NewEvent> events = new ArrayList<>();
    for (GuardrailVerdict warning : answer.warnings()) {
      events.add(new NewEvent(JobEventType.GUARDRAIL_WARNING, null, status, "guardrail " + warning.name() + " (v"
          + warning.version() + "): " + warning.message()
          + (warning.exemption() == null ? "" : " (exempted by " + warning.exemption() + ")")));
    }
    List<String> holding = answer.verdicts().stream()
        .filter(v -> v.outcome() == GuardrailVerdict.Outcome.APPROVAL_REQUIRED)
        .map(v -> v.name() + " (v" + v.version() + "): " + v.message()).toList();
    if (!holding.isEmpty()) {
      events.add(new NewEvent(JobEventType.GUARDRAIL_DECISION, null, status, "awaiting approval: "
          + String.join("; ", holding)));
    }
    return events;
  }

  /** The decision's row, for a new job's batched inserts. */
  RowWrite decisionRow(Principal principal, GuardrailService.Answer answer, JobId job, SpaceId space) {
    return guardrails.decisionRow(principal.orgId(), answer.decision(job, space, principal), answer.planJson());
  }

  /**
   * Writes, in the caller's transaction, what a change of an existing job keeps of its answer (if any): its events in
   * the job's history, now at {@code status}, and its decision.
   */
  void written(Connection c, Principal principal, GuardrailService.Answer answer, JobId job, SpaceId space,
      JobStatus status) throws SQLException {
    if (answer == null) {
      return;
    }
    for (NewEvent event : events(answer, status)) {
      rows.appendEvent(c, job, event.type(), event.stepName(), event.status(), event.message());
    }
    Database.execute(c, decisionRow(principal, answer, job, space));
  }

  /**
   * What the space's succeeded jobs other than {@code self} cost a month at their maximum size. One read of the
   * jobs' ids and row versions; a job's spec is read and priced again only when its row changed since it was priced.
   */
  private Priced othersAtMax(Principal principal, Space space, JobId self) {
    List<JobRepository.Succeeded> succeeded = db.read(c -> rows.succeededInSpace(c, principal.orgId(), space.id()));
    List<JobRepository.Succeeded> unpriced = succeeded.stream()
        .filter(j -> atMaxByJob.getIfPresent(key(j)) == null).toList();
    if (!unpriced.isEmpty()) {
      Map<JobId, ResourceSpec> specs = db.read(c -> rows.specs(c, unpriced));
      Map<JobKind, ResourceDriver<ResourceSpec>> byKind = new LinkedHashMap<>();
      for (JobRepository.Succeeded job : unpriced) {
        ResourceSpec spec = specs.get(job.id());
        if (spec == null) {
          continue; // gone since the first read: not the space's any more
        }
        ResourceDriver<ResourceSpec> driver = byKind.computeIfAbsent(job.kind(),
            kind -> places.driver(principal, space, kind));
        List<CostComponent> costs = driver.price(AtMaximum.of(spec), space.region());
        atMaxByJob.put(key(job), new Priced(total(costs), priced(costs)));
      }
    }
    BigDecimal total = BigDecimal.ZERO;
    boolean complete = true;
    for (JobRepository.Succeeded job : succeeded) {
      Priced priced = atMaxByJob.getIfPresent(key(job));
      if (priced == null || job.id().equals(self)) {
        continue;
      }
      total = total.add(priced.monthly());
      complete &= priced.complete();
    }
    return new Priced(total, complete);
  }

  private static String key(JobRepository.Succeeded job) {
    return job.id().value() + "@" + job.version();
  }

  /** The spec as the REST body spells it, in the plain values CEL reads: maps, lists, strings, longs, doubles. */
  private static Map<String, Object> config(ResourceSpec spec) {
    Object value = PlanDocument.plain(Json.MAPPER.valueToTree(spec));
    @SuppressWarnings("unchecked")
    Map<String, Object> map = value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    return map;
  }

  private static boolean priced(List<CostComponent> costs) {
    return costs.stream().allMatch(CostComponent::priceKnown);
  }

  private static BigDecimal total(List<CostComponent> costs) {
    return costs.stream().filter(CostComponent::priceKnown).map(CostComponent::monthly)
        .reduce(BigDecimal.ZERO, BigDecimal::add);
  }
}
