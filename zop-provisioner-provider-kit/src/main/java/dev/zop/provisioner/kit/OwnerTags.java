package dev.zop.provisioner.kit;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The tags (labels) that say which job made a resource and which part of the job it is. A step puts them on at
 * creation wherever the cloud allows; a resumed step adopts a resource only when they name its own job.
 *
 * <p>The two patterns every driver's steps repeat stand here, so a step says what it makes and not how it looks
 * first: {@link #createOrAdopt} and {@link #changeInPlace}. With {@link StatusPoll#awaitReady} (wait out the
 * cloud's work) and {@link StatusPoll#deleteAndWait} (remove and wait until gone) they are a resource's whole
 * life:
 *
 * <pre>{@code
 * ProviderStep.of("create-cluster", List.of(DESCRIBE, CREATE), ctx -> OWNER.createOrAdopt(ctx, "EKS cluster",
 *     spec.name(), () -> find(spec.name()), Cluster::tags, Map.ofEntries(CLUSTER_NAME.is(spec.name())),
 *     () -> CALLS.call(CREATE, () -> eks.createCluster(...)), Map.ofEntries(CLUSTER_NAME.is(spec.name()))));
 * }</pre>
 *
 * @param jobKey the tag holding the job id, e.g. {@code zop:job} on AWS, {@code zop-job} where colons are refused
 * @param partKey the tag holding the part, e.g. {@code zop:part}
 */
public record OwnerTags(String jobKey, String partKey) {

  public OwnerTags {
    Objects.requireNonNull(jobKey, "jobKey");
    Objects.requireNonNull(partKey, "partKey");
  }

  /** The job tag alone. */
  public Map<String, String> of(StepContext context) {
    return Map.of(jobKey, context.jobId().value());
  }

  /** The job and part tags. */
  public Map<String, String> of(StepContext context, String part) {
    Map<String, String> tags = new LinkedHashMap<>();
    tags.put(jobKey, context.jobId().value());
    tags.put(partKey, part);
    return tags;
  }

  /** Whether {@code tags} say this step's job made the resource. */
  public boolean owns(Map<String, String> tags, StepContext context) {
    return tags != null && context.jobId().value().equals(tags.get(jobKey));
  }

  /**
   * The failure for a resource found under the name the job needs that the job did not make; null when the
   * resource is absent or the job's own.
   */
  public Failure refuseForeign(Map<String, String> tags, StepContext context, String type, String name) {
    if (tags == null || owns(tags, context)) {
      return null;
    }
    return Failure.userAction(FailureCodes.NAME_IN_USE,
        type + " '" + name + "' already exists and was not created by this job",
        "Choose another name, or delete the existing " + type + ", then retry the job.", null);
  }

  /** The job {@code tags} name as the owner, or null when none does. */
  public String ownerOf(Map<String, String> tags) {
    return tags == null ? null : tags.get(jobKey);
  }

  /**
   * For an import: the failure for a resource another job's tags claim; null when no job's do, or this one's (an
   * adopting step run again after a crash finds its own tag).
   */
  public Failure refuseOwned(Map<String, String> tags, StepContext context, String type, String name) {
    String owner = ownerOf(tags);
    if (owner == null || owner.equals(context.jobId().value())) {
      return null;
    }
    return Failure.userAction("owned_by_another_job", type + " '" + name + "' belongs to job " + owner,
        "Revise job " + owner + " instead, or delete it before importing.", null);
  }

  /** Asks the cloud to make a resource. */
  @FunctionalInterface
  public interface Creation {
    void create() throws Exception;
  }

  /** Asks the cloud to change a resource it found. */
  @FunctionalInterface
  public interface Change<T> {
    void change(T found) throws Exception;
  }

  /**
   * Makes a resource under {@code name} unless one is there. What is there is adopted when its tags name the
   * step's job (a resumed step finds what an earlier run made before it could record it) and refused
   * ({@link FailureCodes#NAME_IN_USE}) when they do not; when nothing is, the step records {@code intent} (durable
   * before the call, so a crash leaves the name to look for) and asks the cloud to create it. Done with
   * {@code outputs} either way: waiting until it is ready is the next step's ({@link StatusPoll#awaitReady}).
   *
   * @param type how failures name it, e.g. {@code "EKS cluster"}
   */
  public <T> StepResult createOrAdopt(StepContext context, String type, String name, StatusPoll.Lookup<T> find,
      Function<T, Map<String, String>> tagsOf, Map<String, String> intent, Creation create,
      Map<String, String> outputs) throws Exception {
    T existing = find.find();
    if (existing != null) {
      Failure foreign = refuseForeign(tagsOf.apply(existing), context, type, name);
      if (foreign != null) {
        return StepResult.fail(foreign);
      }
    } else {
      if (!intent.isEmpty()) {
        context.recordIntent(intent);
      }
      create.create();
    }
    return StepResult.done(outputs);
  }

  /**
   * Changes a resource the job made where it stands: a {@code system} failure {@code resource_missing} when it is
   * gone, a refusal when its tags do not name the step's job, and {@code change} only when {@code asWanted} says
   * it differs, so a resumed step asks nothing twice. Done: waiting until the change has settled is the next
   * step's ({@link StatusPoll#awaitReady}).
   *
   * @param type how failures name it, e.g. {@code "RDS instance"}
   */
  public <T> StepResult changeInPlace(StepContext context, String type, String name, StatusPoll.Lookup<T> find,
      Function<T, Map<String, String>> tagsOf, Predicate<T> asWanted, Change<T> change) throws Exception {
    T existing = find.find();
    if (existing == null) {
      return StepResult.fail(Failure.system("resource_missing", type + " " + name + " is gone; it cannot be"
          + " changed"));
    }
    Failure foreign = refuseForeign(tagsOf.apply(existing), context, type, name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    if (!asWanted.test(existing)) {
      change.change(existing);
    }
    return StepResult.done();
  }
}
