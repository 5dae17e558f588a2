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

  private static String reason(Call call) {
    return call.hasBody() ? call.body(Decision.class).reason() : null;
  }
}
