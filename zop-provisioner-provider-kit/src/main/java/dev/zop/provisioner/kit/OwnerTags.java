package dev.zop.provisioner.kit;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.spi.StepContext;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The tags (labels) that say which job made a resource and which part of the job it is. A step puts them on at
 * creation wherever the cloud allows; a resumed step adopts a resource only when they name its own job.
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
}
