package dev.zop.provisioner.gcp;

import com.google.cloud.compute.v1.Operation;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * How every Compute Engine resource is made and removed, once for all drivers. A resource is found by its name;
 * its description carries the owner pairs ({@link GcpOwner#description}), so a resumed step adopts only what its
 * job made; the change's operation is recorded before the step returns to wait, and read again on its next run.
 * Nothing here trusts that an earlier run finished: each run looks first.
 */
final class ComputeResources {
  private final CloudCalls calls;
  private final ComputeOperations operations;
  private final StatusPoll poll;

  ComputeResources(CloudCalls calls, ComputeOperations operations, StatusPoll poll) {
    this.calls = calls;
    this.operations = operations;
    this.poll = poll;
  }

  /** A resource to make: what it is called, where its operation runs, and how to find and insert it. */
  record Wanted<T extends Message>(String part, String type, String name, String region, Supplier<T> find,
      String insertPermission, Supplier<Operation> insert, Function<T, Map<String, String>> outputs) {}

  /**
   * Makes the resource unless it exists: done with its outputs (and {@code <part>.part}) once it is visible and
   * ours, a wait while its insert runs, a failure when its name is someone else's or the insert failed.
   */
  <T extends Message> StepResult ensure(StepContext ctx, Wanted<T> wanted) {
    String what = wanted.type() + " " + wanted.name();
    T existing = wanted.find().get();
    if (existing == null) {
      StepResult pending = operations.pending(ctx, GcpState.OPERATION.of(wanted.part()), wanted.region(), what);
      if (pending != null) {
        return pending;
      }
      String recorded = ctx.outputs().get(GcpState.OPERATION.of(wanted.part()));
      if (recorded != null && !recorded.isEmpty()) {
        // the insert this step recorded is done: the resource shows now, unless someone deleted it since
        existing = wanted.find().get();
      }
    }
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(GcpState.PART.of(wanted.part()).is(wanted.part())));
      Operation op = insertOrAdopt(wanted.insertPermission(), wanted.insert());
      if (op != null) {
        ComputeOperations.remember(ctx, GcpState.OPERATION.of(wanted.part()), op);
      }
      existing = wanted.find().get();
      if (existing == null) {
        return poll.waitFor(ctx, what + " is being created");
      }
    }
    Failure foreign = GcpOwner.TAGS.refuseForeign(owner(existing), ctx, wanted.type(), wanted.name());
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    Map<String, String> outputs = new LinkedHashMap<>(wanted.outputs().apply(existing));
    // the operation is spent: a later attempt reads the resource itself
    outputs.putAll(Map.ofEntries(GcpState.PART.of(wanted.part()).is(wanted.part()),
        GcpState.OPERATION.of(wanted.part()).is("")));
    return StepResult.done(outputs);
  }

  /** Several resources in order: the first that is not yet done decides the step's result. */
  StepResult ensureAll(StepContext ctx, List<Wanted<? extends Message>> all) {
    Map<String, String> outputs = new LinkedHashMap<>();
    for (Wanted<? extends Message> wanted : all) {
      StepResult result = ensure(ctx, wanted);
      if (!(result instanceof StepResult.Done done)) {
        return result;
      }
      outputs.putAll(done.outputs());
    }
    return StepResult.done(outputs);
  }

  /** Deletes the resource if it is there and ours, and waits until it is gone. */
  <T extends Message> StepResult remove(StepContext ctx, String what, Supplier<T> find, String deletePermission,
      Runnable delete) {
    T existing = find.get();
    if (existing == null || !GcpOwner.TAGS.owns(owner(existing), ctx)) {
      return StepResult.done(); // not ours: a name someone else holds is left alone
    }
    try {
      calls.deleteIfExists(deletePermission, delete);
    } catch (CloudCallException e) {
      // a delete accepted earlier (before a crash, or on the last poll) is still running: Compute Engine refuses
      // another with resourceNotReady while the resource stays readable
      if (!GcpErrors.isResourceNotReady(e.getCause())) {
        throw e;
      }
    }
    return find.get() == null ? StepResult.done() : poll.waitFor(ctx, what + " is being deleted");
  }

  /** Removes each in order, waiting for one to go before the next, as references between them require. */
  StepResult removeAll(List<Supplier<StepResult>> removals) {
    for (Supplier<StepResult> removal : removals) {
      StepResult result = removal.get();
      if (!(result instanceof StepResult.Done)) {
        return result;
      }
    }
    return StepResult.done();
  }

  static Map<String, String> owner(Message resource) {
    FieldDescriptor description = resource.getDescriptorForType().findFieldByName("description");
    return GcpOwner.fromDescription(description == null ? null : (String) resource.getField(description));
  }

  /** The insert's operation, or null when the name was already taken (the caller then looks at what holds it). */
  private Operation insertOrAdopt(String permission, Supplier<Operation> insert) {
    try {
      return calls.call(permission, insert);
    } catch (CloudCallException e) {
      if (GcpErrors.isAlreadyExists(e)) {
        return null;
      }
      throw e;
    }
  }
}
