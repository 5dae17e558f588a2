package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * A job's configs after its first, in {@code job_revisions}. The job's own row holds the config last applied; a
 * revision's config becomes the job's only in the write that records the revision applied, so a revision that is
 * being applied, or that failed, never reads as the job's config.
 */
final class RevisionRows {
  static final String APPLYING = "applying";
  static final String APPLIED = "applied";
  static final String FAILED = "failed";

  private RevisionRows() {}

  /**
   * A {@code job_revisions} row.
   *
   * @param firstStep the index of the revision's first update-phase step
   * @param reconcile whether the revision re-applies the config before it, putting back what drifted
   */
  record RevisionRow(int number, String config, String outcome, int firstStep, String createdBy,
      Instant createdAt, Instant finishedAt, boolean reconcile) {
    JobRevision view(JobKind kind) {
      return new JobRevision(number, kind, Json.spec(kind, config), JobRevision.Status.fromWire(outcome), createdBy,
          createdAt, finishedAt);
    }
  }

  /** The job's revisions, oldest first; empty until its config is first revised. */
  static List<RevisionRow> all(Connection c, JobId id) throws SQLException {
    return Database.query(c, "SELECT number, config, outcome, first_step, created_by, created_at, finished_at,"
            + " reconcile FROM job_revisions WHERE job_id = ? ORDER BY number",
        rs -> new RevisionRow(rs.getInt(1), rs.getString(2), rs.getString(3), rs.getInt(4), rs.getString(5),
            Database.instant(rs, "created_at"), Database.instant(rs, "finished_at"), rs.getBoolean(8)), id.value());
  }

  static void insert(Connection c, JobId id, RevisionRow row) throws SQLException {
    Database.update(c, "INSERT INTO job_revisions (job_id, number, config, outcome, first_step, created_by,"
            + " created_at, finished_at, reconcile) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", id.value(), row.number(),
        row.config(), row.outcome(), row.firstStep(), row.createdBy(), row.createdAt(), row.finishedAt(),
        row.reconcile());
  }

  /** Ends the revision being applied: {@code applied} or {@code failed}. */
  static RowWrite ended(JobId id, String outcome) {
    return new RowWrite("UPDATE job_revisions SET outcome = ?, finished_at = CURRENT_TIMESTAMP"
        + " WHERE job_id = ? AND outcome = '" + APPLYING + "'", outcome, id.value());
  }

  /**
   * Makes the config of the job's latest revision the job's own, with the write that records it applied. It names
   * the revision by its number, not its outcome, so it is right whichever of the write's statements runs first.
   */
  static RowWrite madeTheJobsConfig(JobId id) {
    return new RowWrite("UPDATE provisioning_jobs SET spec = (SELECT r.config FROM job_revisions r"
        + " WHERE r.job_id = ? AND r.number = (SELECT MAX(m.number) FROM job_revisions m WHERE m.job_id = ?))"
        + " WHERE id = ?", id.value(), id.value(), id.value());
  }

  /** A retry applies the failed revision again. */
  static void retried(Connection c, JobId id) throws SQLException {
    Database.update(c, "UPDATE job_revisions SET outcome = '" + APPLYING + "', finished_at = NULL"
        + " WHERE job_id = ? AND outcome = '" + FAILED + "'", id.value());
  }

  /** The latest revision, or null when the job's config was never revised. */
  static RevisionRow latest(List<RevisionRow> revisions) {
    return revisions.isEmpty() ? null : revisions.get(revisions.size() - 1);
  }

  /**
   * The config the job's steps last set out to make: its latest revision's, applied or not, else its own. A
   * teardown removes what that config made, with what a failed revision added before it stopped.
   */
  static ResourceSpec attempted(JobRecord job, List<RevisionRow> revisions) {
    RevisionRow latest = latest(revisions);
    return latest == null ? job.spec() : Json.spec(job.kind(), latest.config());
  }
}
