package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A logical database on a datastore job's server, with its owner's login. Holds the connection metadata and a
 * reference to the owner's password, never the password.
 *
 * @param engine {@code postgres} or {@code mysql}
 */
@NullMarked
public record Database(
    DatabaseId id,
    JobId jobId,
    String name,
    String owner,
    DatabaseStatus status,
    @Nullable String engine,
    @Nullable String host,
    int port,
    @Nullable SecretRef secretRef,
    String createdBy,
    Instant createdAt) {
  public Database {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
