package dev.zop.provisioner;

import java.time.Instant;

/**
 * A stored set of credentials an application fetches at deploy time: host, port, user and a secret reference.
 * Job-scoped connections carry the server's admin login; database-scoped ones the database owner's.
 *
 * @param databaseId the database it is scoped to, or null for a job-scoped connection
 * @param database   the database to connect to, or null for a job-scoped connection
 */
public record Connection(
    ConnectionId id,
    JobId jobId,
    DatabaseId databaseId,
    String engine,
    String host,
    int port,
    String database,
    String user,
    SecretRef secretRef,
    String createdBy,
    Instant createdAt) {}
