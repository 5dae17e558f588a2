package dev.zop.provisioner;

import java.time.Instant;
import java.util.Map;

/**
 * A deployment space: a cloud account and region (and usually a cluster) that jobs are provisioned into.
 *
 * @param config provider-specific settings such as {@code region}, {@code clusterName}, {@code resourceGroup};
 *               never holds credentials
 */
public record Space(
    SpaceId id,
    String name,
    String provider,
    String spaceType,
    CloudAccountId cloudAccountId,
    SpaceStatus status,
    Map<String, String> config,
    Instant createdAt,
    Instant updatedAt) {

  public Space {
    config = Map.copyOf(config);
  }

  public String region() {
    return config.get("region");
  }
}
