package dev.zop.provisioner.server.internal;

import static dev.zop.provisioner.server.internal.Routes.job;
import static dev.zop.provisioner.server.internal.Routes.limit;
import static dev.zop.provisioner.server.internal.Routes.longPoll;
import static dev.zop.provisioner.server.internal.Routes.touched;

import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.wire.Requests.Decision;
import dev.zop.provisioner.wire.Requests.StartRemediation;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Remediation workflows, their approvals and audit trail. */
final class RemediationRoutes {
  private RemediationRoutes() {}

  static void register(Routes r) {
    remediations(r);
  }

  private static void remediations(Routes r) {
    String base = "/remediation-jobs";
    r.route("POST", base, Operation.REMEDIATIONS_START,
        "Start a remediation workflow for a recommendation", 201, call -> {
      StartRemediation body = call.body(StartRemediation.class);
      List<FieldError> missing = new ArrayList<>();
      if (body.recommendationId() == null) {
        missing.add(FieldError.required("recommendationID"));
      }
      if (body.subjectId() == null) {
        missing.add(FieldError.required("subjectID"));
      }
      ValidationException.throwIfAny(missing);
      SubjectType subject = body.subjectType() == null ? SubjectType.RESOURCE : SubjectType.fromWire(body.subjectType());
      return touched(call, call.zop().remediations().start(body.recommendationId(), subject, body.subjectId()));
    });
    r.route("GET", base, Operation.REMEDIATIONS_LIST, "List remediation jobs", 200,
        call -> call.zop().remediations().list(limit(call, JobQuery.DEFAULT_LIMIT), call.query("cursor"),
            Routes.order(call)));
    r.route("GET", base + "/{id}", Operation.REMEDIATIONS_GET, "Get a remediation job", 200,
        call -> call.zop().remediations().get(job(call)));
    r.heldOpen(base + "/{id}/await", Operation.REMEDIATIONS_AWAIT,
        "Hold the request until the workflow is terminal or timeoutMs passes", call -> {
          try {
            return call.zop().remediations().await(job(call), longPoll(call));
          } catch (AwaitTimeoutException e) {
            return call.zop().remediations().get(job(call));
          }
        });
    r.route("POST", base + "/{id}/cancel", Operation.REMEDIATIONS_CANCEL, "Cancel a running or paused workflow", 200,
        call -> call.zop().remediations().cancel(job(call), reason(call)));
    r.route("POST", base + "/{jobID}/steps-by-id/{stepID}/approve", Operation.REMEDIATIONS_APPROVE,
        "Approve an approval step by its stable id", 200,
        call -> decide(call, StepRef.id(stepId(call)), true));
    r.route("POST", base + "/{jobID}/steps-by-id/{stepID}/reject", Operation.REMEDIATIONS_REJECT,
        "Reject an approval step by its stable id; the workflow ends cancelled", 200,
        call -> decide(call, StepRef.id(stepId(call)), false));
    r.route("POST", base + "/{jobID}/steps/{stepName}/approve", Operation.REMEDIATIONS_APPROVE,
        "Approve by step name (legacy form)", 200, call -> decide(call, StepRef.name(call.path("stepName")), true));
    r.route("POST", base + "/{jobID}/steps/{stepName}/reject", Operation.REMEDIATIONS_REJECT,
        "Reject by step name (legacy form)", 200, call -> decide(call, StepRef.name(call.path("stepName")), false));
    r.route("GET", base + "/{id}/audit", Operation.REMEDIATIONS_AUDIT, "The workflow's step-level audit timeline", 200,
        call -> call.zop().remediations().audit(job(call)));
    r.route("GET", "/recommendations", Operation.RECOMMENDATIONS_LIST,
        "The recommendations in the provisioner's own store, newest first", 200,
        call -> call.zop().remediations().recommendations());
    r.route("PUT", "/recommendations/{id}", Operation.RECOMMENDATIONS_PUT,
        "Record a recommendation in the provisioner's own store", 204, call -> {
          Recommendation body = call.body(Recommendation.class);
          if (!body.id().equals(call.path("id"))) {
            throw ApiError.badRequest("id", "mismatch", "the body's id must match the path's");
          }
          call.zop().remediations().putRecommendation(body);
          return null;
        });
    r.route("GET", "/remediation-templates", Operation.TEMPLATES_LIST,
        "The workflow templates recommendations resolve to",
        200, call -> call.zop().remediations().templates());
  }
  private static RemediationJob decide(Call call, StepRef step, boolean approve) {
    JobId id = Routes.parent(call);
    String reason = reason(call);
    return approve ? call.zop().remediations().approve(id, step, reason)
        : call.zop().remediations().reject(id, step, reason);
  }
  private static String reason(Call call) {
    return call.hasBody() ? call.body(Decision.class).reason() : null;
  }
  private static UUID stepId(Call call) {
    try {
      return UUID.fromString(call.path("stepID"));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest("stepID", "invalid", "stepID must be a UUID");
    }
  }
}
