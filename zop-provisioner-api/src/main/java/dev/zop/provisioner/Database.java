package dev.zop.provisioner;

import java.time.Instant;

/**
 * A logical database on a datastore job's server, with its owner's login. Holds the connection metadata and a
 * reference to the owner's password, never the password.
 *
 * @param engine {@code postgres} or {@code mysql}
 */
public record Database(
    DatabaseId id,
    JobId jobId,
    String name,
    String owner,
    DatabaseStatus status,
    String engine,
    String host,
    int port,
    SecretRef secretRef,
    String createdBy,
    Instant createdAt) {}
