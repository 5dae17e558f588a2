package dev.zop.provisioner.core.internal.providers;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ClusterComponents;
import dev.zop.provisioner.spi.ClusterTarget;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The installed providers, and one cached session per (account, region). */
public final class ProviderRegistry implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ProviderRegistry.class);

  private final Map<String, CloudProvider> providers;
  private final ClusterComponents components;
  private final Map<String, ProviderSession> sessions = new ConcurrentHashMap<>();
  /** Which provider opened each session (sessions are told apart by identity). */
  private final Map<ProviderSession, CloudProvider> owners =
      java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

  private ProviderRegistry(Map<String, CloudProvider> providers, ClusterComponents components) {
    this.providers = Map.copyOf(providers);
    this.components = components;
  }

  /**
   * The providers {@link ServiceLoader} finds (when {@code discover}), then the explicit ones; an explicit
   * provider replaces a discovered one with the same id.
   */
  public static ProviderRegistry of(boolean discover, List<CloudProvider> explicit, ClassLoader loader) {
    return of(discover, explicit, null, loader);
  }

  /** As above; {@code components} (or, when null and discovering, the one ServiceLoader finds) runs components. */
  public static ProviderRegistry of(boolean discover, List<CloudProvider> explicit, ClusterComponents components,
      ClassLoader loader) {
    Map<String, CloudProvider> byId = new LinkedHashMap<>();
    ClusterComponents installer = components;
    if (discover) {
      for (CloudProvider provider : ServiceLoader.load(CloudProvider.class, loader)) {
        byId.put(provider.metadata().id(), provider);
      }
      if (installer == null) {
        installer = ServiceLoader.load(ClusterComponents.class, loader).findFirst().orElse(null);
      }
    }
    explicit.forEach(p -> byId.put(p.metadata().id(), p));
    LOG.info("cloud providers: {}{}", byId.keySet(),
        installer == null ? "" : "; components: " + installer.getClass().getSimpleName());
    return new ProviderRegistry(byId, installer);
  }

  /** What installs in-cluster components, or null when nothing is installed that can. */
  public ClusterComponents components() {
    return components;
  }

  /** Whether a space of {@code provider} can hold a job of {@code kind}. */
  public boolean supports(String provider, JobKind kind) {
    if (kind == JobKind.COMPONENT && components != null) {
      return true;
    }
    CloudProvider found = providers.get(provider);
    return found != null && found.metadata().supports(kind);
  }

  /**
   * The driver for a job of {@code kind}: components go to the installer when one is installed (with the space's
   * cluster as their target), everything else to the space's provider. A space that names no cluster, on a provider
   * that makes components itself (the simulated cloud), has them made by its provider, checked against the
   * installer's catalog as any other.
   */
  @SuppressWarnings("unchecked")
  public ResourceDriver<ResourceSpec> driver(ProviderSession session, JobKind kind,
      Supplier<ClusterTarget> cluster) {
    if (kind == JobKind.COMPONENT && components != null) {
      ClusterTarget target = cluster.get();
      ResourceDriver<? extends ResourceSpec> component = components.driver(target);
      ResourceDriver<ResourceSpec> installer = (ResourceDriver<ResourceSpec>) component;
      CloudProvider owner = owners.get(session);
      if (owner != null && owner.metadata().supports(JobKind.COMPONENT) && !target.named()) {
        return new CatalogComponentsOnProvider(installer, (ResourceDriver<ResourceSpec>) session.driver(kind));
      }
      return installer;
    }
    return (ResourceDriver<ResourceSpec>) session.driver(kind);
  }

  /** Each installed provider's resource types for the built-in remediation templates. */
  public List<Map<String, java.util.Set<String>>> remediationTypes() {
    return providers.values().stream().map(CloudProvider::remediationTypes).toList();
  }

  public CloudProvider find(String id) {
    return providers.get(id);
  }

  public Collection<ProviderMetadata> metadata() {
    List<ProviderMetadata> all = new ArrayList<>();
    providers.values().forEach(p -> all.add(p.metadata()));
    return all;
  }

  /** The session for an account and region, opened on first use. */
  public ProviderSession session(CloudAccount account, String region) {
    return session(account.id(), region, Map.of(), () -> account);
  }

  /** The session for a space's account, in the space's region and scope. */
  public ProviderSession session(CloudAccount account, Space space) {
    return session(account.id(), space.region(), scopeOf(space), () -> account);
  }

  /** The session for an account and region; {@code account} is read only when no session is open yet. */
  public ProviderSession session(CloudAccountId accountId, String region, Supplier<CloudAccount> account) {
    return session(accountId, region, Map.of(), account);
  }

  /** The session for an account, region and scope; {@code account} is read only when none is open yet. */
  public ProviderSession session(CloudAccountId accountId, String region, Map<String, String> scope,
      Supplier<CloudAccount> account) {
    String key = key(accountId, region, scope);
    ProviderSession open = sessions.get(key);
    if (open != null) {
      return open;
    }
    CloudAccount found = account.get();
    CloudProvider provider = providers.get(found.provider());
    if (provider == null) {
      throw new IllegalStateException("provider '" + found.provider() + "' is not installed");
    }
    return sessions.computeIfAbsent(key, k -> {
      ProviderSession opened = provider.open(found, region, scope);
      owners.put(opened, provider);
      return opened;
    });
  }

  /** The values a space gives its provider's scope keys (a GCP project, an Azure resource group). */
  public Map<String, String> scopeOf(Space space) {
    CloudProvider provider = providers.get(space.provider());
    if (provider == null) {
      return Map.of();
    }
    Map<String, String> scope = new java.util.TreeMap<>();
    provider.metadata().scopeKeys().forEach(k -> {
      String value = space.config().get(k);
      if (value != null && !value.isBlank()) {
        scope.put(k, value);
      }
    });
    return scope;
  }

  private static String key(CloudAccountId accountId, String region, Map<String, String> scope) {
    return accountId.value() + "|" + region + "|" + new java.util.TreeMap<>(scope);
  }

  @Override
  public void close() {
    sessions.values().forEach(session -> {
      try {
        session.close();
      } catch (RuntimeException e) {
        LOG.warn("closing a provider session failed", e);
      }
    });
    sessions.clear();
    owners.clear();
  }
}
