package dev.zop.provisioner.core.internal.spaces;

import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.Namespace;
import dev.zop.provisioner.Namespaces;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.SecretRef;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.secrets.SecretService;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.discovery.DiscoveredCluster;
import dev.zop.provisioner.discovery.DiscoveredDnsZone;
import dev.zop.provisioner.discovery.DiscoveredNetwork;
import dev.zop.provisioner.discovery.DiscoveredSubnet;
import dev.zop.provisioner.discovery.SpaceDiscovery;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ClusterComponents;
import dev.zop.provisioner.spi.ClusterTarget;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Creates, reads and retires deployment spaces. */
public final class SpaceService {
  /** Cluster credentials belong in a secret store; a space only ever holds references to them. */
  /** The config key holding the secret reference of a kubeconfig the space was registered with. */
  public static final String KUBECONFIG_REF = "kubeconfigRef";
  private static final Set<String> SENSITIVE = Set.of("caCert", "serviceAccountToken", "kubeconfig", "password");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
  private static final String CA_CERT = "caCert";
  private static final String SA_TOKEN = "serviceAccountToken";
  private static final String ENDPOINT = "endpoint";
  /** A bearer token as Kubernetes issues them (a JWT, or a static token): no spaces, quotes or line breaks. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/=-]{8,8192}");
  private static final Pattern ENDPOINT_URL = Pattern.compile("https://[A-Za-z0-9.\\-\\[\\]:]+(/[A-Za-z0-9._~/-]*)?");
  private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/=\\s]+");
  private static final Pattern SPACE_TYPE = Pattern.compile("[a-z][a-z_]{0,31}");

  private final Database db;
  private final SpaceRepository spaces;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final SecretService secrets;
  private final ClusterTargets targets;

  public SpaceService(Database db, SpaceRepository spaces, AccountRepository accounts, ProviderRegistry providers,
      SecretService secrets, ClusterTargets targets) {
    this.db = db;
    this.spaces = spaces;
    this.accounts = accounts;
    this.providers = providers;
    this.secrets = secrets;
    this.targets = targets;
  }

  public Space create(Principal principal, SpaceRequest request) {
    List<FieldError> errors = new ArrayList<>();
    if (request.name() == null) {
      errors.add(FieldError.required("name"));
    } else if (!NAME.matcher(request.name()).matches()) {
      errors.add(FieldError.of("name", "invalid_name",
          "must be 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit"));
    }
    if (!SPACE_TYPE.matcher(request.spaceType()).matches()) {
      errors.add(FieldError.of("spaceType", "invalid_value", "must be a lower-case type such as kubernetes"));
    }
    CloudProvider provider = request.provider() == null ? null : providers.find(request.provider());
    if (request.provider() == null) {
      errors.add(FieldError.required("provider"));
    } else if (provider == null) {
      errors.add(FieldError.of("provider", "unsupported_provider",
          "no provider '" + request.provider() + "' is installed"));
    } else {
      Set<String> required = new LinkedHashSet<>(provider.metadata().requiredSpaceConfig());
      for (String key : required) {
        String value = request.config().get(key);
        if (value == null || value.isBlank()) {
          errors.add(FieldError.of("config." + key, "required",
              "config." + key + " is required for " + request.provider() + " spaces"));
        }
      }
      String region = request.config().get("region");
      List<String> regions = provider.metadata().regions();
      if (region != null && !region.isBlank() && !regions.isEmpty() && !regions.contains(region)) {
        errors.add(FieldError.of("config.region", "unknown_region",
            "'" + region + "' is not a region of " + request.provider()));
      }
    }
    if (request.config().containsKey(KUBECONFIG_REF)) {
      errors.add(FieldError.of("config." + KUBECONFIG_REF, "reserved",
          "set by the engine when the request carries a kubeconfig; pass the kubeconfig itself"));
    }
    if (request.kubeconfig() != null && (request.kubeconfig().isBlank() || request.kubeconfig().length() > 65536
        || !request.kubeconfig().contains("clusters"))) {
      errors.add(FieldError.of("kubeconfig", "invalid_value", "must be a kubeconfig document (YAML), up to 64 KiB"));
    }
    // a cluster's CA and a service-account token, as the spaces document takes them, become a kubeconfig that
    // goes to the secret store like one passed whole; neither stays in the space's config
    String tokenKubeconfig = null;
    String caCert = request.config().get(CA_CERT);
    String saToken = request.config().get(SA_TOKEN);
    if (caCert != null || saToken != null) {
      String endpoint = request.config().get(ENDPOINT);
      if (caCert == null || caCert.isBlank() || !isCertificate(caCert)) {
        errors.add(FieldError.of("config." + CA_CERT, "invalid_value",
            "with serviceAccountToken, the cluster's CA certificate (PEM, or PEM in base64) is required"));
      }
      if (saToken == null || !TOKEN.matcher(saToken).matches()) {
        errors.add(FieldError.of("config." + SA_TOKEN, "invalid_value",
            "with caCert, the service account's bearer token is required"));
      }
      if (endpoint == null || !ENDPOINT_URL.matcher(endpoint).matches()) {
        errors.add(FieldError.of("config." + ENDPOINT, "required",
            "with caCert and serviceAccountToken, the cluster's API server URL (https://…) is required"));
      }
      if (request.kubeconfig() != null) {
        errors.add(FieldError.of("kubeconfig", "conflict", "pass a kubeconfig or caCert and serviceAccountToken,"
            + " not both"));
      }
      if (errors.isEmpty()) {
        tokenKubeconfig = tokenKubeconfig(request.name(), endpoint, caCert, saToken);
      }
    }
    String built = tokenKubeconfig;
    for (String key : request.config().keySet()) {
      if (SENSITIVE.contains(key) && !key.equals(CA_CERT) && !key.equals(SA_TOKEN)) {
        errors.add(FieldError.of("config." + key, "sensitive_field",
            "credentials are not stored on a space; keep them in a secret store and pass a reference"));
      }
    }
    errors.addAll(DriftSchedule.validate(request.config()));
    if (request.cloudAccountId() == null) {
      errors.add(FieldError.required("cloudAccountId"));
    }
    return db.tx(c -> {
      if (request.cloudAccountId() != null) {
        CloudAccount account = accounts.find(c, principal.orgId(), request.cloudAccountId());
        if (account == null) {
          errors.add(FieldError.of("cloudAccountId", "not_found",
              "cloud account " + request.cloudAccountId() + " not found"));
        } else if (request.provider() != null && !account.provider().equals(request.provider())) {
          errors.add(FieldError.of("cloudAccountId", "provider_mismatch",
              "the account is a " + account.provider() + " account, not " + request.provider()));
        }
      }
      ValidationException.throwIfAny(errors);
      if (spaces.findByName(c, principal.orgId(), request.name()) != null) {
        throw new ConflictException("space_name_taken", "a space named '" + request.name() + "' exists");
      }
      Instant now = Timestamps.now();
      SpaceId id = SpaceId.random();
      Map<String, String> config = new java.util.LinkedHashMap<>(request.config());
      config.remove(CA_CERT);
      config.remove(SA_TOKEN);
      String document = request.kubeconfig() != null ? request.kubeconfig() : built;
      SecretRef kubeconfig = null;
      if (document != null) {
        // the credentials go to the secret store; the space keeps the reference
        kubeconfig = secrets.storeFor(principal.orgId(), request.cloudAccountId(), request.config().get("region"))
            .put("zop/spaces/" + id.value() + "/kubeconfig", document);
        config.put(KUBECONFIG_REF, kubeconfig.value());
      }
      Space space = new Space(id, request.name(), request.provider(), request.spaceType(),
          request.cloudAccountId(), SpaceStatus.ACTIVE, config, now, now);
      try {
        spaces.insert(c, principal.orgId(), space, null);
      } catch (java.sql.SQLException | RuntimeException e) {
        if (kubeconfig != null) {
          secrets.delete(principal.orgId(), kubeconfig); // no orphaned credentials when the row is not written
        }
        if (e instanceof java.sql.SQLException sql && db.dialect().isUniqueViolation(sql)) {
          throw new ConflictException("space_name_taken", "a space named '" + request.name() + "' exists");
        }
        throw e;
      }
      return space;
    });
  }

  private static boolean isCertificate(String caCert) {
    String trimmed = caCert.trim();
    return trimmed.startsWith("-----BEGIN CERTIFICATE-----") || BASE64.matcher(trimmed).matches();
  }

  /**
   * A kubeconfig for a cluster reached with a service-account token, as {@code kubectl config} writes one. Every
   * value is checked above (URL, base64, token characters), so none can break out of its YAML scalar.
   */
  static String tokenKubeconfig(String name, String endpoint, String caCert, String token) {
    String trimmed = caCert.trim();
    String caData = trimmed.startsWith("-----BEGIN")
        ? Base64.getEncoder().encodeToString(trimmed.concat("\n").getBytes(StandardCharsets.UTF_8))
        : trimmed.replaceAll("\\s", "");
    return "apiVersion: v1\nkind: Config\nclusters:\n- name: " + name + "\n  cluster:\n    server: " + endpoint
        + "\n    certificate-authority-data: " + caData + "\nusers:\n- name: " + name + "\n  user:\n    token: "
        + token + "\ncontexts:\n- name: " + name + "\n  context:\n    cluster: " + name + "\n    user: " + name
        + "\ncurrent-context: " + name + "\n";
  }

