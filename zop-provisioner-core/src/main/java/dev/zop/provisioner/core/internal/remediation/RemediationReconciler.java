package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.RetryPolicy;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.jobs.FencedWriter;
import dev.zop.provisioner.core.internal.jobs.JobEngine;
import dev.zop.provisioner.core.internal.jobs.JobRecord;
import dev.zop.provisioner.core.internal.jobs.JobRepository;
import dev.zop.provisioner.core.internal.jobs.Lease;
import dev.zop.provisioner.core.internal.jobs.LeaseLostException;
import dev.zop.provisioner.core.internal.jobs.OutcomeRule;
import dev.zop.provisioner.core.internal.jobs.StatusTransitions;
import dev.zop.provisioner.core.internal.jobs.StepRecord;
import dev.zop.provisioner.core.internal.jobs.WorkflowRunner;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.remediation.StepKind;
import dev.zop.provisioner.remediation.TemplateStep;
import dev.zop.provisioner.remediation.WorkflowTemplate;
import dev.zop.provisioner.spi.Notification;
import dev.zop.provisioner.spi.Notifier;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceController;
import dev.zop.provisioner.spi.StepResult;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs remediation jobs: applies the commands callers queued (approve, reject, cancel), dispatches each step
 * by kind, and is the only writer of the audit trail. Like provisioning steps, every write is fenced by the
 * job's lease, and a job waiting for a person holds no thread.
 */
public final class RemediationReconciler implements WorkflowRunner {
  private static final Logger LOG = LoggerFactory.getLogger(RemediationReconciler.class);
  private static final String SYSTEM = "system";
  private static final Set<String> TRANSITIONAL = Set.of("starting", "stopping", "pausing");

  private final Database db;
  private final JobRepository jobs;
  private final StatusTransitions transitions;
  private final RemediationRepository remediations;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final TemplateRegistry templates;
  private final RetryPolicy retryPolicy;
  private final Notifier notifier;
  private final NotificationRules rules;
  private final FencedWriter writer;

  public RemediationReconciler(JobEngine.Parts parts, RemediationRepository remediations,
      AccountRepository accounts, ProviderRegistry providers, TemplateRegistry templates, Notifier notifier,
      NotificationRules rules) {
    this.db = parts.db();
    this.transitions = new StatusTransitions(parts.jobs(), db.dialect());
    this.jobs = parts.jobs();
    this.remediations = remediations;
    this.accounts = accounts;
    this.providers = providers;
    this.templates = templates;
    this.retryPolicy = parts.retryPolicy();
    this.notifier = notifier;
    this.rules = rules;
    this.writer = parts.writer();
  }

