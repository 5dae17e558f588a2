package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.jobs.Decision;
import dev.zop.provisioner.core.internal.jobs.DecisionStep;
import dev.zop.provisioner.core.internal.jobs.JobRecord;
import dev.zop.provisioner.core.internal.jobs.Journal;
import dev.zop.provisioner.core.internal.jobs.StepRecord;
import dev.zop.provisioner.core.internal.jobs.Workflow;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.remediation.StepKind;
import dev.zop.provisioner.remediation.TemplateStep;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.spi.Notifier;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.RemediationActions;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Remediation jobs as the engine's runner sees them: each template step becomes a step (an approval a
 * {@link DecisionStep} that reads the decisions people queued), a queued cancel is the workflow's cancel request,
 * and the journal writes the audit trail. The journal is the audit trail's only writer, and it writes in the
 * runner's fenced transactions, with the transition each entry records.
 */
public final class RemediationWorkflows implements Workflow.Source {
  private static final String SYSTEM = "system";
  private static final Set<String> TRANSITIONAL = Set.of("starting", "stopping", "pausing");
  private static final String CANCEL = "cancel";
  private static final String APPROVE = "approve";

  private final Database db;
  private final RemediationRepository remediations;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final TemplateRegistry templates;
  private final Notifier notifier;
  private final NotificationRules rules;

  public RemediationWorkflows(Database db, RemediationRepository remediations, AccountRepository accounts,
      ProviderRegistry providers, TemplateRegistry templates, Notifier notifier, NotificationRules rules) {
    this.db = db;
    this.remediations = remediations;
    this.accounts = accounts;
    this.providers = providers;
    this.templates = templates;
    this.notifier = notifier;
    this.rules = rules;
  }

  @Override
  public Workflow open(JobRecord job, List<StepRecord> rows) {
    RemediationRepository.Details details = db.read(c -> remediations.details(c, job.id()));
    WorkflowTemplate template = templates.find(details.templateId());
    ProviderSession session = providers.session(job.accountId(), job.region(),
        () -> db.read(c -> accounts.findAnyOrg(c, job.accountId())));
    RemediationActions actions = session.remediationActions();
    List<Step> steps = new ArrayList<>();
    for (StepRecord row : rows) {
      TemplateStep step = templateStep(template, row);
      steps.add(step.kind() == StepKind.APPROVAL ? new Approval(job, row, step)
          : new Action(row.name(), step, details, actions));
    }
    AuditJournal journal = new AuditJournal(details);
    return new Workflow() {
      @Override
      public ProviderSession session() {
        return session;
      }

      @Override
      public List<Step> steps() {
        return steps;
      }

      @Override
      public Decision.Request cancelRequested() {
        return db.read(c -> remediations.pending(c, job.id())).stream()
            .filter(command -> command.command().equals(CANCEL)).findFirst().map(RemediationWorkflows::request)
            .orElse(null);
      }

      @Override
      public Journal journal() {
        return journal;
      }
    };
  }

  private static Decision.Request request(RemediationRepository.Command command) {
    return new Decision.Request(command.seq(), command.actor(), command.reason());
  }

  /** An approval: decided by the first approve or reject queued for it. */
  private final class Approval implements DecisionStep {
    private final JobRecord job;
    private final StepRecord row;
    private final TemplateStep step;

    Approval(JobRecord job, StepRecord row, TemplateStep step) {
      this.job = job;
      this.row = row;
      this.step = step;
    }

    @Override
    public String name() {
      return row.name();
    }

    @Override
    public Duration timeout() {
      return step.timeout();
    }

    @Override
    public Decision decide(StepContext context) {
      RemediationRepository.Command command = db.read(c -> remediations.pending(c, job.id())).stream()
          .filter(cmd -> row.templateStepId().equals(cmd.stepId())).findFirst().orElse(null);
      if (command == null) {
        return new Decision.Pending(step.message());
      }
      return command.command().equals(APPROVE) ? new Decision.Approved(request(command))
          : new Decision.Rejected(request(command));
    }
  }

  /** A step that acts on the cloud through the provider's remediation actions. */
  private static final class Action implements Step {
    private final String name;
    private final TemplateStep step;
    private final RemediationRepository.Details details;
    private final RemediationActions actions;

