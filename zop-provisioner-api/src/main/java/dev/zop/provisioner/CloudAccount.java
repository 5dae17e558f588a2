package dev.zop.provisioner;

import java.time.Instant;
import java.util.Map;

/**
 * A cloud account the engine acts in. It holds a <em>reference</em> to credentials (a secret name, a role ARN,
 * {@code default-chain}), never the credentials themselves.
 *
 * @param properties provider-specific, non-secret settings (e.g. {@code endpoint}, {@code externalId})
 */
public record CloudAccount(
    CloudAccountId id, String provider, String name, String credentialsRef, Map<String, String> properties,
    Instant createdAt) {

  public CloudAccount {
    properties = Map.copyOf(properties);
  }
}
