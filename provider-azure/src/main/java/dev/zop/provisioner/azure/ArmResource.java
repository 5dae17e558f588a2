package dev.zop.provisioner.azure;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One ARM resource a step makes right, read fresh each time: ARM's PUT is idempotent and replaces the resource's
 * settings with the body, so a step that finds the resource missing, or its own with settings that drifted,
 * sends the PUT again, and a step that finds it still provisioning waits on the next poll — holding no thread.
 * A resource of the same name that another job (or nobody) made is refused, never taken over.
 *
 * @param what  how failures and waits name it ("load balancer")
 * @param find  the resource, or null when ARM has none of that name
 * @param tags  its tags
 * @param state its {@code provisioningState}
 */
record ArmResource<T>(String what, String name, Supplier<T> find, Function<T, Map<String, String>> tags,
    Function<T, Object> state) {

  /**
   * Sends {@code put} when the resource is missing, or is ours and {@code current} says its settings are not the
   * spec's; done with {@code outputs} once it reads {@code Succeeded}.
   */
  StepResult ensure(StepContext ctx, StatusPoll poll, Runnable put, Predicate<T> current,
      Function<T, Map<String, String>> outputs) {
    T existing = find.get();
    if (existing != null) {
      Failure foreign = AzureTags.OWNER.refuseForeign(tags.apply(existing), ctx, what, name);
      if (foreign != null) {
        return StepResult.fail(foreign);
      }
    }
    String provisioning = existing == null ? null : String.valueOf(state.apply(existing));
    boolean settled = provisioning == null || provisioning.equalsIgnoreCase("Succeeded")
        || provisioning.equalsIgnoreCase("Failed");
    if (existing == null || settled && !current.test(existing)) {
      put.run();
      existing = find.get();
      if (existing == null) {
        return poll.waitFor(ctx, what + " " + name + " is being created");
      }
      provisioning = String.valueOf(state.apply(existing));
    }
    if (provisioning.equalsIgnoreCase("Failed")) {
      return StepResult.fail(Failure.userAction("provisioning_failed", what + " " + name + " failed to provision",
          "See the resource's activity log in the portal, then retry the job.", "https://portal.azure.com/#resource"
              + idOf(existing) + "/overview"));
    }
    if (!provisioning.equalsIgnoreCase("Succeeded")) {
      return poll.waitFor(ctx, what + " " + name + " is " + provisioning);
    }
    return StepResult.done(outputs.apply(existing));
  }

  /** Deletes the resource if it is ours, and waits until ARM no longer has it. */
  StepResult remove(StepContext ctx, StatusPoll poll, Runnable delete) throws Exception {
    return poll.deleteAndWait(ctx, what + " " + name, find::get, r -> AzureTags.OWNER.owns(tags.apply(r), ctx),
        r -> "Deleting".equalsIgnoreCase(String.valueOf(state.apply(r))), r -> delete.run());
  }

  private static String idOf(Object resource) {
    return resource instanceof com.azure.core.management.Resource r ? r.id() : "";
  }
}
