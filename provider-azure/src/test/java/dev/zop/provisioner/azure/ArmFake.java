package dev.zop.provisioner.azure;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.azure.resourcemanager.compute.fluent.models.VirtualMachineScaleSetInner;
import com.azure.resourcemanager.containerregistry.fluent.models.RegistryInner;
import com.azure.resourcemanager.containerservice.fluent.models.ManagedClusterInner;
import com.azure.resourcemanager.monitor.fluent.models.AutoscaleSettingResourceInner;
import com.azure.resourcemanager.network.fluent.models.LoadBalancerInner;
import com.azure.resourcemanager.network.fluent.models.NetworkSecurityGroupInner;
import com.azure.resourcemanager.network.fluent.models.PublicIpAddressInner;
import com.azure.resourcemanager.network.fluent.models.SubnetInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkInner;
import com.azure.resourcemanager.network.fluent.models.VirtualNetworkPeeringInner;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.testkit.tck.EngineHalted;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import reactor.core.publisher.Mono;

/**
 * A stateful Azure Resource Manager fake for the provider's tests. No usable emulator exists for these resource
 * providers, so its fidelity comes from the Azure SDK's own generated models:
 *
 * <ul>
 *   <li>generic ARM behaviour by URL shape: PUT, GET, DELETE and list on
 *       {@code /subscriptions/{s}/resourceGroups/{rg}/providers/{ns}/{type}/{name}[/{child}/{name}]}, PUT answering
 *       201 with {@code Azure-AsyncOperation} and the resource reading a provisioning state until its operation
 *       would be done, DELETE answering 202 with {@code Location};</li>
 *   <li>a request body is parsed into the SDK's own {@code *Inner} model class of its resource type and written
 *       back: a key the model does not define is a 400 {@code InvalidRequestContent}, as ARM answers it;</li>
 *   <li>errors in ARM's {@code {"error":{"code","message"}}} shape, faults injected per RBAC action;</li>
 *   <li>HTTPS on loopback with a certificate made for the test run that names {@code IP:127.0.0.1} (the SDK sends
 *       bearer tokens over HTTPS only), trusted by the client it hands out — no trust-all anywhere.</li>
 * </ul>
 */
