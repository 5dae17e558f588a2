package dev.zop.provisioner.remediation;

import dev.zop.provisioner.CloudAccountId;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A recommendation from the host application: act on one resource.
 *
 * @param resourceType e.g. {@code vm}, {@code db-instance}, {@code synapse-pool}, {@code dataproc-cluster}
 * @param action       e.g. {@code stop}, {@code pause}
 */
@NullMarked
public record Recommendation(String id, String provider, CloudAccountId accountId, @Nullable String region,
    String resourceType, String resourceId, String action) {
  public Recommendation {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(resourceType, "resourceType");
    Objects.requireNonNull(resourceId, "resourceId");
    Objects.requireNonNull(action, "action");
  }
}