  @Override
  public void run(Lease lease, JobRecord job, List<StepRecord> steps) {
    RemediationRepository.Details details = db.read(c -> remediations.details(c, job.id()));
    WorkflowTemplate template = templates.find(details.templateId());
    JobStatus status = job.status();
    if (status == JobStatus.PENDING) {
      writer.write(lease, c -> {
        transitions.move(c, job.id(), StatusTransitions.Move.start(JobStatus.PENDING, JobStatus.RUNNING, "started"));
        remediations.audit(c, job.id(), null, null, "created", job.createdBy(),
            "template " + details.templateId() + " v" + details.templateVersion());
      });
      status = JobStatus.RUNNING;
    }
    ProviderSession session = providers.session(job.accountId(), job.region(),
        () -> db.read(c -> accounts.findAnyOrg(c, job.accountId())));
    ResourceController controller = session.controller();

    for (StepRecord row : steps) {
      if (row.status() == StepStatus.SUCCEEDED) {
        continue;
      }
      List<RemediationRepository.Command> commands = db.read(c -> remediations.pending(c, job.id()));
      RemediationRepository.Command cancel = commands.stream().filter(cmd -> cmd.command().equals("cancel"))
          .findFirst().orElse(null);
      if (cancel != null) {
        JobStatus from = status;
        writer.write(lease, c -> {
          remediations.applied(c, cancel.seq());
          finish(c, job, from, JobStatus.CANCELLED, null);
          remediations.audit(c, job.id(), null, null, "cancelled", cancel.actor(), cancel.reason());
        });
        lease.markReleased();
        return;
      }
      TemplateStep step = templateStep(template, row);
      if (step.kind() == StepKind.APPROVAL) {
        if (!decide(lease, job, row, step, commands, status)) {
          return;
        }
        status = JobStatus.RUNNING;
        continue;
      }
      int attempt = row.attempts() + 1;
      writer.write(lease, c -> {
        transitions.startStep(c, row.id(), true);
        jobs.appendEvent(c, job.id(), JobEventType.STEP_STARTED, row.name(), JobStatus.RUNNING, "attempt " + attempt);
      });
      Failure failure = perform(step, details, controller, session);
      // the engine's one rule decides what follows, as for a provisioning step (no kind's time limit applies)
      int at = steps.indexOf(row);
      StepStatus following = at + 1 < steps.size() ? steps.get(at + 1).status() : null;
      OutcomeRule.Transition next = OutcomeRule.decide(new OutcomeRule.Situation(row.name(), JobPhase.CREATE,
              following, attempt, Instant.now(), null, false),
          failure == null ? StepResult.done() : StepResult.fail(failure), retryPolicy, Instant.now(),
          ThreadLocalRandom.current().nextDouble());
      if (next instanceof OutcomeRule.Transition.Advance || next instanceof OutcomeRule.Transition.Complete) {
        writer.write(lease, c -> {
          transitions.updateStep(c, row.id(), StepStatus.SUCCEEDED, Map.of(), null, true);
          remediations.audit(c, job.id(), row.templateStepId(), row.name(), "completed", SYSTEM, null);
          jobs.appendEvent(c, job.id(), JobEventType.STEP_SUCCEEDED, row.name(), JobStatus.RUNNING, null);
        });
      } else if (next instanceof OutcomeRule.Transition.Retry retry) {
        long delay = retry.after().toMillis();
        writer.write(lease, c -> {
          transitions.updateStep(c, row.id(), StepStatus.PENDING, Map.of(), failure, false);
          jobs.schedule(c, job.id(), delay, db.dialect());
          jobs.appendEvent(c, job.id(), JobEventType.STEP_RETRYING, row.name(), JobStatus.RUNNING,
              failure.code() + ": " + failure.message() + " (retrying in " + delay + " ms)");
        });
        lease.markReleased();
        return;
      } else {
        writer.write(lease, c -> {
          transitions.updateStep(c, row.id(), StepStatus.FAILED, Map.of(), failure, true);
          remediations.audit(c, job.id(), row.templateStepId(), row.name(), "failed", SYSTEM,
              failure.category().wireName() + " " + failure.code() + ": " + failure.message());
          jobs.appendEvent(c, job.id(), JobEventType.STEP_FAILED, row.name(), JobStatus.FAILED, failure.message());
          finish(c, job, JobStatus.RUNNING, JobStatus.FAILED, failure);
        });
        lease.markReleased();
        terminal(job, details, "remediation.failed", failure);
        return;
      }
    }
    writer.write(lease, c -> finish(c, job, JobStatus.RUNNING, JobStatus.SUCCEEDED, null));
    lease.markReleased();
    terminal(job, details, "remediation.succeeded", null);
  }

  /**
   * Applies a decision on an approval step, or parks the job until one comes. Returns true when approved and
   * the workflow continues.
   */
  private boolean decide(Lease lease, JobRecord job, StepRecord row, TemplateStep step,
      List<RemediationRepository.Command> commands, JobStatus status) {
    RemediationRepository.Command decision = commands.stream()
        .filter(cmd -> row.templateStepId().equals(cmd.stepId())).findFirst().orElse(null);
    if (decision != null && decision.command().equals("approve")) {
      writer.write(lease, c -> {
        remediations.applied(c, decision.seq());
        if (status == JobStatus.AWAITING_USER) {
          transitions.move(c, job.id(), StatusTransitions.Move.start(status, JobStatus.RUNNING,
              "resumed: " + row.name() + " approved"));
        }
        transitions.updateStep(c, row.id(), StepStatus.SUCCEEDED, Map.of(), null, true);
        remediations.audit(c, job.id(), row.templateStepId(), row.name(), "approved", decision.actor(),
            decision.reason());
        jobs.appendEvent(c, job.id(), JobEventType.STEP_SUCCEEDED, row.name(), JobStatus.RUNNING,
            "approved by " + decision.actor());
      });
      return true;
    }
    if (decision != null) {
      writer.write(lease, c -> {
        remediations.applied(c, decision.seq());
        transitions.updateStep(c, row.id(), StepStatus.FAILED, Map.of(), null, true);
        remediations.audit(c, job.id(), row.templateStepId(), row.name(), "rejected", decision.actor(),
            decision.reason());
        finish(c, job, status, JobStatus.CANCELLED, null);
      });
      lease.markReleased();
      return false;
    }
    Instant deadline = step.timeout() == null || row.startedAt() == null ? null : row.startedAt().plus(step.timeout());
    if (deadline != null && !Instant.now().isBefore(deadline)) {
      writer.write(lease, c -> {
        transitions.updateStep(c, row.id(), StepStatus.FAILED, Map.of(), null, true);
        remediations.audit(c, job.id(), row.templateStepId(), row.name(), "rejected", SYSTEM,
            "no decision within " + step.timeout());
        finish(c, job, status, JobStatus.CANCELLED, null);
      });
      lease.markReleased();
      return false;
    }
    boolean firstTime = status != JobStatus.AWAITING_USER;
    Long dueIn = step.timeout() == null ? null
        : deadline == null ? step.timeout().toMillis() : Math.max(0, Duration.between(Instant.now(), deadline).toMillis());
    writer.write(lease, c -> {
      if (row.status() != StepStatus.WAITING) {
        transitions.startStep(c, row.id(), true);
        transitions.updateStep(c, row.id(), StepStatus.WAITING, Map.of(), null, false);
      }
      if (firstTime) {
        transitions.move(c, job.id(), StatusTransitions.Move.awaitUser(status, dueIn, row.name(), step.message()));
      } else {
        jobs.park(c, job.id(), dueIn, db.dialect());
      }
    });
    lease.markReleased();
    if (firstTime) {
      notifier.send(new Notification("remediation.approval_required", job.orgId(), "org-admins", job.id(),
          Map.of("step", row.name(), "stepId", row.templateStepId().toString(), "message",
              step.message() == null ? "" : step.message(), "job", job.name())));
    }
    return false;
  }

