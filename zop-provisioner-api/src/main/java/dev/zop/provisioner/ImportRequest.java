package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.Objects;

/**
 * Resources that exist in the cloud, to be taken over by a new job: named by the cloud's id for the kind's main
 * resource (a VPC id, a GKE cluster name, a virtual network name), as discovery lists them. The job reads the rest
 * (subnets, node pools) from the cloud.
 *
 * @param config what the job's config should be; the import plan shows how the cloud differs from it, and a
 *     revision to it after the import makes the cloud match
 * @param externalId the cloud's id of the kind's main resource
 */
public record ImportRequest(ResourceSpec config, @JsonProperty("externalID") String externalId) {
  public ImportRequest {
    Objects.requireNonNull(config, "config");
  }

  public static ImportRequest of(ResourceSpec config, String externalId) {
    return new ImportRequest(config, externalId);
  }
}
