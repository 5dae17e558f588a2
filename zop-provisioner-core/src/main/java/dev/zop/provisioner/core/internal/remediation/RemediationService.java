package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.core.internal.jobs.JobRecord;
import dev.zop.provisioner.core.internal.jobs.StepRecord;
import dev.zop.provisioner.core.internal.jobs.JobRepository;
import dev.zop.provisioner.core.internal.jobs.JobService;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.StorableText;
import dev.zop.provisioner.core.internal.store.StoreException;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.remediation.AuditEntry;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.RemediationStep;
import dev.zop.provisioner.remediation.StepKind;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.remediation.TemplateStep;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.RecommendationSource;
import dev.zop.provisioner.spi.RemediationActions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code Remediations} operations: starting a workflow from a recommendation, and queueing decisions and
 * cancellations for the reconciler, which alone changes the job and writes the audit trail.
 */
public final class RemediationService {
  /** Besides admins, principals with this role may approve, reject and cancel. */
  public static final String APPROVER_ROLE = Policies.REMEDIATION_APPROVE;

  private final Database db;
  private final JobRepository jobs;
  private final RemediationRepository remediations;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final TemplateRegistry templates;
  private final RecommendationSource source;
  private final RecommendationStore store;
  private final JobService jobService;
  private final Runnable wakeWorker;

  public RemediationService(Database db, JobRepository jobs, RemediationRepository remediations, AccountRepository accounts,
      ProviderRegistry providers, TemplateRegistry templates, RecommendationSource source, RecommendationStore store,
      JobService jobService, Runnable wakeWorker) {
    this.db = db;
    this.jobs = jobs;
    this.remediations = remediations;
    this.accounts = accounts;
    this.providers = providers;
    this.templates = templates;
    this.source = source;
    this.store = store;
    this.jobService = jobService;
    this.wakeWorker = wakeWorker;
  }

  public RemediationJob start(Principal principal, String recommendationId, SubjectType subjectType,
      String subjectId) {
    if (recommendationId == null || recommendationId.isBlank()) {
      throw ValidationException.of("recommendationID", "required", "recommendationID is required");
    }
    if (subjectType == null) {
      throw ValidationException.of("subjectType", "required", "subjectType is required");
    }
    Recommendation rec = source.find(principal.orgId(), recommendationId);
    if (rec == null) {
      throw new NotFoundException("recommendation", recommendationId);
    }
    if (!rec.resourceId().equals(subjectId)) {
      throw ValidationException.of("subjectID", "subject_mismatch",
          "recommendation " + recommendationId + " is about " + rec.resourceId() + ", not " + subjectId);
    }
    CloudAccount account = db.read(c -> accounts.find(c, principal.orgId(), rec.accountId()));
    if (account == null) {
      throw ValidationException.of("recommendationID", "unknown_account",
          "the recommendation's cloud account " + rec.accountId() + " is not connected");
    }
    if (providers.find(account.provider()) == null) {
      throw ValidationException.of("recommendationID", "unsupported_provider",
          "provider '" + account.provider() + "' is not installed");
    }
    ProviderSession session = providers.session(account, rec.region());
    RemediationActions actions = session.remediationActions();
    if (actions == null) {
      throw ValidationException.of("recommendationID", "unsupported_provider",
          "provider '" + account.provider() + "' cannot act on resources");
    }
    WorkflowTemplate template = templates.resolve(rec.action(), rec.resourceType());
    if (template == null) {
      throw ValidationException.of("recommendationID", "no_template",
          "no workflow template does '" + rec.action() + "' on " + rec.resourceType());
    }

    JobId id = JobId.random();
    Instant now = Timestamps.now();
    List<StepRecord> rows = new ArrayList<>();
    for (int i = 0; i < template.steps().size(); i++) {
      TemplateStep step = template.steps().get(i);
      rows.add(StepRecord.remediation(id.value(), i, step.id(), step.name(), step.kind().wireName(),
          permissions(step, actions, rec.resourceType())));
    }
    JobRecord job = new JobRecord(id, principal.orgId(), null, JobType.REMEDIATION, JobKind.REMEDIATION,
        template.id() + " " + rec.resourceId(), Map.of(), account.provider(), account.id(), rec.region(), null,
        JobStatus.PENDING, JobPhase.CREATE, Map.of(), null, principal.actor(), now, now, null, 0, null);
    db.tx(c -> {
      jobs.insert(c, job, null, null, rows);
      remediations.insert(c, new RemediationRepository.Details(id, recommendationId, subjectType, subjectId,
          template.id(), template.version(), template.irreversible(), rec.resourceType(), rec.resourceId()));
      jobs.appendEvent(c, id, dev.zop.provisioner.JobEventType.SUBMITTED, null, JobStatus.PENDING,
          "started by " + principal.actor() + " for recommendation " + recommendationId);
      return null;
    });
    wakeWorker.run();
    return get(principal, id);
  }

