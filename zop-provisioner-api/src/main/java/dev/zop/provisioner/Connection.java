package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A stored set of credentials an application fetches at deploy time: host, port, user and a secret reference.
 * Job-scoped connections carry the server's admin login; database-scoped ones the database owner's.
 *
 * @param databaseId the database it is scoped to, or null for a job-scoped connection
 * @param database   the database to connect to, or null for a job-scoped connection
 */
@NullMarked
public record Connection(
    ConnectionId id,
    JobId jobId,
    @Nullable DatabaseId databaseId,
    @Nullable String engine,
    @Nullable String host,
    int port,
    @Nullable String database,
    String user,
    SecretRef secretRef,
    String createdBy,
    Instant createdAt) {
  public Connection {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(secretRef, "secretRef");
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
