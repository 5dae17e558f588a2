package dev.zop.provisioner;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A cloud account the engine acts in. It holds a <em>reference</em> to credentials (a secret name, a role ARN,
 * {@code default-chain}), never the credentials themselves.
 *
 * @param properties provider-specific, non-secret settings (e.g. {@code endpoint}, {@code externalId})
 */
@NullMarked
public record CloudAccount(
    CloudAccountId id, String provider, String name, @Nullable String credentialsRef,
    Map<String, String> properties,
    Instant createdAt) {

  public CloudAccount {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(createdAt, "createdAt");
    properties = Map.copyOf(properties);
  }
}
