package dev.zop.provisioner.core.internal.spaces;

import dev.zop.provisioner.core.internal.accounts.ClusterAccessRepository;
import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.ClusterTarget;
import dev.zop.provisioner.spi.ProviderSession;

/**
 * The cluster of a space, as a component installer reaches it: the kubeconfig the space was registered with, or
 * one minted through its provider for {@code config.clusterName} while that cluster's access is registered.
 * Resolved each time it is asked for, so a short-lived token is never reused after it expires.
 */
public final class ClusterTargets {
  private final Database db;
  private final SpaceRepository spaces;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final ClusterAccessRepository clusterAccess;
  private final SecretService secrets;

  public ClusterTargets(Database db, SpaceRepository spaces, AccountRepository accounts, ProviderRegistry providers,
      ClusterAccessRepository clusterAccess, SecretService secrets) {
    this.db = db;
    this.spaces = spaces;
    this.accounts = accounts;
    this.providers = providers;
    this.clusterAccess = clusterAccess;
    this.secrets = secrets;
  }

  /**
   * A kubeconfig for the space's {@code config.clusterName}, minted through its provider while the cluster's
   * access is registered on the space's account.
   */
  public Kubeconfig mint(String orgId, Space space) {
    String cluster = space.config().get("clusterName");
    if (cluster == null || cluster.isBlank()) {
      throw new ConflictException("no_cluster", "space " + space.id() + " names no cluster (config.clusterName)");
    }
    String region = space.region() == null ? "" : space.region();
    CloudAccount account = db.read(c -> accounts.find(c, orgId, space.cloudAccountId()));
    if (db.read(c -> clusterAccess.find(c, orgId, account.id(), region, cluster)) == null) {
      throw new ConflictException("cluster_access_revoked", "cluster " + cluster + " in " + space.region()
          + " is not registered on account " + account.id() + "; register its access first");
    }
    ProviderSession session = providers.session(account, space);
    ClusterAccess access = session.clusterAccess();
    if (access == null) {
      throw new ConflictException("unsupported", "provider " + space.provider() + " cannot mint kubeconfigs");
    }
    return ProviderCalls.classified(session, () -> access.mint(cluster));
  }

  public ClusterTarget of(String orgId, SpaceId id) {
    return new ClusterTarget() {
      @Override
      public String kubeconfig() throws Exception {
        Space space = space();
        String ref = space.config().get(SpaceService.KUBECONFIG_REF);
        if (ref != null) {
          return secrets.resolveForEngine(SecretRef.of(ref));
        }
        return mint(orgId, space).yaml();
      }

      @Override
      public String description() {
        return "space " + id;
      }

      @Override
      public boolean named() {
        Space space = space();
        String cluster = space.config().get("clusterName");
        return space.config().containsKey(SpaceService.KUBECONFIG_REF) || cluster != null && !cluster.isBlank();
      }

      private Space space() {
        Space space = db.read(c -> spaces.find(c, orgId, id));
        if (space == null) {
          throw new NotFoundException("space", id);
        }
        return space;
      }
    };
  }
}