  public Space get(Principal principal, SpaceId id) {
    Space space = db.read(c -> spaces.find(c, principal.orgId(), id));
    if (space == null) {
      throw new NotFoundException("space", id);
    }
    return space;
  }

  public List<Space> list(Principal principal) {
    return db.read(c -> spaces.list(c, principal.orgId()));
  }

  public Space setStatus(Principal principal, SpaceId id, SpaceStatus status) {
    if (status == null) {
      throw ValidationException.of("status", "required", "status is required");
    }
    boolean updated = db.tx(c -> spaces.setStatus(c, principal.orgId(), id, status, Timestamps.now()));
    if (!updated) {
      throw new NotFoundException("space", id);
    }
    return get(principal, id);
  }

  /** A short-lived kubeconfig for the space's cluster, minted by its provider; never stored. */
  public Kubeconfig kubeconfig(Principal principal, SpaceId id) {
    Space space = get(principal, id);
    if (space.config().containsKey(KUBECONFIG_REF)) {
      throw new ConflictException("kubeconfig_supplied", "space " + id + " was registered with its own kubeconfig,"
          + " which is kept in the secret store and not handed out");
    }
    return targets.mint(principal.orgId(), space);
  }

  /** What the provider finds in the space's account and region; each call asks the cloud. */
  public SpaceDiscovery discovery(Principal principal, SpaceId id) {
    Space space = get(principal, id);
    CloudAccount account = db.read(c -> accounts.find(c, principal.orgId(), space.cloudAccountId()));
    ProviderSession session = providers.session(account, space);
    Discovery discovery = session.discovery();
    if (discovery == null) {
      throw new ConflictException("unsupported", "provider " + space.provider() + " cannot discover resources");
    }
    return new SpaceDiscovery() {
      @Override
      public List<DiscoveredNetwork> networks() {
        return ProviderCalls.classified(session, discovery::networks);
      }

      @Override
      public List<DiscoveredSubnet> subnets(String networkId) {
        return ProviderCalls.classified(session, () -> discovery.subnets(networkId));
      }

      @Override
      public List<DiscoveredDnsZone> dnsZones() {
        return ProviderCalls.classified(session, discovery::dnsZones);
      }

      @Override
      public List<DiscoveredCluster> clusters() {
        return ProviderCalls.classified(session, discovery::clusters);
      }
    };
  }