  public RemediationJob get(Principal principal, JobId id) {
    return db.read(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (job == null || job.jobType() != JobType.REMEDIATION) {
        throw new NotFoundException("remediation job", id);
      }
      return view(job, jobs.steps(c, id), remediations.details(c, id));
    });
  }

  public Page<RemediationJob> list(Principal principal, int limit, String cursor, ListOrder order) {
    if (limit < 1 || limit > 500) {
      throw ValidationException.of("limit", "out_of_range", "limit must be between 1 and 500");
    }
    long after = dev.zop.provisioner.core.internal.jobs.JobCursors.parse(cursor, order);
    return db.read(c -> {
      List<Map.Entry<Long, JobRepository.StoredJob>> rows =
          jobs.list(c, principal.orgId(), JobType.REMEDIATION, null, Set.of(), after, order, limit);
      boolean more = rows.size() > limit;
      List<Map.Entry<Long, JobRepository.StoredJob>> page = more ? rows.subList(0, limit) : rows;
      List<RemediationJob> items = new ArrayList<>();
      for (Map.Entry<Long, JobRepository.StoredJob> e : page) {
        JobRecord job = e.getValue().parse();
        items.add(view(job, jobs.steps(c, job.id()), remediations.details(c, job.id())));
      }
      return new Page<>(items, more ? dev.zop.provisioner.core.internal.jobs.JobCursors.next(page.get(page.size() - 1).getKey(), order) : null);
    });
  }

  public RemediationJob approve(Principal principal, JobId id, StepRef ref, String reason) {
    return decide(principal, id, ref, "approve", reason);
  }

  public RemediationJob reject(Principal principal, JobId id, StepRef ref, String reason) {
    return decide(principal, id, ref, "reject", reason);
  }

  private RemediationJob decide(Principal principal, JobId id, StepRef ref, String command, String reason) {
    requireApprover(principal);
    checkReason(reason);
    RemediationJob job = get(principal, id);
    RemediationStep step = job.steps().stream().filter(s -> matches(s, ref)).findFirst()
        .orElseThrow(() -> new NotFoundException("step", describe(ref)));
    if (step.kind() != StepKind.APPROVAL) {
      throw new ConflictException("not_an_approval_step", "step " + step.name() + " is a " + step.kind().wireName()
          + " step; only approval steps take decisions");
    }
    if (job.status() != JobStatus.AWAITING_USER || step.status() != StepStatus.WAITING) {
      throw new ConflictException("step_not_awaiting_decision", "step " + step.name() + " is "
          + step.status().wireName() + " and the job is " + job.status().wireName());
    }
    enqueue(id, command, step.id(), principal, reason, "decision_already_made",
        "a decision on step " + step.name() + " was already made");
    return get(principal, id);
  }

  public RemediationJob cancel(Principal principal, JobId id, String reason) {
    requireApprover(principal);
    checkReason(reason);
    RemediationJob job = get(principal, id);
    if (job.status().isTerminal()) {
      throw new ConflictException("illegal_transition", "remediation job " + id + " is already "
          + job.status().wireName());
    }
    enqueue(id, "cancel", null, principal, reason, "cancel_requested", "cancellation was already requested");
    return get(principal, id);
  }

  private void enqueue(JobId id, String command, java.util.UUID stepId, Principal principal, String reason,
      String conflictCode, String conflictMessage) {
    try {
      db.tx(c -> {
        remediations.enqueue(c, id, command, stepId, principal.actor(), reason);
        remediations.nudge(c, id);
        return null;
      });
    } catch (StoreException e) {
      if (db.dialect().isUniqueViolation(e.sqlCause())) {
        throw new ConflictException(conflictCode, conflictMessage);
      }
      throw e;
    }
    wakeWorker.run();
  }

  public RemediationJob await(Principal principal, JobId id, Duration timeout) {
    get(principal, id);
    jobService.awaitTerminal(principal, id, timeout);
    return get(principal, id);
  }

  public List<AuditEntry> audit(Principal principal, JobId id) {
    get(principal, id);
    return db.read(c -> remediations.auditTrail(c, id));
  }

  public void putRecommendation(Principal principal, Recommendation recommendation) {
    List<FieldError> errors = new ArrayList<>();
    StorableText.check("id", recommendation.id(), errors);
    StorableText.check("provider", recommendation.provider(), errors);
    StorableText.check("region", recommendation.region(), errors);
    StorableText.check("resourceType", recommendation.resourceType(), errors);
    StorableText.check("resourceID", recommendation.resourceId(), errors);
    StorableText.check("action", recommendation.action(), errors);
    ValidationException.throwIfAny(errors);
    store.put(principal.orgId(), recommendation);
  }

  public List<Recommendation> recommendations(Principal principal) {
    return store.list(principal.orgId());
  }

  public List<WorkflowTemplate> templates() {
    return templates.all();
  }

  private static List<String> permissions(TemplateStep step, RemediationActions actions, String type) {
    return switch (step.kind()) {
      case PRECONDITION, VALIDATE -> List.of(actions.permission("observe", type));
      case EXECUTE -> List.of(actions.permission(step.action(), type));
      case PAUSE_SERVICE -> List.of(actions.permission("pause", type));
      case APPROVAL -> List.of();
    };
  }

  private static void requireApprover(Principal principal) {
    if (!Policies.allows(principal, Policies.REMEDIATION_APPROVE)) {
      throw new ForbiddenException(principal.actor() + " may not decide remediation steps; that needs the "
          + Principal.ADMIN + " or " + APPROVER_ROLE + " role");
    }
  }

  private static void checkReason(String reason) {
    if (reason != null && reason.length() > 2000) {
      throw ValidationException.of("reason", "too_long", "reason must be at most 2000 characters");
    }
    List<FieldError> errors = new ArrayList<>();
    StorableText.check("reason", reason, errors);
    ValidationException.throwIfAny(errors);
  }

  private static boolean matches(RemediationStep step, StepRef ref) {
    return ref instanceof StepRef.ById byId ? step.id().equals(byId.id())
        : step.name().equals(((StepRef.ByName) ref).name());
  }

  private static String describe(StepRef ref) {
    return ref instanceof StepRef.ById byId ? byId.id().toString() : ((StepRef.ByName) ref).name();
  }

  private static RemediationJob view(JobRecord job, List<StepRecord> steps, RemediationRepository.Details d) {
    List<RemediationStep> view = steps.stream().map(s -> new RemediationStep(s.templateStepId(), s.name(),
        StepKind.fromWire(s.kind()), s.status(), s.attempts(), s.failure(), s.startedAt(), s.finishedAt())).toList();
    return new RemediationJob(job.id(), d.recommendationId(), d.subjectType(), d.subjectId(), d.templateId(),
        d.templateVersion(), d.irreversible(), job.status(), view, job.failure(), job.createdBy(), job.createdAt(),
        job.updatedAt());
  }
}
