package dev.zop.provisioner.core.internal.spaces;

import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.store.Database;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Cloud accounts: a provider and a reference to credentials, never the credentials. */
public final class AccountService {
  private final Database db;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;

  public AccountService(Database db, AccountRepository accounts, ProviderRegistry providers) {
    this.db = db;
    this.accounts = accounts;
    this.providers = providers;
  }

  public CloudAccount create(Principal principal, CloudAccountRequest request) {
    List<FieldError> errors = new ArrayList<>();
    if (request.provider() == null) {
      errors.add(FieldError.required("provider"));
    } else if (providers.find(request.provider()) == null) {
      errors.add(FieldError.of("provider", "unsupported_provider",
          "no provider '" + request.provider() + "' is installed"));
    }
    if (request.name() == null || request.name().isBlank() || request.name().length() > 200) {
      errors.add(FieldError.of("name", "invalid_name", "must be 1-200 characters"));
    }
    request.properties().keySet().forEach(key -> {
      String lower = key.toLowerCase(Locale.ROOT);
      if (lower.contains("secret") || lower.contains("password") || lower.contains("token")) {
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
}
