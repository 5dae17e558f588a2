package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spec.RegistrySpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** A job's row, and the account row it names, written straight to a store for tests of the rows' writers. */
final class TestJobRows {
  private TestJobRows() {}

  /** A new registry job of organisation {@code acme} with no steps, in {@code status}. */
  static JobId insert(Database db, JobRepository jobs, JobStatus status) {
    JobId id = JobId.random();
    Instant now = Instant.now();
    db.tx(c -> {
      Database.update(c, "INSERT INTO cloud_accounts (id, org_id, provider, name, credentials_ref, properties,"
          + " created_at) VALUES (?, 'acme', 'sim', ?, NULL, '{}', CURRENT_TIMESTAMP)", "ca_" + id.value(), id.value());
      jobs.insert(c, new JobRecord(id, "acme", null, JobType.PROVISIONING, JobKind.REGISTRY, "r", Map.of(), "sim",
          CloudAccountId.of("ca_" + id.value()), "sim-east-1", RegistrySpec.named("r"), status, JobPhase.CREATE,
          Map.of(), null, "alice", now, now, null, 0, null), null, null, List.of());
      return null;
    });
    return id;
  }
}
