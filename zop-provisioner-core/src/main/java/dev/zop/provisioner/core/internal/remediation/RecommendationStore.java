package dev.zop.provisioner.core.internal.remediation;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.spi.RecommendationSource;

/** The default recommendation source: the {@code recommendations} table, which the host fills. */
public final class RecommendationStore implements RecommendationSource {
  private final Database db;

  public RecommendationStore(Database db) {
    this.db = db;
  }

  @Override
  public Recommendation find(String orgId, String recommendationId) {
    return db.read(c -> Database.queryOne(c, "SELECT id, provider, cloud_account_id, region, resource_type,"
            + " resource_id, action FROM recommendations WHERE org_id = ? AND id = ?",
        rs -> new Recommendation(rs.getString(1), rs.getString(2), CloudAccountId.of(rs.getString(3)),
            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7)),
        orgId, recommendationId));
  }

  /** The organisation's recommendations, newest first. */
  public java.util.List<Recommendation> list(String orgId) {
    return db.read(c -> Database.query(c, "SELECT id, provider, cloud_account_id, region, resource_type,"
            + " resource_id, action FROM recommendations WHERE org_id = ? ORDER BY created_at DESC, id",
        rs -> new Recommendation(rs.getString(1), rs.getString(2), CloudAccountId.of(rs.getString(3)),
            rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7)),
        orgId));
  }

  /** Inserts or replaces a recommendation of the organisation. */
  public void put(String orgId, Recommendation r) {
    db.tx(c -> {
      Database.update(c, "DELETE FROM recommendations WHERE org_id = ? AND id = ?", orgId, r.id());
      Database.update(c, "INSERT INTO recommendations (org_id, id, provider, cloud_account_id, region,"
              + " resource_type, resource_id, action, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
          orgId, r.id(), r.provider(), r.accountId().value(), r.region(), r.resourceType(), r.resourceId(),
          r.action(), Timestamps.now());
      return null;
    });
  }
}
