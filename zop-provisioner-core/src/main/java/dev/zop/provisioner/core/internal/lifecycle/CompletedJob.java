package dev.zop.provisioner.core.internal.lifecycle;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobStatus;
import java.util.Map;

/**
 * A provisioning job as it ends.
 *
 * @param status    {@code succeeded} after create, {@code deleted} after teardown
 * @param specName  the name in the job's spec
 * @param outputs   what its steps recorded
 */
public record CompletedJob(JobId id, String orgId, dev.zop.provisioner.SpaceId spaceId, JobKind kind,
    JobStatus status, String provider, CloudAccountId accountId, String region, String specName, String createdBy,
    Map<String, String> outputs) {}