  /** What the space's provider offers in its region, from the provider's own tables. */
  public dev.zop.provisioner.discovery.Offerings offerings(Principal principal, SpaceId id) {
    Space space = get(principal, id);
    CloudProvider provider = providers.find(space.provider());
    if (provider == null) {
      throw new ConflictException("provider_unavailable", "provider " + space.provider()
          + " is not loaded in this engine");
    }
    return provider.offerings(space.region());
  }

  public void delete(Principal principal, SpaceId id) {
    Space space = get(principal, id);
    boolean deleted = db.tx(c -> spaces.deleteIfEmpty(c, principal.orgId(), id));
    if (!deleted) {
      throw new ConflictException("space_has_jobs",
          "space " + id + " still holds jobs; delete (tear down) them first");
    }
    String kubeconfig = space.config().get(KUBECONFIG_REF);
    if (kubeconfig != null) {
      secrets.delete(principal.orgId(), SecretRef.of(kubeconfig));
    }
  }

  /** Namespaces on the space's cluster, through the component installer. */
  public Namespaces namespaces(Principal principal, SpaceId id) {
    get(principal, id);
    ClusterComponents components = providers.components();
    if (components == null) {
      throw new ConflictException("no_component_installer",
          "no component installer is installed (add provider-helm to the classpath)");
    }
    ClusterTarget cluster = targets.of(principal.orgId(), id);
    return new Namespaces() {
      @Override
      public List<Namespace> list() {
        return classified(components, () -> components.namespaces(cluster));
      }

      @Override
      public Namespace create(String name) {
        return classified(components, () -> components.createNamespace(cluster, name));
      }
    };
  }

  private static <T> T classified(ClusterComponents components, ProviderCalls.ProviderCall<T> call) {
    try {
      return call.call();
    } catch (ProvisionerException e) {
      throw e;
    } catch (Exception e) {
      throw new ProviderException(components.classify(e));
    }
  }
}