    Action(String name, TemplateStep step, RemediationRepository.Details details, RemediationActions actions) {
      this.name = name;
      this.step = step;
      this.details = details;
      this.actions = actions;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public List<String> permissions() {
      return List.of();
    }

    @Override
    public StepResult run(StepContext context) throws Exception {
      String type = details.resourceType();
      String id = details.resourceId();
      switch (step.kind()) {
        case PRECONDITION -> {
          String state = actions.observe(type, id);
          if (!state.equals(step.expectedState())) {
            return StepResult.fail(Failure.userAction("precondition_failed", type + " " + id + " is " + state
                    + ", not " + step.expectedState() + "; nothing was changed",
                "Check whether the recommendation still applies; it may already have been acted on.", null));
          }
        }
        case EXECUTE -> {
          if ("start".equals(step.action())) {
            actions.start(type, id);
          } else if ("stop".equals(step.action())) {
            actions.stop(type, id);
          } else {
            return StepResult.fail(Failure.system("unsupported_action",
                "execute does only start and stop, not " + step.action()));
          }
        }
        case PAUSE_SERVICE -> actions.pause(type, id);
        case VALIDATE -> {
          String state = actions.observe(type, id);
          if (TRANSITIONAL.contains(state)) {
            // the cloud is still carrying the change out: check again after a backoff
            return StepResult.fail(Failure.transientFailure("still_changing", type + " " + id + " is " + state));
          }
          if (!state.equals(step.expectedState())) {
            return StepResult.fail(Failure.system("validation_failed", "the cloud accepted the change but " + type
                + " " + id + " is " + state + ", not " + step.expectedState()));
          }
        }
        case APPROVAL -> throw new IllegalStateException("approvals are decided, not run");
      }
      return StepResult.done();
    }
  }

  /** The audit trail's one writer, and the notifications that announce what it records. */
  private final class AuditJournal implements Journal {
    private final RemediationRepository.Details details;

    AuditJournal(RemediationRepository.Details details) {
      this.details = details;
    }

    @Override
    public void started(Connection c, JobRecord job) throws SQLException {
      remediations.audit(c, job.id(), null, null, "created", job.createdBy(),
          "template " + details.templateId() + " v" + details.templateVersion());
    }

    @Override
    public void succeeded(Connection c, JobRecord job, StepRecord step, Decision.Request approvedBy)
        throws SQLException {
      if (approvedBy == null) {
        remediations.audit(c, job.id(), step.templateStepId(), step.name(), "completed", SYSTEM, null);
      } else {
        remediations.applied(c, approvedBy.ref());
        remediations.audit(c, job.id(), step.templateStepId(), step.name(), "approved", approvedBy.actor(),
            approvedBy.reason());
      }
    }

    @Override
    public void failed(Connection c, JobRecord job, StepRecord step, Failure failure) throws SQLException {
      remediations.audit(c, job.id(), step.templateStepId(), step.name(), "failed", SYSTEM,
          failure.category().wireName() + " " + failure.code() + ": " + failure.message());
    }

    @Override
    public void cancelled(Connection c, JobRecord job, StepRecord step, Decision.Request by, String reason)
        throws SQLException {
      if (by != null) {
        remediations.applied(c, by.ref());
      }
      String actor = by == null ? SYSTEM : by.actor();
      if (step == null) {
        remediations.audit(c, job.id(), null, null, "cancelled", actor, reason);
      } else {
        remediations.audit(c, job.id(), step.templateStepId(), step.name(), "rejected", actor, reason);
      }
    }

    @Override
    public void awaitingDecision(JobRecord job, StepRecord step, String message) {
      notifier.send(new Notification("remediation.approval_required", job.orgId(), "org-admins", job.id(),
          Map.of("step", step.name(), "stepId", step.templateStepId().toString(), "message",
              message == null ? "" : message, "job", job.name())));
    }

    @Override
    public void ended(JobRecord job, JobStatus status, Failure failure) {
      if (!rules.notifyTerminal() || (status != JobStatus.SUCCEEDED && status != JobStatus.FAILED)) {
        return;
      }
      notifier.send(new Notification(failure == null ? "remediation.succeeded" : "remediation.failed",
          job.orgId(), "org-admins", job.id(), failure == null
          ? Map.of("resource", details.resourceId(), "template", details.templateId())
          : Map.of("resource", details.resourceId(), "template", details.templateId(),
              "category", failure.category().wireName(), "code", failure.code())));
    }
  }

  private static TemplateStep templateStep(WorkflowTemplate template, StepRecord row) {
    if (template != null) {
      for (TemplateStep step : template.steps()) {
        if (step.id().equals(row.templateStepId())) {
          return step;
        }
      }
    }
    throw new IllegalStateException("the template no longer has step " + row.name() + " (" + row.templateStepId()
        + "); register a template revision that keeps its step ids");
  }
}
