package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.Guardrail;
import dev.zop.provisioner.GuardrailDecision;
import dev.zop.provisioner.GuardrailVerdict;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.core.internal.guardrails.GuardrailService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Timestamps;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A person's decision on a change guardrails hold {@code awaiting_approval}: approved, it is queued as if just
 * asked for; rejected, a new job is cancelled with nothing made, and a revision, reconcile or retry is undone: the
 * job is put back as it was before it was asked for. Only someone other than its submitter who holds the approver
 * grant of every guardrail holding it (or is an admin) may decide; of two decisions at once exactly one wins.
 */
public final class JobApprovals {
  private final Database db;
  private final JobService jobs;
  private final JobRepository rows;
  private final StatusTransitions transitions;
  private final GuardrailService guardrails;
  private final JobSignals signals;
  private final Runnable wakeWorker;

  JobApprovals(Database db, JobService jobs, JobRepository rows, GuardrailService guardrails, JobSignals signals,
      Runnable wakeWorker) {
    this.db = db;
    this.jobs = jobs;
    this.rows = rows;
    this.transitions = new StatusTransitions(rows, db.dialect());
    this.guardrails = guardrails;
    this.signals = signals;
    this.wakeWorker = wakeWorker;
  }

  public Job approve(Principal principal, JobId id, String reason) {
    return decide(principal, id, reason, true);
  }

  public Job reject(Principal principal, JobId id, String reason) {
    return decide(principal, id, reason, false);
  }

  private Job decide(Principal principal, JobId id, String reason, boolean approve) {
    Job job = jobs.get(principal, id);
    if (job.status() != JobStatus.AWAITING_APPROVAL) {
      throw new ConflictException("not_awaiting_approval", "job " + id + " is " + job.status().wireName()
          + "; only a job awaiting approval can be approved or rejected");
    }
    if (job.createdBy().equals(principal.actor())) {
      throw new ForbiddenException("self_approval", principal.actor() + " submitted job " + id
          + " and cannot decide it; someone else holding the approver grant must");
    }
    GuardrailDecision holding = holdingDecision(principal, id);
    List<GuardrailVerdict> held = holding.verdicts().stream()
        .filter(v -> v.outcome() == GuardrailVerdict.Outcome.APPROVAL_REQUIRED).toList();
    List<String> missing = new ArrayList<>();
    for (GuardrailVerdict verdict : held) {
      Guardrail g = guardrails.get(principal, verdict.guardrailId(), verdict.version());
      if (!principal.hasRole(Policies.ADMIN) && !Policies.allows(principal, g.approverGrant())) {
        missing.add(g.approverGrant() + " (guardrail " + g.name() + ")");
      }
    }
    if (!missing.isEmpty()) {
      throw new ForbiddenException("forbidden", "deciding job " + id + " needs " + String.join(", ", missing)
          + ", which " + principal.actor() + "'s roles " + principal.roles() + " do not grant");
    }
    String verb = approve ? "approved" : "rejected";
    String message = verb + " by " + principal.actor() + (reason == null || reason.isBlank() ? "" : ": " + reason);
    GuardrailDecision decision = new GuardrailDecision(UUID.randomUUID().toString(), id, job.spaceId(),
        approve ? "approve" : "reject", holding.planHash(),
        approve ? GuardrailDecision.Outcome.APPROVED : GuardrailDecision.Outcome.REJECTED,
        held.stream().map(v -> new GuardrailVerdict(v.guardrailId(), v.name(), v.version(), v.level(), v.outcome(),
            v.field(), message, null)).toList(), principal.actor(), Timestamps.now());
    db.tx(c -> {
      JobRecord current = rows.find(c, principal.orgId(), id);
      if (!rows.bumpIfUnchanged(c, id, current.version())) {
        throw new ConflictException("concurrent_change", "job " + id + " changed while it was decided; read it"
            + " again");
      }
      if (approve) {
        transitions.move(c, id, StatusTransitions.Move.requeue(JobStatus.AWAITING_APPROVAL, JobStatus.PENDING, null,
            JobEventType.GUARDRAIL_DECISION, null, message));
      } else {
        transitions.move(c, id, putBack(c, current, holding.action(), message));
      }
      Database.execute(c, guardrails.decisionRow(principal.orgId(), decision, "{}"));
      return null;
    });
    signals.changed(id);
    if (approve) {
      wakeWorker.run();
    }
    return jobs.get(principal, id);
  }

  /**
   * What a rejection moves the job to: a new job cancelled; a held retry failed again (its revision, if it retried
   * one, failed again); a held revision or reconcile removed (its row and its steps) and the job back at the status
   * its last revision left it in. The failure the job had is kept.
   */
  private StatusTransitions.Move putBack(java.sql.Connection c, JobRecord job, String action, String message)
      throws java.sql.SQLException {
    JobStatus back;
    if (action.equals("create") || action.equals("import")) {
      back = JobStatus.CANCELLED; // nothing was made or taken over
    } else if (action.equals("retry")) {
      if (job.phase() == dev.zop.provisioner.JobPhase.UPDATE) {
        Database.execute(c, RevisionRows.ended(job.id(), RevisionRows.FAILED));
      }
      back = JobStatus.FAILED;
    } else {
      List<RevisionRows.RevisionRow> revisions = RevisionRows.all(c, job.id());
      RevisionRows.RevisionRow held = revisions.get(revisions.size() - 1);
      Database.update(c, "DELETE FROM job_revisions WHERE job_id = ? AND number = ?", job.id().value(),
          held.number());
      rows.writeSteps(c, job.id(), rows.steps(c, job.id()).stream()
          .filter(s -> s.phase() != dev.zop.provisioner.JobPhase.UPDATE || s.index() < held.firstStep())
          .collect(java.util.stream.Collectors.toCollection(ArrayList::new)));
      RevisionRows.RevisionRow before = revisions.size() > 1 ? revisions.get(revisions.size() - 2) : null;
      back = before == null || RevisionRows.APPLIED.equals(before.outcome()) ? JobStatus.SUCCEEDED : JobStatus.FAILED;
    }
    return new StatusTransitions.Move(JobStatus.AWAITING_APPROVAL, back, back == JobStatus.FAILED ? job.failure()
        : null, true, StatusTransitions.Due.NEVER, null, true, null, JobEventType.GUARDRAIL_DECISION, null, message);
  }

  private GuardrailDecision holdingDecision(Principal principal, JobId id) {
    List<GuardrailDecision> all = guardrails.decisions(principal, id);
    for (int i = all.size() - 1; i >= 0; i--) {
      if (all.get(i).outcome() == GuardrailDecision.Outcome.APPROVAL_REQUIRED) {
        return all.get(i);
      }
    }
    throw new IllegalStateException("job " + id + " awaits approval but no guardrail decision holds it");
  }
}