public final class ArmFake implements AutoCloseable {
  public static final String TOKEN = "fake-arm-token";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * A resource type the fake serves, and how the SDK's own model reads and writes a body of it: what the model
   * does not define does not survive the round trip.
   */
  public record Type(String namespace, String path, UnaryOperator<String> roundTrip, boolean synchronous,
      boolean deletedAtOnce) {
    /**
     * The same type served without long-running operations (its resource provider answers PUT and DELETE
     * at once, as {@code Microsoft.Insights} does).
     */
    Type synchronously() {
      return new Type(namespace, path, roundTrip, true, true);
    }

    /** The same type whose DELETE is answered when done (200), as Key Vault's vaults are, its PUT an operation. */
    Type answeringDeletesAtOnce() {
      return new Type(namespace, path, roundTrip, synchronous, true);
    }

    /** A model serialized with azure-json ({@code fromJson} and {@code toJsonString}). */
    static Type json(String namespace, String path, Function<JsonReader, Object> parser) {
      return new Type(namespace, path, body -> {
        try (JsonReader reader = JsonProviders.createReader(body)) {
          return ((com.azure.json.JsonSerializable<?>) parser.apply(reader)).toJsonString();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, false, false);
    }

    /** A model of an older management library, serialized by the SDK's management serializer (Jackson). */
    static Type jackson(String namespace, String path, Class<?> model) {
      var adapter = com.azure.core.management.serializer.SerializerFactory.createDefaultManagementSerializerAdapter();
      return new Type(namespace, path, body -> {
        try {
          return adapter.serialize(adapter.deserialize(body, model,
              com.azure.core.util.serializer.SerializerEncoding.JSON), com.azure.core.util.serializer.SerializerEncoding.JSON);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }, false, false);
    }
  }

  private final HttpsServer server;
  private final java.util.concurrent.ExecutorService workers = Executors.newFixedThreadPool(4);
  private final SSLContext clientContext;
  private final dev.zop.provisioner.testkit.fakes.LoopbackTls tls;
  private final Map<String, Type> types = new ConcurrentHashMap<>();
  private final Map<String, ObjectNode> store = new ConcurrentHashMap<>();
  /**
   * Changes under way, by operation id and by the resource they change: the operation and its resource advance
   * together, a step per read of either, and the operation reads Succeeded exactly when the resource reads its
   * final state (or is gone).
   */
  private final Map<String, Change> operations = new ConcurrentHashMap<>();
  private final Map<String, Change> changesByResource = new ConcurrentHashMap<>();
  private final Set<String> finishedOperations = ConcurrentHashMap.newKeySet();
  /** Resource groups being deleted, by lower-cased name. */
  private final Set<String> deletingGroups = ConcurrentHashMap.newKeySet();
  private final Map<String, String> resourceGroups = new ConcurrentHashMap<>();
  private final Map<String, String> userTokens = new ConcurrentHashMap<>();
  private final Map<String, String> accessKeys = new ConcurrentHashMap<>();
  private final Map<String, Deque<Fault>> faults = new ConcurrentHashMap<>();
  private final Map<String, ObjectNode> vaultSecrets = new ConcurrentHashMap<>();
  private final Map<String, ObjectNode> deletedSecrets = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicInteger vaultChallenges = new java.util.concurrent.atomic.AtomicInteger();
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private final HaltSwitch halts = new HaltSwitch();
  private final AtomicReference<String> haltDue = new AtomicReference<>();
  private volatile int operationPolls;
  private volatile String standInHost;

  /** An injected failure: HTTP status and ARM error code. */
  record Fault(int status, String code, String message) {
    static Fault authorizationFailed(String action) {
      return new Fault(403, "AuthorizationFailed", "The client does not have authorization to perform action '"
          + action + "' over scope or the scope is invalid.");
    }

    static Fault quotaExceeded() {
      return new Fault(409, "QuotaExceeded", "Operation could not be completed as it results in exceeding approved"
          + " quota.");
    }

    static Fault notRegistered(String namespace) {
      return new Fault(409, "MissingSubscriptionRegistration", "The subscription is not registered to use"
          + " namespace '" + namespace + "'.");
    }

    static Fault throttled() {
      return new Fault(429, "TooManyRequests", "The request is being throttled.");
    }

    static Fault internal() {
      return new Fault(500, "InternalServerError", "An internal error occurred.");
    }
  }

  /** A fake serving every resource type the Azure provider makes, each validated by the SDK's own model. */
  public static ArmFake forTheAzureProvider() {
    return new ArmFake(
        json("Microsoft.Network", "virtualNetworks", VirtualNetworkInner::fromJson),
        json("Microsoft.Network", "virtualNetworks/subnets", SubnetInner::fromJson),
        json("Microsoft.Network", "virtualNetworks/virtualNetworkPeerings", VirtualNetworkPeeringInner::fromJson),
        json("Microsoft.ContainerRegistry", "registries", RegistryInner::fromJson),
        json("Microsoft.ContainerService", "managedClusters", ManagedClusterInner::fromJson),
        json("Microsoft.ContainerService", "managedClusters/agentPools",
            com.azure.resourcemanager.containerservice.fluent.models.AgentPoolInner::fromJson),
        Type.jackson("Microsoft.DBforPostgreSQL", "flexibleServers/databases",
            com.azure.resourcemanager.postgresqlflexibleserver.fluent.models.DatabaseInner.class),
        json("Microsoft.KeyVault", "vaults",
            com.azure.resourcemanager.keyvault.models.VaultCreateOrUpdateParameters::fromJson).answeringDeletesAtOnce(),
        Type.jackson("Microsoft.DBforPostgreSQL", "flexibleServers",
            com.azure.resourcemanager.postgresqlflexibleserver.fluent.models.ServerInner.class),
        json("Microsoft.Network", "networkSecurityGroups", NetworkSecurityGroupInner::fromJson),
        json("Microsoft.Network", "publicIPAddresses", PublicIpAddressInner::fromJson),
        json("Microsoft.Network", "loadBalancers", LoadBalancerInner::fromJson),
        json("Microsoft.Compute", "virtualMachineScaleSets", VirtualMachineScaleSetInner::fromJson),
        Type.jackson("Microsoft.Synapse", "workspaces/sqlPools",
            com.azure.resourcemanager.synapse.fluent.models.SqlPoolInner.class),
        json("Microsoft.DataFactory", "factories/triggers",
            com.azure.resourcemanager.datafactory.fluent.models.TriggerResourceInner::fromJson),
        json("Microsoft.CognitiveServices", "accounts",
            com.azure.resourcemanager.cognitiveservices.fluent.models.AccountInner::fromJson),
        Type.jackson("Microsoft.DBforMySQL", "flexibleServers",
            com.azure.resourcemanager.mysqlflexibleserver.fluent.models.ServerInner.class),
        json("Microsoft.Cache", "redis", com.azure.resourcemanager.redis.models.RedisCreateParameters::fromJson),
        json("Microsoft.Network", "privateDnsZones",
            com.azure.resourcemanager.privatedns.fluent.models.PrivateZoneInner::fromJson),
        json("Microsoft.Network", "privateDnsZones/virtualNetworkLinks",
            com.azure.resourcemanager.privatedns.fluent.models.VirtualNetworkLinkInner::fromJson),
        json("Microsoft.Compute", "virtualMachines",
            com.azure.resourcemanager.compute.fluent.models.VirtualMachineInner::fromJson),
        json("Microsoft.Insights", "autoscalesettings", AutoscaleSettingResourceInner::fromJson).synchronously());
  }

  /** An azure-json model's {@code fromJson}. */
  interface Parser {
    Object parse(JsonReader reader) throws IOException;
  }

  private static Type json(String namespace, String path, Parser parser) {
    return Type.json(namespace, path, reader -> {
      try {
        return parser.parse(reader);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  /** An account pointing at this fake, in a subscription and tenant of its own. */
  public CloudAccountRequest account(String name, String subscription) {
    return CloudAccountRequest.of("azure", name).property("tenantId", "00000000-0000-0000-0000-0000000000aa")
        .property("subscriptionId", subscription).property("endpoint", endpoint());
  }

  /** A virtual network made outside the provider, with its subnets (name to address range). */
  public void existingNetwork(String subscription, String group, String name, String cidr,
      Map<String, String> subnets) {
    String id = "/subscriptions/" + subscription + "/resourceGroups/" + group
        + "/providers/Microsoft.Network/virtualNetworks/" + name;
    ObjectNode vnet = JSON.createObjectNode().put("id", id).put("name", name)
        .put("type", "Microsoft.Network/virtualNetworks").put("location", resourceGroups.getOrDefault(
            group.toLowerCase(Locale.ROOT), "eastus"));
    vnet.putObject("properties").put("provisioningState", "Succeeded").putObject("addressSpace")
        .putArray("addressPrefixes").add(cidr);
    put(id, vnet);
    subnets.forEach((subnet, range) -> {
      ObjectNode child = JSON.createObjectNode().put("id", id + "/subnets/" + subnet).put("name", subnet)
          .put("type", "Microsoft.Network/virtualNetworks/subnets");
      child.putObject("properties").put("provisioningState", "Succeeded").put("addressPrefix", range);
      put(id + "/subnets/" + subnet, child);
    });
  }

  /** Delegates a subnet the fake holds to a service, as {@code az network vnet subnet update --delegations} does. */
  public void delegate(String subscription, String group, String network, String subnet, String service) {
    ObjectNode held = store.get(("/subscriptions/" + subscription + "/resourceGroups/" + group
        + "/providers/Microsoft.Network/virtualNetworks/" + network + "/subnets/" + subnet).toLowerCase(Locale.ROOT));
    ((ObjectNode) held.get("properties")).putArray("delegations").addObject().put("name", "delegation")
        .putObject("properties").put("serviceName", service);
  }

  public ArmFake(Type... served) {
    System.setProperty("sun.net.httpserver.nodelay", "true");
    for (Type type : served) {
      types.put((type.namespace() + "/" + type.path()).toLowerCase(Locale.ROOT), type);
    }
    try {
      tls = dev.zop.provisioner.testkit.fakes.LoopbackTls.create();
      clientContext = tls.clientContext();
      SSLContext serverContext = tls.serverContext();
      server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      server.setHttpsConfigurator(new HttpsConfigurator(serverContext));
      server.createContext("/", this::serve);
      server.setExecutor(workers);
      server.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (Exception e) {
      throw new IllegalStateException("cannot start the ARM fake", e);
    }
  }

  public String endpoint() {
    return "https://127.0.0.1:" + server.getAddress().getPort();
  }

  /** The certificate the fake presents, as PEM, for a client outside the JVM to trust. */
  public String certificatePem() {
    return tls.certificatePem();
  }

  /** The SDK's JDK-based HTTP client, trusting this fake's certificate and nothing else new. */
  public com.azure.core.http.HttpClient httpClient() {
    return new com.azure.core.http.jdk.httpclient.JdkHttpClientBuilder(
        java.net.http.HttpClient.newBuilder().sslContext(clientContext)).build();
  }

  /** A credential that hands out the one token this fake accepts. */
  public static TokenCredential credential() {
    return request -> Mono.just(new AccessToken(TOKEN, OffsetDateTime.now().plusHours(1)));
  }

  HaltSwitch halts() {
    return halts;
  }

  /** The crash matrix's stop, as the provider's call observer (see GCP's fake for the same seam). */
  CloudCalls.Observer haltingObserver() {
    return permission -> {
      String due = haltDue.getAndSet(null);
      if (due != null) {
        throw new EngineHalted(due);
      }
    };
  }

  /**
   * The host a database server answers with, when a local server stands in for it (the databases feature's
   * tests connect there); null for the host Azure would name.
   */
  public void standInHost(String host) {
    standInHost = host;
  }

  public void operationPolls(int polls) {
    operationPolls = polls;
  }

  void failNext(String action, Fault fault) {
    faults.computeIfAbsent(action, a -> new ArrayDeque<>()).add(fault);
  }

  void failAlways(String action, Fault fault) {
    Deque<Fault> queue = faults.computeIfAbsent(action, a -> new ArrayDeque<>());
    for (int i = 0; i < 10_000; i++) {
      queue.add(fault);
    }
  }

  List<String> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** Resources held, by lower-cased id, children included, each as a GET answers it. */
  public Map<String, ObjectNode> resources() {
    Map<String, ObjectNode> all = new TreeMap<>();
    store.forEach((key, resource) -> all.put(key, assembled(key, resource)));
    return all;
  }

  /**
   * A resource as ARM answers for it: a managed cluster with its agent pools as its {@code agentPoolProfiles}
   * (the system pools first). AKS holds a cluster's pools once, as its {@code agentPools}, seen two ways.
   */
  private ObjectNode assembled(String key, ObjectNode resource) {
    ObjectNode answer = resource.deepCopy();
    if (resource.path("type").asText().equalsIgnoreCase("Microsoft.ContainerService/managedClusters")) {
      List<ObjectNode> pools = new ArrayList<>();
      store.forEach((id, child) -> {
        if (id.startsWith(key + "/agentpools/") && id.indexOf('/', key.length() + 12) < 0) {
          ObjectNode profile = JSON.createObjectNode().put("name", child.path("name").asText());
          profile.setAll((ObjectNode) child.get("properties"));
          pools.add(profile);
        }
      });
      pools.sort(java.util.Comparator.comparing((ObjectNode p) -> !"System".equals(p.path("mode").asText()))
          .thenComparing(p -> p.path("name").asText()));
      ((ObjectNode) answer.get("properties")).putArray("agentPoolProfiles").addAll(pools);
    }
    return answer;
  }

  /**
   * What AKS refuses of an agent pool's change, or null: a pool's VM size never changes (a pool of the new size
   * replaces it), and a cluster keeps at least one system pool.
   */
  private Fault refusedPoolChange(String poolKey, JsonNode wanted, boolean deleting) {
    ObjectNode existing = store.get(poolKey);
    if (existing == null) {
      return null;
    }
    if (deleting) {
      String cluster = poolKey.substring(0, poolKey.indexOf("/agentpools/"));
      boolean system = "System".equals(existing.path("properties").path("mode").asText());
      long systems = store.entrySet().stream().filter(e -> e.getKey().startsWith(cluster + "/agentpools/")
          && "System".equals(e.getValue().path("properties").path("mode").asText())).count();
      return system && systems == 1 ? new Fault(400, "OperationNotAllowed", "The agent pool "
          + existing.path("name").asText() + " is the cluster's only system pool and cannot be deleted.") : null;
    }
    String before = existing.path("properties").path("vmSize").asText();
    String after = wanted.path("vmSize").asText(before);
    return before.equalsIgnoreCase(after) ? null : new Fault(400, "PropertyChangeNotAllowed", "Changing property"
        + " 'vmSize' is not allowed: agent pool " + existing.path("name").asText() + " is " + before + ".");
  }

  /** A resource group the subscription holds, in a location. */
  public void resourceGroup(String name, String location) {
    resourceGroups.put(name.toLowerCase(Locale.ROOT), location);
  }

  public void put(String id, ObjectNode resource) {
    store.put(id.toLowerCase(Locale.ROOT), resource);
  }

  /** The resource as held (children apart), for a test to change by hand; null when there is none. */
  public ObjectNode held(String id) {
    return store.get(id.toLowerCase(Locale.ROOT));
  }

  /** Someone deletes a resource by hand, outside any job: it and its children are gone at once. */
  public void remove(String id) {
    String key = id.toLowerCase(Locale.ROOT);
    if (store.remove(key) == null) {
      throw new IllegalArgumentException(id + " does not exist");
    }
    store.keySet().removeIf(k -> k.startsWith(key + "/"));
  }

  public void reset() {
    store.clear();
    resourceGroups.clear();
    userTokens.clear();
    accessKeys.clear();
    operations.clear();
    changesByResource.clear();
    finishedOperations.clear();
    deletingGroups.clear();
    faults.clear();
    calls.clear();
    vaultSecrets.clear();
    deletedSecrets.clear();
    powerStates.clear();
    powerPolls.clear();
    settling.clear();
    vaultChallenges.set(0);
    haltDue.set(null);
    halts.disarm();
    operationPolls = 0;
    standInHost = null;
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }

  // ---- serving -----------------------------------------------------------------------------------------

  /** A parsed ARM resource path. */
  private record Target(String id, String namespace, String typePath, String parentId, String name,
      boolean collection) {}

  private void serve(HttpExchange exchange) throws IOException {
    try (exchange) {
      try {
        route(exchange);
      } catch (RuntimeException e) {
        e.printStackTrace();
        respond(exchange, 500, error("InternalServerError", "the fake failed: " + e), Map.of());
      }
    }
  }

  private void route(HttpExchange exchange) throws IOException {
    String raw = exchange.getRequestURI().getRawPath();
    if (raw.equals("/secrets") || raw.startsWith("/secrets/") || raw.startsWith("/deletedsecrets/")) {
      keyVault(exchange, URLDecoder.decode(raw, StandardCharsets.UTF_8));
      return;
    }
    if (raw.matches("/[^/]+/v2\\.0/\\.well-known/openid-configuration") || raw.matches("/[^/]+/oauth2/v2\\.0/token")) {
      identity(exchange, raw);
      return;
    }
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (auth == null || !auth.equals("Bearer " + TOKEN)) {
      respond(exchange, 401, error("AuthenticationFailed", "Authentication failed. The 'Authorization' header is"
          + " missing or invalid."), Map.of("WWW-Authenticate", "Bearer authorization_uri=\"" + endpoint() + "\""));
      return;
    }
    String path = URLDecoder.decode(exchange.getRequestURI().getRawPath(), StandardCharsets.UTF_8);
    if (path.startsWith("/fake/operations/")) {
      operation(exchange, path.substring("/fake/operations/".length()));
      return;
    }
    if (path.matches("/subscriptions/[^/]+/(?i:resourcegroups)/[^/]+")) {
      resourceGroup(exchange, path);
      return;
    }
    if (path.matches("/subscriptions/[^/]+/(?i:resourcegroups)") && exchange.getRequestMethod().equals("GET")) {
      calls.add("Microsoft.Resources/subscriptions/resourceGroups/read");
      ObjectNode answer = JSON.createObjectNode();
      ArrayNode value = answer.putArray("value");
      new TreeMap<>(resourceGroups).keySet().forEach(group -> value.add(group(path + "/" + group, group)));
      respond(exchange, 200, answer.toString(), Map.of());
      return;
    }
    if (exchange.getRequestMethod().equals("POST") && path.endsWith("/listClusterUserCredential")) {
      listClusterUserCredential(exchange, path);
      return;
    }
    if (exchange.getRequestMethod().equals("POST") && path.endsWith("/listKeys")) {
      listKeys(exchange, path.substring(0, path.length() - "/listKeys".length()));
      return;
    }
    java.util.regex.Matcher upgrade = MANUAL_UPGRADE.matcher(path);
    if (exchange.getRequestMethod().equals("POST") && upgrade.matches()) {
      manualUpgrade(exchange, upgrade.group(1));
      return;
    }
    java.util.regex.Matcher power = POWER_ACTION.matcher(path);
    if (power.matches()) {
      power(exchange, power.group(1), power.group(2));
      return;
    }
    Target target = parse(path);
    if (target == null) {
      respond(exchange, 404, error("InvalidResourceType", "The resource type could not be found: " + path),
          Map.of());
      return;
    }
    String method = exchange.getRequestMethod();
    Type served = types.get((target.namespace() + "/" + target.typePath()).toLowerCase(Locale.ROOT));
    // RBAC actions are named as the resource provider spells its types, whatever case the URL has
    String action = (served != null ? served.namespace() + "/" + served.path()
        : target.namespace() + "/" + target.typePath()) + "/" + switch (method) {
      case "PUT", "PATCH" -> "write";
      case "DELETE" -> "delete";
      default -> "read";
    };
    if (answeredWithFault(exchange, action)) {
      return;
    }
    switch (method) {
      case "PUT" -> put(exchange, target, action);
      case "GET" -> {
        if (target.collection()) {
          list(exchange, target);
        } else {
          get(exchange, target);
        }
      }
      case "DELETE" -> delete(exchange, target, action);
      case "PATCH" -> patch(exchange, target, action);
      default -> respond(exchange, 405, error("MethodNotAllowed", method + " is not served"), Map.of());
    }
  }

  /** {@code /subscriptions/s/resourceGroups/rg/providers/Ns/type/name[/child/name]}, or a collection of them. */
  private Target parse(String path) {
    String[] parts = path.split("/");
    // "", subscriptions, s, resourceGroups, rg, providers, ns, type, [name, child, [name]]
    if (parts.length < 8 || !parts[1].equalsIgnoreCase("subscriptions") || !parts[3].equalsIgnoreCase("resourceGroups")
        || !parts[5].equalsIgnoreCase("providers")) {
      return null;
    }
    String namespace = parts[6];
    String base = String.join("/", java.util.Arrays.copyOfRange(parts, 0, 7));
    if (parts.length == 8) {
      return new Target(path, namespace, parts[7], null, null, true);
    }
    if (parts.length == 9) {
      return new Target(path, namespace, parts[7], null, parts[8], false);
    }
    String parent = base + "/" + parts[7] + "/" + parts[8];
    String typePath = parts[7] + "/" + parts[9];
    return parts.length == 10 ? new Target(path, namespace, typePath, parent, null, true)
        : new Target(path, namespace, typePath, parent, parts[10], false);
  }

  /**
   * Records a call needing {@code action} and answers it with the fault injected for it, if any: true when it did.
   * The SDK waits as long as Retry-After says before it tries a 429 again: a test's throttling asks for no wait.
   */
  private boolean answeredWithFault(HttpExchange exchange, String action) throws IOException {
    calls.add(action);
    Deque<Fault> queued = faults.get(action);
    Fault fault = queued == null ? null : queued.poll();
    if (fault == null) {
      return false;
    }
    respond(exchange, fault.status(), error(fault.code(), fault.message()),
        fault.status() == 429 ? Map.of("Retry-After", "0") : Map.of());
    return true;
  }

  private void put(HttpExchange exchange, Target target, String action) throws IOException {
    String group = target.id().split("/")[4];
    if (!resourceGroups.containsKey(group.toLowerCase(Locale.ROOT))) {
      respond(exchange, 404, error("ResourceGroupNotFound", "Resource group '" + group + "' could not be found."),
          Map.of());
      return;
    }
    Type type = types.get((target.namespace() + "/" + target.typePath()).toLowerCase(Locale.ROOT));
    if (type == null) {
      respond(exchange, 400, error("NoRegisteredProviderFound", "No registered resource provider found for "
          + target.namespace() + "/" + target.typePath()), Map.of());
      return;
    }
    if (target.parentId() != null && !store.containsKey(target.parentId().toLowerCase(Locale.ROOT))) {
      respond(exchange, 404, error("ParentResourceNotFound", "Can not perform requested operation on nested"
          + " resource. Parent resource '" + target.parentId() + "' not found."), Map.of());
      return;
    }
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    ObjectNode resource;
    try {
      JsonNode sent = JSON.readTree(body);
      String unknown = unknownKey(sent, JSON.readTree(written(type, body)), "");
      if (unknown != null) {
        respond(exchange, 400, error("InvalidRequestContent", "The request content was invalid and could not be"
            + " deserialized: 'Could not find member '" + unknown + "' on object of type '"
            + target.typePath() + "'."), Map.of());
        return;
      }
      resource = (ObjectNode) sent;
      String missing = missingReference(target, resource);
      if (missing != null) {
        respond(exchange, 400, error("InvalidResourceReference", "Resource " + missing + " referenced by resource "
            + target.id() + " was not found. Please make sure that the referenced resource exists, and that both"
            + " resources are in the same region."), Map.of());
        return;
      }
    } catch (IOException | RuntimeException e) {
      respond(exchange, 400, error("InvalidRequestContent", "The request content was invalid: " + e.getMessage()),
          Map.of());
      return;
    }
    String key = target.id().toLowerCase(Locale.ROOT);
    boolean created = !store.containsKey(key);
    Fault refused = null;
    if (target.typePath().equalsIgnoreCase("managedClusters/agentPools")) {
      refused = refusedPoolChange(key, resource.path("properties"), false);
    } else if (target.typePath().equalsIgnoreCase("managedClusters")) {
      for (JsonNode profile : resource.path("properties").path("agentPoolProfiles")) {
        Fault fault = refusedPoolChange(key + "/agentpools/" + profile.path("name").asText().toLowerCase(Locale.ROOT),
            profile, false);
        refused = refused != null ? refused : fault;
      }
    }
    if (refused != null) {
      respond(exchange, refused.status(), error(refused.code(), refused.message()), Map.of());
      return;
    }
    resource.put("id", target.id()).put("name", target.name()).put("type", target.namespace() + "/"
        + target.typePath());
    if (target.typePath().equalsIgnoreCase("managedClusters")) {
      // the profiles written inline are the cluster's agent pools; a pool left out stays, as AKS keeps it
      JsonNode profiles = ((ObjectNode) resource.path("properties")).remove("agentPoolProfiles");
      for (JsonNode profile : profiles == null ? JSON.createArrayNode() : profiles) {
        String name = profile.path("name").asText();
        ObjectNode pool = JSON.createObjectNode().put("id", target.id() + "/agentPools/" + name).put("name", name)
            .put("type", "Microsoft.ContainerService/managedClusters/agentPools");
        ObjectNode poolProperties = ((ObjectNode) profile.deepCopy());
        poolProperties.remove("name");
        pool.set("properties", poolProperties.put("provisioningState", "Succeeded"));
        store.put(key + "/agentpools/" + name.toLowerCase(Locale.ROOT), pool);
      }
    }
    ObjectNode properties = resource.has("properties") ? (ObjectNode) resource.get("properties")
        : resource.putObject("properties");
    fill(target, resource, properties);
    if (target.typePath().equalsIgnoreCase("virtualMachineScaleSets")) {
      syncInstances(key, resource);
    }
    if (type.synchronous()) {
      store.put(key, resource);
      acceptedChange(action);
      respond(exchange, created ? 201 : 200, assembled(key, resource).toString(), Map.of());
      return;
    }
    properties.put("provisioningState", created ? "Creating" : "Updating");
    store.put(key, resource);
    Change change = start(key, created ? "create" : "update");
    acceptedChange(action);
    respond(exchange, created ? 201 : 200, assembled(key, store.get(key)).toString(), Map.of("Azure-AsyncOperation",
        operationUrl(change, false), "Retry-After", "0"));
  }

  // ---- operations ----------------------------------------------------------------------------------------

  /** A change under way, and what finishing it does to the store. */
  private static final class Change {
    final String id = UUID.randomUUID().toString();
    final String resource;
    final String kind;
    int left;

    Change(String resource, String kind, int left) {
      this.resource = resource;
      this.kind = kind;
      this.left = left;
    }
  }

  private Change start(String resource, String kind) {
    Change change = new Change(resource, kind, operationPolls);
    operations.put(change.id, change);
    changesByResource.put(resource, change);
    if (change.left <= 0) {
      finish(change);
    }
    return change;
  }

  private synchronized void advance(Change change) {
    if (change.left > 0) {
      change.left--;
    } else {
      finish(change);
    }
  }

  private synchronized void finish(Change change) {
    if (operations.remove(change.id) == null) {
      return;
    }
    changesByResource.remove(change.resource, change);
    finishedOperations.add(change.id);
    if (change.kind.equals("delete")) {
      store.remove(change.resource);
      store.keySet().removeIf(id -> id.startsWith(change.resource + "/"));
      return;
    }
    if (change.kind.equals("deleteGroup")) {
      String group = change.resource;
      resourceGroups.remove(group);
      deletingGroups.remove(group);
      store.keySet().removeIf(id -> id.split("/").length > 4 && id.split("/")[4].equals(group));
      return;
    }
    ObjectNode resource = store.get(change.resource);
    if (resource != null) {
      ObjectNode properties = (ObjectNode) resource.get("properties");
      properties.put("provisioningState", "Succeeded");
      if ("Starting".equals(properties.path("state").asText())) {
        properties.put("state", "Ready");
      }
      Map.Entry<String, String> settled = settling.remove(change.resource);
      if (settled != null) {
        properties.put(settled.getKey(), settled.getValue());
      }
    }
  }

  /** The operation's URL: its status document ({@code Azure-AsyncOperation}) or its {@code Location}. */
  private String operationUrl(Change change, boolean location) {
    return endpoint() + "/fake/operations/" + change.id + "?api-version=2023-01-01" + (location ? "&location=1" : "");
  }

  /**
   * An operation read, as ARM documents its polling: the status document says {@code InProgress} until the change
   * is done, then {@code Succeeded}; a {@code Location} URL answers 202 until then, then 200. Each read is a step
   * of the change; {@code Retry-After} asks the client to come back at once.
   */
  private void operation(HttpExchange exchange, String id) throws IOException {
    Change running = operations.get(id);
    if (running != null) {
      advance(running);
    }
    boolean done = finishedOperations.contains(id);
    if (!done && !operations.containsKey(id)) {
      respond(exchange, 404, error("OperationNotFound", "The operation '" + id + "' was not found."), Map.of());
      return;
    }
    String query = String.valueOf(exchange.getRequestURI().getRawQuery());
    if (query.contains("location=1")) {
      respond(exchange, done ? 200 : 202, "", done ? Map.of() : Map.of("Location", endpoint()
          + "/fake/operations/" + id + "?api-version=2023-01-01&location=1", "Retry-After", "0"));
      return;
    }
    ObjectNode status = JSON.createObjectNode().put("id", endpoint() + "/fake/operations/" + id).put("name", id)
        .put("status", done ? "Succeeded" : "InProgress");
    respond(exchange, 200, status.toString(), done ? Map.of() : Map.of("Retry-After", "0"));
  }

  // ---- resource groups -----------------------------------------------------------------------------------

  /**
   * A resource group, as {@code Microsoft.Resources} serves it: PUT creates or updates it at once, GET and HEAD
   * read it, DELETE is an operation that takes everything the group holds with it.
   */
  private void resourceGroup(HttpExchange exchange, String path) throws IOException {
    String group = path.substring(path.lastIndexOf('/') + 1);
    String key = group.toLowerCase(Locale.ROOT);
    String method = exchange.getRequestMethod();
    String action = "Microsoft.Resources/subscriptions/resourceGroups/" + switch (method) {
      case "PUT", "PATCH" -> "write";
      case "DELETE" -> "delete";
      default -> "read";
    };
    calls.add(action);
    Change deleting = changesByResource.get(key);
    if (deleting != null && !method.equals("DELETE")) {
      advance(deleting);
    }
    String location = resourceGroups.get(key);
    switch (method) {
      case "PUT" -> {
        JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
        if (!body.path("location").isTextual()) {
          respond(exchange, 400, error("LocationRequired", "The location property is required for this"
              + " definition."), Map.of());
          return;
        }
        if (deletingGroups.contains(key)) {
          respond(exchange, 409, error("ResourceGroupBeingDeleted", "The resource group '" + group
              + "' is in deprovisioning state and cannot perform this operation."), Map.of());
          return;
        }
        resourceGroups.put(key, location != null ? location : body.path("location").asText());
        acceptedChange(action);
        respond(exchange, location == null ? 201 : 200, group(path, group).toString(), Map.of());
      }
      case "HEAD" -> respond(exchange, location == null ? 404 : 204, "", Map.of());
      case "GET" -> {
        if (location == null) {
          respond(exchange, 404, error("ResourceGroupNotFound", "Resource group '" + group
              + "' could not be found."), Map.of());
        } else {
          respond(exchange, 200, group(path, group).toString(), Map.of());
        }
      }
      case "DELETE" -> {
        if (location == null) {
          respond(exchange, 404, error("ResourceGroupNotFound", "Resource group '" + group
              + "' could not be found."), Map.of());
          return;
        }
        Change change = deleting; // a delete already running answers with its operation again
        if (change == null) {
          deletingGroups.add(key);
          change = start(key, "deleteGroup");
          acceptedChange(action);
        }
        respond(exchange, 202, "", Map.of("Location", operationUrl(change, true), "Retry-After", "0"));
      }
      default -> respond(exchange, 405, error("MethodNotAllowed", method + " is not served"), Map.of());
    }
  }

  private ObjectNode group(String path, String group) {
    String key = group.toLowerCase(Locale.ROOT);
    ObjectNode rg = JSON.createObjectNode().put("id", path).put("name", group)
        .put("location", resourceGroups.get(key)).put("type", "Microsoft.Resources/resourceGroups");
    rg.putObject("properties").put("provisioningState", deletingGroups.contains(key) ? "Deleting" : "Succeeded");
    return rg;
  }

  /** A PATCH: the body, read by the SDK's model as a PUT's is, merged into the resource it names. */
  private void patch(HttpExchange exchange, Target target, String action) throws IOException {
    Type type = types.get((target.namespace() + "/" + target.typePath()).toLowerCase(Locale.ROOT));
    ObjectNode resource = store.get(target.id().toLowerCase(Locale.ROOT));
    if (type == null || resource == null) {
      respond(exchange, 404, error("ResourceNotFound", "The Resource '" + target.id() + "' was not found."),
          Map.of());
      return;
    }
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    JsonNode sent = JSON.readTree(body);
    String unknown = unknownKey(sent, JSON.readTree(written(type, body)), "");
    if (unknown != null) {
      respond(exchange, 400, error("InvalidRequestContent", "Could not find member '" + unknown + "' on object of"
          + " type '" + target.typePath() + "'."), Map.of());
      return;
    }
    merge(resource, (ObjectNode) sent);
    if (target.typePath().equalsIgnoreCase("virtualMachineScaleSets")) {
      syncInstances(target.id().toLowerCase(Locale.ROOT), resource);
    }
    acceptedChange(action);
    respond(exchange, 200, resource.toString(), Map.of());
  }

  private static void merge(ObjectNode into, ObjectNode patch) {
    patch.fields().forEachRemaining(field -> {
      JsonNode current = into.get(field.getKey());
      if (current instanceof ObjectNode object && field.getValue() instanceof ObjectNode nested) {
        merge(object, nested);
      } else {
        into.set(field.getKey(), field.getValue());
      }
    });
  }

  /** Read-only fields ARM fills in, by resource type. */
  private void fill(Target target, ObjectNode resource, ObjectNode properties) {
    switch (target.typePath().toLowerCase(Locale.ROOT)) {
      case "registries" -> properties.put("loginServer", target.name().toLowerCase(Locale.ROOT) + ".azurecr.io");
      case "flexibleservers" -> {
        // the administrator's password is write-only: ARM never answers with it
        properties.remove("administratorLoginPassword");
        properties.put("fullyQualifiedDomainName", standInHost != null ? standInHost
            : target.name() + (target.namespace().equalsIgnoreCase("Microsoft.DBforMySQL") ? ".mysql" : ".postgres")
                + ".database.azure.com");
        properties.put("state", operationPolls > 0 ? "Starting" : "Ready");
      }
      case "managedclusters" -> {
        properties.put("fqdn", properties.path("dnsPrefix").asText(target.name()) + "-" + Integer.toHexString(
            target.name().hashCode()) + ".hcp." + resource.path("location").asText() + ".azmk8s.io");
        properties.putObject("powerState").put("code", "Running");
      }
      case "virtualnetworks" -> {
        properties.put("resourceGuid", UUID.randomUUID().toString());
        // subnets written inline become the network's child resources, replacing those it had (as ARM does)
        String prefix = target.id().toLowerCase(Locale.ROOT) + "/subnets/";
        store.keySet().removeIf(id -> id.startsWith(prefix));
        JsonNode inline = properties.remove("subnets");
        if (inline != null) {
          for (JsonNode subnet : inline) {
            String id = target.id() + "/subnets/" + subnet.path("name").asText();
            ObjectNode child = JSON.createObjectNode().put("id", id).put("name", subnet.path("name").asText())
                .put("type", "Microsoft.Network/virtualNetworks/subnets");
            child.set("properties", subnet.has("properties") ? subnet.get("properties").deepCopy()
                : JSON.createObjectNode());
            ((ObjectNode) child.get("properties")).put("provisioningState", "Succeeded");
            store.put(id.toLowerCase(Locale.ROOT), child);
          }
        }
      }
      case "publicipaddresses" -> {
        int hash = Math.abs(target.id().toLowerCase(Locale.ROOT).hashCode());
        properties.put("ipAddress", "20.50." + (hash >> 8) % 250 + "." + (hash % 250 + 1));
        JsonNode label = properties.path("dnsSettings").path("domainNameLabel");
        if (label.isTextual()) {
          ((ObjectNode) properties.get("dnsSettings")).put("fqdn", label.asText() + "."
              + resource.path("location").asText() + ".cloudapp.azure.com");
        }
      }
      case "virtualmachinescalesets" -> properties.put("uniqueId", UUID.randomUUID().toString());
      case "redis" -> properties.put("hostName", target.name() + ".redis.cache.windows.net").put("port", 6379)
          .put("sslPort", 6380);
      case "virtualnetworks/virtualnetworkpeerings" -> {
        // connected once the other network peers back
        String remote = properties.path("remoteVirtualNetwork").path("id").asText("");
        String back = remote.toLowerCase(Locale.ROOT) + "/virtualnetworkpeerings/";
        boolean reciprocal = store.entrySet().stream().anyMatch(e -> e.getKey().startsWith(back)
            && e.getValue().path("properties").path("remoteVirtualNetwork").path("id").asText("")
                .equalsIgnoreCase(target.parentId()));
        properties.put("peeringState", reciprocal ? "Connected" : "Initiated");
        if (reciprocal) {
          store.entrySet().stream().filter(e -> e.getKey().startsWith(back)).forEach(e -> ((ObjectNode) e.getValue()
              .get("properties")).put("peeringState", "Connected"));
        }
      }
      default -> { }
    }
  }

  /**
   * The first resource id the body refers to ({@code id}, {@code targetResourceUri}, {@code metricResourceUri})
   * that names nothing the fake holds, or null. A reference into a resource held (a load balancer's backend
   * pool) counts when that part is written inline in its parent; a child resource type (a subnet) must itself
   * be held. References into the resource being written are its own parts.
   */
  private String missingReference(Target target, JsonNode body) {
    List<String> references = new ArrayList<>();
    collectReferences(body, references);
    String self = target.id().toLowerCase(Locale.ROOT);
    for (String reference : references) {
      String id = reference.toLowerCase(Locale.ROOT);
      if (!id.startsWith("/subscriptions/") || id.equals(self) || id.startsWith(self + "/")
          || !id.contains("/providers/")) {
        continue;
      }
      if (store.containsKey(id)) {
        continue;
      }
      String parent = store.keySet().stream().filter(held -> id.startsWith(held + "/"))
          .max(java.util.Comparator.comparingInt(String::length)).orElse(null);
      if (parent == null) {
        return reference;
      }
      Target parentTarget = parse(store.get(parent).path("id").asText());
      String[] rest = id.substring(parent.length() + 1).split("/");
      String childType = parentTarget == null ? null
          : (parentTarget.namespace() + "/" + parentTarget.typePath() + "/" + rest[0]).toLowerCase(Locale.ROOT);
      if (childType == null || types.containsKey(childType)) {
        return reference;
      }
    }
    return null;
  }

  private static void collectReferences(JsonNode node, List<String> into) {
    if (node.isObject()) {
      node.fields().forEachRemaining(field -> {
        if (field.getValue().isTextual() && Set.of("id", "targetresourceuri", "metricresourceuri",
            "delegatedsubnetresourceid", "privatednszonearmresourceid", "privatednszoneresourceid")
            .contains(field.getKey().toLowerCase(Locale.ROOT))) {
          into.add(field.getValue().asText());
        } else {
          collectReferences(field.getValue(), into);
        }
      });
    } else if (node.isArray()) {
      node.forEach(element -> collectReferences(element, into));
    }
  }

  /**
   * The first resource held elsewhere that uses {@code key} or a part of it, or null. A peering's remote network
   * and an autoscale setting's target do not hold what they name: ARM deletes those and leaves the peering
   * disconnected, the setting orphaned.
   */
  private String referrer(String key) {
    for (Map.Entry<String, ObjectNode> held : store.entrySet()) {
      String type = held.getValue().path("type").asText().toLowerCase(Locale.ROOT);
      if (held.getKey().equals(key) || held.getKey().startsWith(key + "/")
          || type.endsWith("/virtualnetworkpeerings") || type.startsWith("microsoft.insights/")) {
        continue;
      }
      List<String> references = new ArrayList<>();
      collectReferences(held.getValue(), references);
      for (String reference : references) {
        String id = reference.toLowerCase(Locale.ROOT);
        if (id.equals(key) || id.startsWith(key + "/")) {
          return held.getValue().path("id").asText();
        }
      }
    }
    return null;
  }

  /** The body as the SDK's model class reads and writes it: what the model does not define is not in it. */
  private static String written(Type type, String body) {
    return type.roundTrip().apply(body);
  }

  private static String unknownKey(JsonNode sent, JsonNode kept, String at) {
    if (sent.isObject()) {
      for (Iterator<String> names = sent.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!kept.has(name)) {
          return at.isEmpty() ? name : at + "." + name;
        }
        String nested = unknownKey(sent.get(name), kept.get(name), at.isEmpty() ? name : at + "." + name);
        if (nested != null) {
          return nested;
        }
      }
    } else if (sent.isArray() && kept.isArray()) {
      for (int i = 0; i < sent.size() && i < kept.size(); i++) {
        String nested = unknownKey(sent.get(i), kept.get(i), at + "[" + i + "]");
        if (nested != null) {
          return nested;
        }
      }
    }
    return null;
  }

  private void get(HttpExchange exchange, Target target) throws IOException {
    String key = target.id().toLowerCase(Locale.ROOT);
    ObjectNode resource = store.get(key);
    if (resource == null) {
      respond(exchange, 404, error(target.parentId() == null ? "ResourceNotFound" : "NotFound",
          "The Resource '" + target.namespace() + "/" + target.typePath() + "/" + target.name()
              + "' under resource group was not found."), Map.of());
      return;
    }
    Change change = changesByResource.get(key);
    if (change != null) {
      advance(change);
      resource = store.get(key);
      if (resource == null) {
        respond(exchange, 404, error(target.parentId() == null ? "ResourceNotFound" : "NotFound",
            "The Resource '" + target.namespace() + "/" + target.typePath() + "/" + target.name()
                + "' under resource group was not found."), Map.of());
        return;
      }
    }
    ObjectNode answer = assembled(key, resource);
    // a virtual network answers with its subnets and peerings inline, as ARM does
    if (target.typePath().equalsIgnoreCase("virtualNetworks")) {
      ArrayNode subnets = ((ObjectNode) answer.get("properties")).putArray("subnets");
      ArrayNode peerings = ((ObjectNode) answer.get("properties")).putArray("virtualNetworkPeerings");
      store.forEach((id, child) -> {
        if (id.startsWith(key + "/subnets/")) {
          subnets.add(child);
        } else if (id.startsWith(key + "/virtualnetworkpeerings/")) {
          peerings.add(child);
        }
      });
    }
    respond(exchange, 200, answer.toString(), Map.of());
  }

  private void list(HttpExchange exchange, Target target) throws IOException {
    String prefix = target.id().toLowerCase(Locale.ROOT) + "/";
    ObjectNode answer = JSON.createObjectNode();
    ArrayNode value = answer.putArray("value");
    // a read of a resource is time passing for a change under way on it, listed or read alone
    new TreeMap<>(store).keySet().forEach(id -> {
      Change change = id.startsWith(prefix) ? changesByResource.get(id) : null;
      if (change != null) {
        advance(change);
      }
    });
    new TreeMap<>(store).forEach((id, resource) -> {
      if (id.startsWith(prefix) && id.indexOf('/', prefix.length()) < 0) {
        value.add(resource);
      }
    });
    respond(exchange, 200, answer.toString(), Map.of());
  }

  private void delete(HttpExchange exchange, Target target, String action) throws IOException {
    String key = target.id().toLowerCase(Locale.ROOT);
    if (!store.containsKey(key)) {
      respond(exchange, 204, "", Map.of());
      return;
    }
    Fault refused = target.typePath().equalsIgnoreCase("managedClusters/agentPools")
        ? refusedPoolChange(key, null, true) : null;
    if (refused != null) {
      respond(exchange, refused.status(), error(refused.code(), refused.message()), Map.of());
      return;
    }
    String user = referrer(key);
    if (user != null) {
      // as the resource providers refuse it (InUseSubnetCannotBeDeleted, ...): what another uses stays
      String simpleType = target.typePath().substring(target.typePath().lastIndexOf('/') + 1);
      respond(exchange, 400, error("InUse" + Character.toUpperCase(simpleType.charAt(0)) + simpleType.substring(1,
          simpleType.length() - 1) + "CannotBeDeleted", target.id() + " is in use by " + user
          + " and cannot be deleted."), Map.of());
      return;
    }
    Type type = types.get((target.namespace() + "/" + target.typePath()).toLowerCase(Locale.ROOT));
    if (type != null && type.deletedAtOnce()) {
      store.remove(key);
      store.keySet().removeIf(id -> id.startsWith(key + "/"));
      acceptedChange(action);
      respond(exchange, 200, "", Map.of());
      return;
    }
    Change running = changesByResource.get(key);
    Change change;
    if (running != null && running.kind.equals("delete")) {
      change = running; // ARM accepts the delete again and answers with the operation already running
    } else {
      ((ObjectNode) store.get(key).get("properties")).put("provisioningState", "Deleting");
      change = start(key, "delete");
      acceptedChange(action);
    }
    respond(exchange, 202, "", Map.of("Location", operationUrl(change, true), "Azure-AsyncOperation",
        operationUrl(change, false), "Retry-After", "0"));
  }

  /** A managed cluster's user kubeconfig, as AKS hands it out for a cluster with local accounts. */
  private void listClusterUserCredential(HttpExchange exchange, String path) throws IOException {
    String action = "Microsoft.ContainerService/managedClusters/listClusterUserCredential/action";
    calls.add(action);
    String clusterId = path.substring(0, path.lastIndexOf('/'));
    ObjectNode cluster = store.get(clusterId.toLowerCase(Locale.ROOT));
    if (cluster == null) {
      respond(exchange, 404, error("ResourceNotFound", "The Resource '" + clusterId + "' was not found."), Map.of());
      return;
    }
    String name = cluster.path("name").asText();
    String yaml = "apiVersion: v1\nkind: Config\nclusters:\n- cluster:\n    certificate-authority-data: "
        + java.util.Base64.getEncoder().encodeToString(("fake CA of " + name).getBytes(StandardCharsets.UTF_8))
        + "\n    server: https://" + cluster.path("properties").path("fqdn").asText() + ":443\n  name: " + name
        + "\ncontexts:\n- context:\n    cluster: " + name + "\n    user: clusterUser\n  name: " + name
        + "\ncurrent-context: " + name + "\nusers:\n- name: clusterUser\n  user:\n    token: "
        + userTokens.computeIfAbsent(clusterId.toLowerCase(Locale.ROOT), k -> UUID.randomUUID().toString()) + "\n";
    ObjectNode answer = JSON.createObjectNode();
    answer.putArray("kubeconfigs").addObject().put("name", "clusterUser")
        .put("value", java.util.Base64.getEncoder().encodeToString(yaml.getBytes(StandardCharsets.UTF_8)));
    respond(exchange, 200, answer.toString(), Map.of());
  }

  // ---- Microsoft Entra ID, as far as a service principal's client-credentials grant goes ----------------------

  /** The secret of the one service principal the fake knows ({@link #CLIENT_ID}); its token is {@link #TOKEN}. */
  public static final String CLIENT_SECRET = "fake-client-secret";
  public static final String CLIENT_ID = "00000000-0000-0000-0000-0000000000c1";

  /**
   * The authority's metadata and its token endpoint, so a client that signs in with a client secret (MSAL and the
   * Azure identity libraries, with this fake as their authority host) gets the token the fake accepts; any other
   * client or secret is refused with {@code invalid_client}, as Entra ID refuses it.
   */
  private void identity(HttpExchange exchange, String path) throws IOException {
    String tenant = path.split("/")[1];
    String authority = endpoint() + "/" + tenant;
    if (path.endsWith("openid-configuration")) {
      ObjectNode metadata = JSON.createObjectNode().put("token_endpoint", authority + "/oauth2/v2.0/token")
          .put("authorization_endpoint", authority + "/oauth2/v2.0/authorize")
          .put("issuer", "https://login.microsoftonline.com/" + tenant + "/v2.0")
          .put("jwks_uri", authority + "/discovery/v2.0/keys");
      metadata.putArray("response_types_supported").add("code").add("id_token").add("token");
      respond(exchange, 200, metadata.toString(), Map.of());
      return;
    }
    Map<String, String> form = new java.util.HashMap<>();
    for (String pair : new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    if (!"client_credentials".equals(form.get("grant_type")) || !CLIENT_ID.equals(form.get("client_id"))
        || !CLIENT_SECRET.equals(form.get("client_secret"))) {
      respond(exchange, 401, JSON.createObjectNode().put("error", "invalid_client").put("error_description",
          "AADSTS7000215: Invalid client secret provided.").toString(), Map.of());
      return;
    }
    respond(exchange, 200, JSON.createObjectNode().put("token_type", "Bearer").put("expires_in", 3599)
        .put("ext_expires_in", 3599).put("access_token", TOKEN).toString(), Map.of());
  }

  // ---- the Key Vault data plane (this fake's address is the vault's) -----------------------------------

  /**
   * Key Vault's secrets API: a request without a token gets the 401 challenge naming the tenant's authority and
   * the vault audience, as Key Vault answers it; names over {@code [0-9a-zA-Z-]}, bodies read by the SDK's own
   * {@code SecretSetParameters}; the list names secrets without their values; soft delete keeps a deleted
   * secret's name reserved until it is purged.
   */
  private void keyVault(HttpExchange exchange, String path) throws IOException {
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (auth == null || !auth.equals("Bearer " + TOKEN)) {
      vaultChallenges.incrementAndGet();
      respond(exchange, 401, error("Unauthorized", "AKV10000: Request is missing a Bearer or PoP token."),
          Map.of("WWW-Authenticate", "Bearer authorization=\"https://login.microsoftonline.com/"
              + "00000000-0000-0000-0000-0000000000aa\", resource=\"https://vault.azure.net\""));
      return;
    }
    String method = exchange.getRequestMethod();
    if (path.equals("/secrets") && method.equals("GET")) {
      // the list: each secret's id and attributes, never its value
      calls.add("Microsoft.KeyVault/vaults/secrets/readMetadata/action");
      ObjectNode answer = JSON.createObjectNode().putNull("nextLink");
      ArrayNode value = answer.putArray("value");
      new TreeMap<>(vaultSecrets).forEach((name, bundle) -> value.addObject()
          .put("id", endpoint() + "/secrets/" + name).set("attributes", bundle.get("attributes").deepCopy()));
      respond(exchange, 200, answer.toString(), Map.of());
      return;
    }
    boolean deletedPath = path.startsWith("/deletedsecrets/");
    String[] parts = path.substring(deletedPath ? "/deletedsecrets/".length() : "/secrets/".length()).split("/");
    String name = parts[0];
    String action = "Microsoft.KeyVault/vaults/secrets/" + (deletedPath
        ? (method.equals("DELETE") ? "purge/action" : "readMetadata/action")
        : switch (method) {
          case "PUT" -> "setSecret/action";
          case "DELETE" -> "delete";
          default -> "getSecret/action";
        });
    if (answeredWithFault(exchange, action)) {
      return;
    }
    String base = endpoint() + "/secrets/" + name;
    if (deletedPath) {
      ObjectNode deleted = deletedSecrets.get(name);
      if (deleted == null) {
        respond(exchange, 404, error("SecretNotFound", "Deleted Secret not found: " + name), Map.of());
      } else if (method.equals("DELETE")) {
        deletedSecrets.remove(name);
        acceptedChange(action);
        respond(exchange, 204, "", Map.of());
      } else {
        respond(exchange, 200, deleted.toString(), Map.of());
      }
      return;
    }
    switch (method) {
      case "PUT" -> {
        if (!name.matches("[0-9a-zA-Z-]{1,127}")) {
          respond(exchange, 400, error("BadParameter", "The request URI contains an invalid name: " + name), Map.of());
          return;
        }
        if (deletedSecrets.containsKey(name)) {
          ObjectNode body = JSON.createObjectNode();
          body.putObject("error").put("code", "Conflict").put("message", "Secret " + name + " is currently in a"
              + " deleted but recoverable state, and its name cannot be reused; in this state, the secret can only"
              + " be recovered or purged.").putObject("innererror").put("code", "ObjectIsDeletedButRecoverable");
          respond(exchange, 409, body.toString(), Map.of());
          return;
        }
        String sent = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        JsonNode request;
        String kept;
        try (JsonReader reader = JsonProviders.createReader(sent)) {
          request = JSON.readTree(sent);
          kept = com.azure.security.keyvault.secrets.implementation.models.SecretSetParameters.fromJson(reader)
              .toJsonString();
        }
        String unknown = unknownKey(request, JSON.readTree(kept), "");
        if (unknown != null || !request.path("value").isTextual()) {
          respond(exchange, 400, error("BadParameter", unknown != null ? "Unknown property " + unknown
              : "Property value is required"), Map.of());
          return;
        }
        long now = java.time.Instant.now().getEpochSecond();
        ObjectNode bundle = JSON.createObjectNode().put("value", request.get("value").asText())
            .put("id", base + "/" + UUID.randomUUID().toString().replace("-", ""));
        bundle.putObject("attributes").put("enabled", true).put("created", now).put("updated", now)
            .put("recoveryLevel", "Recoverable+Purgeable").put("recoverableDays", 90);
        vaultSecrets.put(name, bundle);
        acceptedChange(action);
        respond(exchange, 200, bundle.toString(), Map.of());
      }
      case "DELETE" -> {
        ObjectNode bundle = vaultSecrets.remove(name);
        if (bundle == null) {
          respond(exchange, 404, error("SecretNotFound", "A secret with (name/id) " + name + " was not found in"
              + " this key vault."), Map.of());
          return;
        }
        long now = java.time.Instant.now().getEpochSecond();
        ObjectNode deleted = bundle.deepCopy().put("recoveryId", endpoint() + "/deletedsecrets/" + name)
            .put("deletedDate", now).put("scheduledPurgeDate", now + 90L * 86400);
        deleted.remove("value");
        deletedSecrets.put(name, deleted);
        acceptedChange(action);
        respond(exchange, 200, deleted.toString(), Map.of());
      }
      default -> {
        ObjectNode bundle = vaultSecrets.get(name);
        if (bundle == null) {
          respond(exchange, 404, error("SecretNotFound", "A secret with (name/id) " + name + " was not found in"
              + " this key vault."), Map.of());
        } else {
          respond(exchange, 200, bundle.toString(), Map.of());
        }
      }
    }
  }

  /** Secrets the vault holds, by name; and those deleted but not yet purged. */
  Map<String, String> vaultSecrets() {
    Map<String, String> values = new TreeMap<>();
    vaultSecrets.forEach((name, bundle) -> values.put(name, bundle.path("value").asText()));
    return values;
  }

  Set<String> deletedVaultSecrets() {
    return Set.copyOf(deletedSecrets.keySet());
  }

  /** How many requests the vault answered with its authentication challenge. */
  int vaultChallenges() {
    return vaultChallenges.get();
  }

  // ---- a scale set's instances ---------------------------------------------------------------------------

  private static final java.util.regex.Pattern MANUAL_UPGRADE = java.util.regex.Pattern.compile(
      "(/subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\\.Compute/virtualMachineScaleSets/[^/]+)"
          + "/manualupgrade", java.util.regex.Pattern.CASE_INSENSITIVE);

  /**
   * A scale set's instances as Compute keeps them ({@code virtualMachineScaleSets/{name}/virtualMachines}), as many
   * as its capacity. Under a manual upgrade policy a change of the set's model (its VM size) reaches no instance:
   * each reads {@code latestModelApplied: false} until it is upgraded ({@code manualupgrade}).
   */
  private void syncInstances(String key, ObjectNode scaleSet) {
    String size = scaleSet.path("sku").path("name").asText();
    int capacity = scaleSet.path("sku").path("capacity").asInt(0);
    String prefix = key + "/virtualmachines/";
    List<String> held = store.keySet().stream().filter(k -> k.startsWith(prefix) && k.indexOf('/', prefix.length()) < 0)
        .sorted(java.util.Comparator.comparingInt(k -> Integer.parseInt(k.substring(prefix.length())))).toList();
    for (String instance : held) {
      ObjectNode vm = store.get(instance);
      ((ObjectNode) vm.get("properties")).put("latestModelApplied", size.equals(vm.path("sku").path("name").asText()));
    }
    int next = held.isEmpty() ? 0 : Integer.parseInt(held.get(held.size() - 1).substring(prefix.length())) + 1;
    for (int count = held.size(); count < capacity; count++, next++) {
      String id = scaleSet.path("id").asText() + "/virtualMachines/" + next;
      ObjectNode vm = JSON.createObjectNode().put("id", id).put("name", scaleSet.path("name").asText() + "_" + next)
          .put("type", "Microsoft.Compute/virtualMachineScaleSets/virtualMachines").put("instanceId",
              String.valueOf(next)).put("location", scaleSet.path("location").asText());
      vm.putObject("sku").put("name", size).put("tier", "Standard");
      vm.putObject("properties").put("latestModelApplied", true).put("provisioningState", "Succeeded");
      store.put(prefix + next, vm);
    }
    for (int i = capacity; i < held.size(); i++) {
      store.remove(held.get(held.size() - 1 - (i - capacity)));
    }
  }

  /** {@code POST .../manualupgrade}: the named instances take the set's model, one operation for them. */
  private void manualUpgrade(HttpExchange exchange, String scaleSetId) throws IOException {
    String action = "Microsoft.Compute/virtualMachineScaleSets/manualUpgrade/action";
    if (answeredWithFault(exchange, action)) {
      return;
    }
    String key = scaleSetId.toLowerCase(Locale.ROOT);
    ObjectNode scaleSet = store.get(key);
    JsonNode body = JSON.readTree(exchange.getRequestBody().readAllBytes());
    if (scaleSet == null || !body.path("instanceIds").isArray() || body.path("instanceIds").isEmpty()) {
      respond(exchange, scaleSet == null ? 404 : 400, error(scaleSet == null ? "ResourceNotFound" : "InvalidParameter",
          scaleSet == null ? "The Resource '" + scaleSetId + "' was not found." : "instanceIds is required"), Map.of());
      return;
    }
    Change change = null;
    for (JsonNode instance : body.path("instanceIds")) {
      ObjectNode vm = store.get(key + "/virtualmachines/" + instance.asText());
      if (vm == null) {
        respond(exchange, 404, error("NotFound", "Instance " + instance.asText() + " of " + scaleSetId
            + " was not found."), Map.of());
        return;
      }
      ((ObjectNode) vm.get("sku")).put("name", scaleSet.path("sku").path("name").asText());
      ((ObjectNode) vm.get("properties")).put("latestModelApplied", true).put("provisioningState", "Updating");
      change = start(key + "/virtualmachines/" + instance.asText(), "update");
    }
    acceptedChange(action);
    respond(exchange, 202, "", Map.of("Location", operationUrl(change, true), "Azure-AsyncOperation",
        operationUrl(change, false), "Retry-After", "0"));
  }

  // ---- power: what remediation does to scale sets, VMs, servers, SQL pools and triggers ---------------

  private static final java.util.regex.Pattern POWER_ACTION = java.util.regex.Pattern.compile(
      "(/subscriptions/[^/]+/resourceGroups/[^/]+/providers/.+)/(deallocate|start|stop|pause|resume|instanceView)",
      java.util.regex.Pattern.CASE_INSENSITIVE);
  /** Power state of scale sets and VMs by id (lower-cased): running unless an action changed it. */
  private final Map<String, String> powerStates = new ConcurrentHashMap<>();
  private final Map<String, Integer> powerPolls = new ConcurrentHashMap<>();
  /** A property a resource settles to once its operation's polls are used up: id to (property, value). */
  private final Map<String, Map.Entry<String, String>> settling = new ConcurrentHashMap<>();

  /**
   * How each type answers a power action: the property that shows it, its value during the operation and after.
   * Scale sets and VMs show theirs in the instance view instead.
   */
  private static Map.Entry<String, String[]> transition(String type, String verb) {
    String t = type.toLowerCase(Locale.ROOT);
    String v = verb.toLowerCase(Locale.ROOT);
    if (t.endsWith("/flexibleservers")) {
      return Map.entry("state", v.equals("start") ? new String[] {"Starting", "Ready"}
          : new String[] {"Stopping", "Stopped"});
    }
    if (t.endsWith("/sqlpools")) {
      return Map.entry("status", v.equals("resume") ? new String[] {"Resuming", "Online"}
          : new String[] {"Pausing", "Paused"});
    }
    if (t.endsWith("/triggers")) {
      return Map.entry("runtimeState", v.equals("start") ? new String[] {"Started", "Started"}
          : new String[] {"Stopped", "Stopped"});
    }
    return null;
  }

  private void power(HttpExchange exchange, String id, String verb) throws IOException {
    String key = id.toLowerCase(Locale.ROOT);
    ObjectNode resource = store.get(key);
    Target target = parse(id);
    String typeName = resource != null ? resource.path("type").asText()
        : target == null ? "unknown" : target.namespace() + "/" + target.typePath();
    boolean read = verb.equalsIgnoreCase("instanceView");
    String action = read ? typeName + "/read" : typeName + "/" + verb + "/action";
    if (answeredWithFault(exchange, action)) {
      return;
    }
    if (resource == null) {
      respond(exchange, 404, error("ResourceNotFound", "The Resource '" + id + "' was not found."), Map.of());
      return;
    }
    Map.Entry<String, String[]> change = transition(typeName, verb);
    if (!read) {
      Change operation;
      if (change != null) {
        ((ObjectNode) resource.get("properties")).put(change.getKey(),
            operationPolls > 0 ? change.getValue()[0] : change.getValue()[1]);
        settling.put(key, Map.entry(change.getKey(), change.getValue()[1]));
        operation = start(key, "update");
      } else {
        powerStates.put(key, verb.equalsIgnoreCase("start") ? "running" : "deallocated");
        powerPolls.put(key, operationPolls);
        // the instance view tells how far it is; the operation is done with the same reads
        operation = start(key + "#power", "update");
      }
      acceptedChange(action);
      if (typeName.toLowerCase(Locale.ROOT).endsWith("/triggers")) {
        // Data Factory answers a trigger's start and stop when they are done: 200, no operation to poll
        respond(exchange, 200, "", Map.of());
        return;
      }
      respond(exchange, 202, "", Map.of("Location", operationUrl(operation, true), "Retry-After", "0"));
      return;
    }
    String state = currentPower(key, powerStates.getOrDefault(key, "running"));
    ObjectNode view = JSON.createObjectNode();
    if (typeName.toLowerCase(Locale.ROOT).endsWith("/virtualmachinescalesets")) {
      view.putObject("virtualMachine").putArray("statusesSummary").addObject().put("code", "PowerState/" + state)
          .put("count", resource.path("sku").path("capacity").asInt(1));
      view.putArray("statuses").addObject().put("code", "ProvisioningState/succeeded");
    } else {
      ArrayNode statuses = view.putArray("statuses");
      statuses.addObject().put("code", "ProvisioningState/succeeded");
      statuses.addObject().put("code", "PowerState/" + state);
    }
    respond(exchange, 200, view.toString(), Map.of());
  }

  /** The state a read sees: the transition's (deallocating, starting) until its polls are used up. */
  private String currentPower(String key, String settled) {
    int left = powerPolls.getOrDefault(key, 0);
    if (left > 0) {
      powerPolls.put(key, left - 1);
      return settled.equals("running") ? "starting" : "deallocating";
    }
    return settled;
  }

  /** A cache's access keys, made once per cache as Azure makes them. */
  private void listKeys(HttpExchange exchange, String id) throws IOException {
    ObjectNode resource = store.get(id.toLowerCase(Locale.ROOT));
    String action = (resource == null ? "unknown" : resource.path("type").asText()) + "/listKeys/action";
    calls.add(action);
    if (resource == null) {
      respond(exchange, 404, error("ResourceNotFound", "The Resource '" + id + "' was not found."), Map.of());
      return;
    }
    String primary = accessKeys.computeIfAbsent(id.toLowerCase(Locale.ROOT), k -> java.util.Base64.getEncoder()
        .encodeToString(UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8)));
    respond(exchange, 200, JSON.createObjectNode().put("primaryKey", primary).put("secondaryKey",
        new StringBuilder(primary).reverse().toString()).toString(), Map.of());
  }

  /** The primary access key of a cache, to compare a stored one with. */
  String accessKey(String id) {
    return accessKeys.get(id.toLowerCase(Locale.ROOT));
  }

  /** The user token of a cluster's kubeconfig, to compare a minted one with. */
  String userToken(String clusterId) {
    return userTokens.get(clusterId.toLowerCase(Locale.ROOT));
  }

  private void acceptedChange(String action) {
    try {
      halts.accepted(action);
    } catch (EngineHalted halted) {
      haltDue.set(action);
    }
  }

  private static String error(String code, String message) {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("error").put("code", code).put("message", message);
    return body.toString();
  }

  private static void respond(HttpExchange exchange, int status, String body, Map<String, String> headers)
      throws IOException {
    headers.forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
