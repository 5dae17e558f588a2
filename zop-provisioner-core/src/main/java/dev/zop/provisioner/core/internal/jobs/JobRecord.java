package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.spec.ResourceSpec;
import java.time.Instant;
import java.util.Map;

/** A {@code provisioning_jobs} row. */
public record JobRecord(
    JobId id,
    String orgId,
    SpaceId spaceId,
    JobType jobType,
    JobKind kind,
    String name,
    Map<String, String> tags,
    String provider,
    CloudAccountId accountId,
    String region,
    ResourceSpec spec,
    JobStatus status,
    JobPhase phase,
    Map<String, String> outputs,
    Failure failure,
    String createdBy,
    Instant createdAt,
    Instant updatedAt,
    Instant finishedAt,
    long version,
    String traceParent) {}