  private Failure perform(TemplateStep step, RemediationRepository.Details details, ResourceController controller,
      ProviderSession session) {
    String type = details.resourceType();
    String id = details.resourceId();
    try {
      switch (step.kind()) {
        case PRECONDITION -> {
          String state = controller.observe(type, id);
          if (!state.equals(step.expectedState())) {
            return Failure.userAction("precondition_failed", type + " " + id + " is " + state + ", not "
                + step.expectedState() + "; nothing was changed",
                "Check whether the recommendation still applies; it may already have been acted on.", null);
          }
        }
        case EXECUTE -> {
          if ("start".equals(step.action())) {
            controller.start(type, id);
          } else if ("stop".equals(step.action())) {
            controller.stop(type, id);
          } else {
            return Failure.system("unsupported_action", "execute does only start and stop, not " + step.action());
          }
        }
        case PAUSE_SERVICE -> controller.pause(type, id);
        case VALIDATE -> {
          String state = controller.observe(type, id);
          if (TRANSITIONAL.contains(state)) {
            // the cloud is still carrying the change out: check again after a backoff
            return Failure.transientFailure("still_changing", type + " " + id + " is " + state);
          }
          if (!state.equals(step.expectedState())) {
            return Failure.system("validation_failed", "the cloud accepted the change but " + type + " " + id
                + " is " + state + ", not " + step.expectedState());
          }
        }
        case APPROVAL -> throw new IllegalStateException("approvals are decided, not performed");
      }
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LeaseLostException(details.jobId());
    } catch (Exception e) {
      if (writer.halted()) {
        throw new LeaseLostException(details.jobId());
      }
      Failure failure = session.classify(e);
      return failure != null ? failure : Failure.system("unclassified", String.valueOf(e));
    }
  }

  private void finish(Connection c, JobRecord job, JobStatus from, JobStatus to, Failure failure)
      throws SQLException {
    transitions.move(c, job.id(), StatusTransitions.Move.finish(from, to, failure,
        failure == null ? null : failure.message()));
  }

  private void terminal(JobRecord job, RemediationRepository.Details details, String template, Failure failure) {
    if (!rules.notifyTerminal()) {
      return;
    }
    notifier.send(new Notification(template, job.orgId(), "org-admins", job.id(), failure == null
        ? Map.of("resource", details.resourceId(), "template", details.templateId())
        : Map.of("resource", details.resourceId(), "template", details.templateId(),
            "category", failure.category().wireName(), "code", failure.code())));
  }

  private static TemplateStep templateStep(WorkflowTemplate template, StepRecord row) {
    if (template != null) {
      for (TemplateStep step : template.steps()) {
        if (step.id().equals(row.templateStepId())) {
          return step;
        }
      }
    }
    LOG.error("template step {} of {} is gone", row.templateStepId(), row.name());
    throw new IllegalStateException("the template no longer has step " + row.name() + " (" + row.templateStepId()
        + "); register a template revision that keeps its step ids");
  }
}
