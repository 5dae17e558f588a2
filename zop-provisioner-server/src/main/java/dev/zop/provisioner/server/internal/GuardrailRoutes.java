package dev.zop.provisioner.server.internal;

import static dev.zop.provisioner.server.internal.Routes.job;

import dev.zop.provisioner.GuardrailId;
import dev.zop.provisioner.GuardrailRequest;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.wire.Requests.Decision;
import dev.zop.provisioner.wire.Requests.GuardrailPatch;

/** The organisation's guardrails, their versions, and the approvals of the jobs they hold. */
final class GuardrailRoutes {
  private GuardrailRoutes() {}

  static void register(Routes r) {
    String base = "/guardrails";
    r.route("POST", base, Operation.GUARDRAILS_CREATE, "Make a guardrail (version 1)", 201,
        call -> call.zop().guardrails().create(call.body(GuardrailRequest.class)));
    r.route("GET", base, Operation.GUARDRAILS_LIST, "The latest version of each guardrail not deleted, by name", 200,
        call -> call.zop().guardrails().list());
    r.route("POST", base + "/try", Operation.GUARDRAILS_TRY,
        "Try a guardrail without saving it: its verdicts on recent changes and on the jobs there are", 200,
        call -> call.zop().guardrails().tryOut(call.body(GuardrailRequest.class), lastPlans(call)));
    r.route("GET", base + "/{id}", Operation.GUARDRAILS_GET, "A guardrail's latest version", 200,
        call -> call.zop().guardrails().get(guardrail(call)));
    r.route("PATCH", base + "/{id}", Operation.GUARDRAILS_UPDATE,
        "Change a guardrail: the fields given make its next version", 200, call -> {
          GuardrailPatch patch = call.body(GuardrailPatch.class);
          if (patch.isEmpty()) {
            throw ValidationException.of("body", "empty_patch", "give at least one field to change");
          }
          return call.zop().guardrails().update(guardrail(call), patch.asRequest());
        });
    r.route("DELETE", base + "/{id}", Operation.GUARDRAILS_DELETE,
        "Delete a guardrail: a last version, no longer listed or checked; its versions stay readable", 200,
        call -> call.zop().guardrails().delete(guardrail(call)));
    r.route("GET", base + "/{id}/versions", Operation.GUARDRAILS_GET, "Every version of a guardrail, oldest first",
        200, call -> call.zop().guardrails().versions(guardrail(call)));
    r.route("GET", base + "/{id}/versions/{version}", Operation.GUARDRAILS_GET, "One version of a guardrail", 200,
        call -> call.zop().guardrails().get(guardrail(call), version(call)));
    r.route("POST", "/guardrail-exemptions", Operation.GUARDRAILS_EXEMPT,
        "Grant an exemption: one guardrail, one job or space, a reason, an expiry", 201,
        call -> call.zop().guardrails().exempt(call.body(dev.zop.provisioner.GuardrailExemptionRequest.class)));
    r.route("GET", "/guardrail-exemptions", Operation.GUARDRAILS_LIST_EXEMPTIONS,
        "The organisation's exemptions, newest first, expired and revoked ones included", 200,
        call -> call.zop().guardrails().exemptions());
    r.route("DELETE", "/guardrail-exemptions/{id}", Operation.GUARDRAILS_REVOKE_EXEMPTION,
        "Revoke an exemption: it stops applying at once and is kept", 200,
        call -> call.zop().guardrails().revokeExemption(call.path("id")));
    r.route("GET", "/guardrail-decisions", Operation.GUARDRAILS_DECISIONS,
        "The organisation's latest guardrail decisions, newest first, refusals and approvals included", 200,
        call -> call.zop().guardrails().decisions(Routes.limit(call, 100)));
    String jobs = "/provisioning-jobs/{id}";
    r.route("POST", jobs + "/approve", Operation.GUARDRAILS_DECIDE,
        "Approve a job guardrails hold awaiting approval; it is queued and runs", 200,
        call -> call.zop().guardrails().approve(job(call), reason(call)));
    r.route("POST", jobs + "/reject", Operation.GUARDRAILS_DECIDE,
        "Reject a job guardrails hold awaiting approval; it ends cancelled with nothing made", 200,
        call -> call.zop().guardrails().reject(job(call), reason(call)));
    r.route("GET", jobs + "/guardrail-decisions", Operation.GUARDRAILS_GET,
        "What guardrails decided on the job, oldest first, approvals included", 200,
        call -> call.zop().guardrails().decisions(job(call)));
  }

  private static GuardrailId guardrail(Call call) {
    return Routes.id("id", call.path("id"), GuardrailId::of);
  }

  private static int version(Call call) {
    try {
      int version = Integer.parseInt(call.path("version"));
      if (version < 1) {
        throw new NumberFormatException();
      }
      return version;
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("version", "invalid", "version must be a whole number from 1");
    }
  }

  private static int lastPlans(Call call) {
    String value = call.query("lastPlans");
    try {
      return value == null ? 100 : Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("lastPlans", "invalid", "lastPlans must be a whole number, 0..10000");
    }
  }

  private static String reason(Call call) {
    return call.hasBody() ? call.body(Decision.class).reason() : null;
  }
}
