package dev.zop.provisioner.spi;

import dev.zop.provisioner.spec.ResourceSpec;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What an import found in the cloud ({@link ResourceDriver#findExisting}): the config the resources have, the job's
 * outputs as its create steps would have recorded them, and who owns them.
 *
 * @param config the config the resources have now, as a job's config would say it
 * @param outputs the job's output entries for them, as {@link ResourceDriver#outputKeys} declares them
 * @param resources the resources, as the cloud names them
 * @param ownerJobId the job the cloud's tags say owns them, or null when none does
 */
public record Adoption<S extends ResourceSpec>(S config, Map<String, String> outputs, List<String> resources,
    String ownerJobId) {
  public Adoption {
    Objects.requireNonNull(config, "config");
    outputs = Map.copyOf(outputs);
    resources = List.copyOf(resources);
  }
}
