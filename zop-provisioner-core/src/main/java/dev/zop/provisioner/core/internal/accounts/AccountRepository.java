package dev.zop.provisioner.core.internal.accounts;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Json;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** SQL for {@code cloud_accounts}. Every read is scoped to an organisation. */
public final class AccountRepository {
  private static final String COLUMNS = "id, provider, name, credentials_ref, properties, created_at";

  public void insert(Connection c, String orgId, CloudAccount account) throws SQLException {
    Database.update(c, "INSERT INTO cloud_accounts (id, org_id, provider, name, credentials_ref, properties,"
            + " created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        account.id().value(), orgId, account.provider(), account.name(), account.credentialsRef(),
        Json.write(account.properties()), account.createdAt());
  }

  public CloudAccount find(Connection c, String orgId, CloudAccountId id) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM cloud_accounts WHERE org_id = ? AND id = ?",
        AccountRepository::map, orgId, id.value());
  }

  /** For the engine's workers, which act on a job already scoped when it was submitted. */
  public CloudAccount findAnyOrg(Connection c, CloudAccountId id) throws SQLException {
    return Database.queryOne(c, "SELECT " + COLUMNS + " FROM cloud_accounts WHERE id = ?",
        AccountRepository::map, id.value());
  }

  public List<CloudAccount> list(Connection c, String orgId) throws SQLException {
    return Database.query(c, "SELECT " + COLUMNS + " FROM cloud_accounts WHERE org_id = ?"
        + " ORDER BY created_at DESC, id DESC",
        AccountRepository::map, orgId);
  }

  private static CloudAccount map(ResultSet rs) throws SQLException {
    return map(rs, "");
  }

  /** The account's columns as {@link #COLUMNS} names them, each label prefixed (for joins); null when absent. */
  public static CloudAccount map(ResultSet rs, String prefix) throws SQLException {
    String id = rs.getString(prefix + "id");
    if (id == null) {
      return null;
    }
    return new CloudAccount(CloudAccountId.of(id), rs.getString(prefix + "provider"), rs.getString(prefix + "name"),
        rs.getString(prefix + "credentials_ref"), Json.stringMap(rs.getString(prefix + "properties")),
        Database.instant(rs, prefix + "created_at"));
  }

  /** {@link #COLUMNS} of the table aliased {@code table}, each labelled with {@code prefix}. */
  public static String columns(String table, String prefix) {
    return Database.qualified(COLUMNS, table, prefix);
  }
}
