package dev.zop.provisioner.core.internal.spaces;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Json;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;

/**
 * SQL for {@code deployment_spaces}. Every read is scoped to an organisation. Of a space's columns only its status
 * (and {@code updated_at} with it) changes once the row is written: submits keep a space they found active for a
 * second and check only that it still is when they write their job (JobService). A change to any other column
 * must reach them too.
 */
public final class SpaceRepository {
  private static final String COLUMNS =
      "id, name, provider, space_type, cloud_account_id, status, config, created_at, updated_at";

  public void insert(Connection c, String orgId, Space space, String createdByJob) throws SQLException {
    Database.update(c, "INSERT INTO deployment_spaces (id, org_id, name, provider, space_type, cloud_account_id,"
            + " status, config, created_by_job, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        space.id().value(), orgId, space.name(), space.provider(), space.spaceType(),
        space.cloudAccountId().value(), space.status(), Json.write(space.config()), createdByJob,
        space.createdAt(), space.updatedAt());
  }

  public Space find(Connection c, String orgId, SpaceId id) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM deployment_spaces WHERE org_id = ? AND id = ?",
        SpaceRepository::map, orgId, id.value());
  }

  /**
   * A space by its key alone, its organisation compared after (without statistics PostgreSQL may cost the
   * organisation's index like the key's), with its account if that is the caller's organisation's.
   */
  private static final String WITH_ACCOUNT = "SELECT s.org_id AS space_org, "
      + Database.qualified(COLUMNS, "s", "") + ", " + AccountRepository.columns("a", "account_")
      + " FROM deployment_spaces s LEFT JOIN cloud_accounts a ON a.id = s.cloud_account_id AND a.org_id = ?"
      + " WHERE s.id = ?";

  /** A space and its account, as one read. */
  public record WithAccount(Space space, CloudAccount account) {}

  /**
   * The organisation's space with its account in one round trip (a submit reads both before anything else); null
   * when there is no such space, an account of null when the space's account is gone.
   */
  public WithAccount findWithAccount(Connection c, String orgId, SpaceId id) throws SQLException {
    return Database.queryOne(c, WITH_ACCOUNT,
        rs -> orgId.equals(rs.getString("space_org"))
            ? new WithAccount(map(rs), AccountRepository.map(rs, "account_")) : null,
        orgId, id.value());
  }

  public Space findByName(Connection c, String orgId, String name) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM deployment_spaces WHERE org_id = ? AND name = ?",
        SpaceRepository::map, orgId, name);
  }

  public List<Space> list(Connection c, String orgId) throws SQLException {
    return Database.query(c,
        "SELECT " + COLUMNS + " FROM deployment_spaces WHERE org_id = ? ORDER BY created_at DESC, id DESC",
        SpaceRepository::map, orgId);
  }

  public boolean setStatus(Connection c, String orgId, SpaceId id, SpaceStatus status, Instant now)
      throws SQLException {
    return Database.update(c,
        "UPDATE deployment_spaces SET status = ?, updated_at = ? WHERE org_id = ? AND id = ?",
        status, now, orgId, id.value()) == 1;
  }

  /**
   * Deletes the space unless a job that is not yet deleted remains in it; the check and the delete are one
   * statement, so a job submitted at the same moment cannot slip in between.
   */
  public boolean deleteIfEmpty(Connection c, String orgId, SpaceId id) throws SQLException {
    return Database.update(c, "DELETE FROM deployment_spaces WHERE org_id = ? AND id = ? AND NOT EXISTS"
            + " (SELECT 1 FROM provisioning_jobs j WHERE j.space_id = ? AND j.status <> 'deleted')",
        orgId, id.value(), id.value()) == 1;
  }

  /** Whether the space holds jobs that are not deleted. */
  public boolean holdsJobs(Connection c, SpaceId id) throws SQLException {
    return Database.queryOne(c, "SELECT 1 FROM provisioning_jobs WHERE space_id = ? AND status <> 'deleted'"
        + " FETCH FIRST 1 ROWS ONLY", rs -> Boolean.TRUE, id.value()) != null;
  }

  /** The space a cluster job registered, if the job created one. */
  public SpaceId findCreatedBy(Connection c, String jobId) throws SQLException {
    return Database.queryOne(c, "SELECT id FROM deployment_spaces WHERE created_by_job = ?",
        rs -> SpaceId.of(rs.getString(1)), jobId);
  }

  public void deleteCreatedBy(Connection c, String jobId) throws SQLException {
    Database.update(c, "DELETE FROM deployment_spaces WHERE created_by_job = ? AND NOT EXISTS"
        + " (SELECT 1 FROM provisioning_jobs j WHERE j.space_id = deployment_spaces.id AND j.status <> 'deleted')",
        jobId);
  }

  private static Space map(ResultSet rs) throws SQLException {
    return new Space(SpaceId.of(rs.getString("id")), rs.getString("name"), rs.getString("provider"),
        rs.getString("space_type"), CloudAccountId.of(rs.getString("cloud_account_id")),
        SpaceStatus.fromWire(rs.getString("status")), Json.stringMap(rs.getString("config")),
        Database.instant(rs, "created_at"), Database.instant(rs, "updated_at"));
  }
}
