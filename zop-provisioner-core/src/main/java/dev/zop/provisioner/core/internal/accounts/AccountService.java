package dev.zop.provisioner.core.internal.accounts;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ClusterAccessGrant;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.StorableText;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.spi.ClusterAccess;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Cloud accounts: a provider and a reference to credentials, never the credentials. */
public final class AccountService {
  private final Database db;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final ClusterAccessRepository clusterAccess;

  public AccountService(Database db, AccountRepository accounts, ProviderRegistry providers,
      ClusterAccessRepository clusterAccess) {
    this.db = db;
    this.accounts = accounts;
    this.providers = providers;
    this.clusterAccess = clusterAccess;
  }

  public CloudAccount create(Principal principal, CloudAccountRequest request) {
    List<FieldError> errors = new ArrayList<>();
    if (request.provider() == null) {
      errors.add(FieldError.required("provider"));
    } else if (providers.find(request.provider()) == null) {
      errors.add(FieldError.of("provider", "unsupported_provider",
          "no provider '" + request.provider() + "' is installed"));
    }
    if (request.name() == null) {
      errors.add(FieldError.required("name"));
    } else if (request.name().isBlank() || request.name().length() > 200) {
      errors.add(FieldError.of("name", "invalid_name", "must be 1-200 characters"));
    }
    StorableText.check("name", request.name(), errors);
    StorableText.check("credentialsRef", request.credentialsRef(), errors);
    StorableText.check("properties", request.properties(), errors);
    request.properties().keySet().forEach(key -> {
      String lower = key.toLowerCase(Locale.ROOT);
      // an endpoint is an address, even the Secret Manager API's (endpoint.secretmanager)
      boolean endpoint = lower.equals("endpoint") || lower.startsWith("endpoint.");
      if (!endpoint && (lower.contains("secret") || lower.contains("password") || lower.contains("token"))) {
        errors.add(FieldError.of("properties." + key, "sensitive_field",
            "credentials are not stored on an account; pass a reference in credentialsRef"));
      }
    });
    ValidationException.throwIfAny(errors);
    CloudAccount account = new CloudAccount(CloudAccountId.random(), request.provider(), request.name(),
        request.credentialsRef(), request.properties(), Timestamps.now());
    db.tx(c -> {
      accounts.insert(c, principal.orgId(), account);
      return null;
    });
    return account;
  }

  public CloudAccount get(Principal principal, CloudAccountId id) {
    CloudAccount account = db.read(c -> accounts.find(c, principal.orgId(), id));
    if (account == null) {
      throw new NotFoundException("cloud account", id);
    }
    return account;
  }

  public List<CloudAccount> list(Principal principal) {
    return db.read(c -> accounts.list(c, principal.orgId()));
  }

  public List<DiscoveredCluster> clusters(Principal principal, CloudAccountId id, String region) {
    CloudAccount account = get(principal, id);
    if (region == null) {
      region = account.properties().get(REGION);
      if (region == null) {
        throw ValidationException.of("region", "required", "name a region: cloud account " + account.name()
            + " has no region property to default to");
      }
    }
    ProviderSession session = providers.session(account, checkRegion(region));
    Discovery discovery = session.discovery();
    if (discovery == null) {
      throw new ConflictException("unsupported", "provider " + account.provider() + " cannot discover clusters");
    }
    return ProviderCalls.classified(session, discovery::clusters);
  }

  public ClusterAccessGrant registerClusterAccess(Principal principal, CloudAccountId id, String region,
      String clusterName) {
    if (clusterName == null || clusterName.isBlank() || clusterName.length() > 200) {
      throw ValidationException.of("clusterName", "invalid_name", "must be 1-200 characters");
    }
    boolean known = clusters(principal, id, region).stream().anyMatch(c -> c.name().equals(clusterName));
    if (!known) {
      throw new NotFoundException("cluster " + clusterName + " not found in " + region + " on account " + id);
    }
    // the cluster must accept the account's credentials before kubeconfigs are minted with them
    inCloud(principal, id, region, access -> access.grant(clusterName));
    db.tx(c -> clusterAccess.insertIfAbsent(c, principal.orgId(), id, region, clusterName, principal.actor(), null,
        Timestamps.now()));
    return db.read(c -> clusterAccess.find(c, principal.orgId(), id, region, clusterName));
  }

  public void revokeClusterAccess(Principal principal, CloudAccountId id, String region, String clusterName) {
    get(principal, id);
    if (db.read(c -> clusterAccess.find(c, principal.orgId(), id, region, clusterName)) == null) {
      throw new NotFoundException("cluster access for " + clusterName + " in " + region + " on " + id
          + " not found");
    }
    inCloud(principal, id, region, access -> access.revoke(clusterName));
    db.tx(c -> clusterAccess.delete(c, principal.orgId(), id, region, clusterName));
  }

  /** What the account's cluster access needs of the cloud itself, errors classified by its provider. */
  private void inCloud(Principal principal, CloudAccountId id, String region, AccessChange change) {
    ProviderSession session = providers.session(get(principal, id), checkRegion(region));
    ClusterAccess access = session.clusterAccess();
    if (access != null) {
      ProviderCalls.classified(session, () -> {
        change.apply(access);
        return null;
      });
    }
  }

  @FunctionalInterface
  private interface AccessChange {
    void apply(ClusterAccess access) throws Exception;
  }

  /** The account property naming its home region, which region-scoped calls default to. */
  static final String REGION = "region";

  private static String checkRegion(String region) {
    if (region == null || !region.matches("[a-z0-9][a-z0-9-]{0,63}")) {
      throw ValidationException.of("region", "invalid_value", "region must be a region name such as us-east-1");
    }
    return region;
  }
}
