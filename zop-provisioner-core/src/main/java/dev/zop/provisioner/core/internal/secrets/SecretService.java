package dev.zop.provisioner.core.internal.secrets;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.secrets.SecretRefRepository.Issued;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.SecretStore;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Chooses the secret store for an account and region (the provider's when it has one, else the local store),
 * remembers which organisation and store every issued reference belongs to, and reveals values only to that
 * organisation. Only references are written to the database.
 */
public final class SecretService {
  private final Database db;
  private final LocalSecretStore local;
  private final ProviderRegistry providers;
  private final AccountRepository accounts;
  private final SecretRefRepository refs = new SecretRefRepository();

  public SecretService(Database db, LocalSecretStore local, ProviderRegistry providers, AccountRepository accounts) {
    this.db = db;
    this.local = local;
    this.providers = providers;
    this.accounts = accounts;
  }

  /** The store for secrets of {@code orgId} in an account and region; references it issues are recorded. */
  public SecretStore storeFor(String orgId, CloudAccountId accountId, String region) {
    return storeFor(orgId, accountId, region, Map.of());
  }

  /**
   * The same in a provider scope (a space's GCP project): new secrets go there. A reference names where its
   * secret lives, so it is read back through the account's store in any scope.
   */
  public SecretStore storeFor(String orgId, CloudAccountId accountId, String region, Map<String, String> scope) {
    SecretStore target = backing(accountId, region, scope);
    return new Recording(orgId, accountId, region, target);
  }

  /** The value behind a reference the organisation was issued. */
  public String reveal(Principal principal, SecretRef ref) {
    Issued issued = lookup(principal.orgId(), ref);
    if (issued == null) {
      throw new NotFoundException("secret", ref);
    }
    try {
      return store(issued).get(ref);
    } catch (NoSuchElementException e) {
      throw new NotFoundException("secret", ref);
    }
  }

  /**
   * The value behind a reference the engine itself recorded (a datastore's admin login), for the engine's own
   * use; never handed to a caller.
   */
  public String resolveForEngine(SecretRef ref) {
    Issued issued = lookup(null, ref);
    if (issued == null) {
      throw new IllegalStateException("secret reference " + ref + " was not issued by this engine");
    }
    return store(issued).get(ref);
  }

  /** Deletes the secret and forgets the reference; an unknown reference is already gone. */
  public void delete(String orgId, SecretRef ref) {
    Issued issued = lookup(orgId, ref);
    if (issued == null) {
      return;
    }
    store(issued).delete(ref);
    db.tx(c -> {
      refs.delete(c, orgId, ref);
      return null;
    });
  }

  /** Where a reference's value lives; {@code orgId} null looks across organisations (engine use only). */
  private Issued lookup(String orgId, SecretRef ref) {
    return db.read(c -> refs.find(c, orgId, ref));
  }

  private SecretStore store(Issued issued) {
    return issued.store().equals(local.id()) ? local : backing(issued.accountId(), issued.region(), Map.of());
  }

  private SecretStore backing(CloudAccountId accountId, String region, Map<String, String> scope) {
    ProviderSession session = providers.session(accountId, region, scope,
        () -> db.read(c -> accounts.findAnyOrg(c, accountId)));
    SecretStore own = session.secrets();
    return own != null ? own : local;
  }

  /** Records every reference it issues, so it can be revealed (by its organisation only) and cleaned up. */
  private final class Recording implements SecretStore {
    private final String orgId;
    private final CloudAccountId accountId;
    private final String region;
    private final SecretStore target;

    Recording(String orgId, CloudAccountId accountId, String region, SecretStore target) {
      this.orgId = orgId;
      this.accountId = accountId;
      this.region = region;
      this.target = target;
    }

    @Override
    public String id() {
      return target.id();
    }

    @Override
    public SecretRef put(String name, String value) {
      SecretRef ref = target.put(name, value);
      db.tx(c -> {
        if (!refs.insert(c, db, ref, orgId, target.id(), accountId, region)) {
          c.rollback(); // put again under the same name: the reference is already recorded
        }
        return null;
      });
      return ref;
    }

    @Override
    public String get(SecretRef ref) {
      return target.get(ref);
    }

    @Override
    public SecretRef rotate(SecretRef ref, String newValue) {
      return target.rotate(ref, newValue);
    }

    @Override
    public void delete(SecretRef ref) {
      SecretService.this.delete(orgId, ref);
    }
  }
}
