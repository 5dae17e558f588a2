package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.COMPUTE_GLOBAL_OPERATIONS_GET;
import static dev.zop.provisioner.gcp.GcpPermissions.COMPUTE_REGION_OPERATIONS_GET;

import com.google.cloud.compute.v1.Operation;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.Map;

/**
 * Compute Engine's operations, looked at without holding a thread: a step records the operation a change
 * started (so a resumed step knows it), returns "wait", and reads it again on its next run. A finished operation
 * with an error is the change's failure, in Google's own words.
 */
final class ComputeOperations {
  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final StatusPoll poll;

  ComputeOperations(GcpClients clients, CloudCalls calls, String project, StatusPoll poll) {
    this.clients = clients;
    this.calls = calls;
    this.project = project;
    this.poll = poll;
  }

  /** Records the operation under {@code key} so the step's next run can find it. */
  static void remember(StepContext ctx, OutputKey<String> key, Operation op) {
    ctx.recordIntent(Map.ofEntries(key.is(op.getName())));
  }

  /**
   * Null when the operation recorded under {@code key} is done without error (or none was recorded); otherwise
   * the result the step returns now: wait while it runs, fail when it failed.
   *
   * @param region the operation's region, or null for a global operation
   */
  StepResult pending(StepContext ctx, OutputKey<String> key, String region, String what) {
    String name = ctx.outputs().get(key);
    if (name == null || name.isEmpty()) {
      return null;
    }
    Operation op = region == null
        ? calls.call(COMPUTE_GLOBAL_OPERATIONS_GET, () -> clients.globalOperations().get(project, name))
        : calls.call(COMPUTE_REGION_OPERATIONS_GET, () -> clients.regionOperations().get(project, region, name));
    if (op.getStatus() != Operation.Status.DONE) {
      return poll.waitFor(ctx, what + ": operation " + name + " is " + op.getStatus());
    }
    if (op.hasError() && op.getError().getErrorsCount() > 0) {
      // reported once: a retry after the fix starts the change again instead of reading this failure back
      ctx.recordIntent(Map.ofEntries(key.is("")));
      var first = op.getError().getErrors(0);
      String code = first.getCode();
      if (code.contains("QUOTA")) {
        return StepResult.fail(Failure.userAction(FailureCodes.QUOTA_EXCEEDED, what + ": " + first.getMessage(),
            "Request a higher quota, or remove unused resources, then retry the job.",
            "https://console.cloud.google.com/iam-admin/quotas?project=" + project));
      }
      return StepResult.fail(Failure.userAction(code.toLowerCase(java.util.Locale.ROOT), what + ": "
          + first.getMessage(), "Correct what Google names, then retry the job.", null));
    }
    return null;
  }
}
