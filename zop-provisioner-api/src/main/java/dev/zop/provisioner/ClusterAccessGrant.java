package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;

/**
 * A cluster registered on a cloud account for kubeconfig minting. Spaces naming the cluster can mint kubeconfigs
 * only while it is registered; a cluster job registers the cluster it creates.
 */
@NullMarked
public record ClusterAccessGrant(CloudAccountId accountId, String region, String clusterName, String registeredBy,
    Instant registeredAt) {
  public ClusterAccessGrant {
    Objects.requireNonNull(accountId, "accountId");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(clusterName, "clusterName");
    Objects.requireNonNull(registeredBy, "registeredBy");
    Objects.requireNonNull(registeredAt, "registeredAt");
  }
}
