package dev.zop.provisioner;

import java.time.Instant;

/**
 * A cluster registered on a cloud account for kubeconfig minting. Spaces naming the cluster can mint kubeconfigs
 * only while it is registered; a cluster job registers the cluster it creates.
 */
public record ClusterAccessGrant(CloudAccountId accountId, String region, String clusterName, String registeredBy,
    Instant registeredAt) {}
