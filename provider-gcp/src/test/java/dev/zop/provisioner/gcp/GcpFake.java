package dev.zop.provisioner.gcp;

import com.google.api.AnnotationsProto;
import com.google.api.HttpRule;
import com.google.api.pathtemplate.PathTemplate;
import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.testkit.tck.HaltSwitch;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.zip.GZIPInputStream;

/**
 * A stateful GCP fake for the provider's tests. No third-party emulator covers these APIs, so its fidelity comes
 * from Google's own published definitions, not from our reading of the documentation:
 *
 * <ul>
 *   <li>routes are the {@code google.api.http} rules of the API protos Google ships on Maven Central, read from
 *       the descriptors compiled into the client libraries' message classes (verb, path template, body field);</li>
 *   <li>request bodies and query parameters are parsed into the request message types of those protos with
 *       {@link JsonFormat}, unknown fields rejected, so a misspelt or misplaced field is a 400 as Google answers;</li>
 *   <li>answers are printed from the same message types ({@code $alt=json;enum-encoding=int} honoured).</li>
 * </ul>
 *
 * <p>Behaviour is generic by the shape of a method: a create or insert stores the resource under its collection
 * (409 when the name is taken) and answers with the API's operation type, which stays running for
 * {@link #operationPolls(int)} reads; get, list and delete work on the same store; other methods act through
 * handlers a test registers ({@link #on}). Read-only fields (self links, ids, creation times) are filled. Errors
 * are {@code google.rpc.Status} bodies with an {@code ErrorInfo} reason. Faults can be injected per IAM
 * permission. Each API is served on its own loopback port, as each has its own host at Google.
 */
public final class GcpFake implements AutoCloseable {

  /**
   * One Google API: the short name its IAM permissions start with, the protos that define it and, for an API that
   * answers with {@code google.longrunning.Operation}s, the path of its operations collection as its service
   * configuration binds {@code google.longrunning.Operations} there (the protos leave that binding out).
   */
  public record Api(String name, List<FileDescriptor> files, String operations) {
    Api(String name, List<FileDescriptor> files) {
      this(name, files, null);
    }
  }

  public static final Api COMPUTE = new Api("compute",
      List.of(com.google.cloud.compute.v1.Network.getDescriptor().getFile()));
  public static final Api ARTIFACT_REGISTRY = new Api("artifactregistry",
      List.of(com.google.devtools.artifactregistry.v1.ServiceProto.getDescriptor()),
      "v1/{name=projects/*/locations/*/operations/*}");
  public static final Api SECRET_MANAGER = new Api("secretmanager",
      List.of(com.google.cloud.secretmanager.v1.ServiceProto.getDescriptor()));
  public static final Api CONTAINER = new Api("container",
      List.of(com.google.container.v1.Cluster.getDescriptor().getFile()));
  public static final Api REDIS = new Api("redis",
      List.of(com.google.cloud.redis.v1.Instance.getDescriptor().getFile()),
      "v1/{name=projects/*/locations/*/operations/*}");
  public static final Api DATAPROC = new Api("dataproc",
      List.of(com.google.cloud.dataproc.v1.Cluster.getDescriptor().getFile()));
  /** Cloud SQL Admin has no protos: {@link CloudSqlFake} serves it from its discovery-generated client. */
  public static final Api CLOUD_SQL = new Api("sqladmin", List.of());
  /** Cloud DNS likewise: {@link CloudDnsFake}. */
  public static final Api CLOUD_DNS = new Api("dns", List.of());

  /** A route: an HTTP rule of one proto method, and the IAM permission that method needs. */
  record Route(Api api, String verb, PathTemplate template, String pathPrefix, String customVerb, String body,
      MethodDescriptor method, String permission) {}

  /** What a handler for a method that is not create, get, list or delete receives. */
  record Call(Route route, Message request, Map<String, String> pathVariables, String path) {}

  /** An injected failure: HTTP status, {@code google.rpc.Code} name, {@code ErrorInfo} reason. */
  record Fault(int status, String code, String reason, String message) {
    static Fault permissionDenied(String permission) {
      return new Fault(403, "PERMISSION_DENIED", "IAM_PERMISSION_DENIED",
          "Permission '" + permission + "' denied on resource (or it may not exist).");
    }

    static Fault serviceDisabled(String service) {
      return new Fault(403, "PERMISSION_DENIED", "SERVICE_DISABLED", service + " API has not been used in project "
          + "before or it is disabled. Enable it by visiting the console then retry.");
    }

    static Fault quotaExceeded() {
      return new Fault(403, "RESOURCE_EXHAUSTED", "QUOTA_EXCEEDED",
          "Quota 'NETWORKS' exceeded. Limit: 15.0 globally.");
    }

    static Fault rateLimited() {
      return new Fault(429, "RESOURCE_EXHAUSTED", "RATE_LIMIT_EXCEEDED", "Rate Limit Exceeded");
    }

    static Fault unavailable() {
      return new Fault(503, "UNAVAILABLE", "BACKEND_ERROR", "The service is currently unavailable.");
    }

    static Fault billingDisabled() {
      return new Fault(403, "PERMISSION_DENIED", "BILLING_DISABLED",
          "This API method requires billing to be enabled.");
    }
  }

  private final List<Route> routes = new ArrayList<>();
  private final Map<String, HttpServer> servers = new LinkedHashMap<>();
  private final Map<String, HttpServer> secureServers = new LinkedHashMap<>();
  private final dev.zop.provisioner.testkit.fakes.LoopbackTls tls = dev.zop.provisioner.testkit.fakes.LoopbackTls
      .create();
  /** api name + path → resource; operations are stored like any resource, under their own path */
  private final Map<String, Message> store = new ConcurrentHashMap<>();
  /** Changes still running, by the key of their operation and by the key of their resource. */
  private final Map<String, Change> changesByOperation = new ConcurrentHashMap<>();
  private final Map<String, Change> changesByResource = new ConcurrentHashMap<>();
  /** Compute Engine resources whose insert is still running: not visible yet, but their names are taken. */
  private final Map<String, Message> hidden = new ConcurrentHashMap<>();
  private final Map<String, BiConsumer<Call, Answer>> handlers = new ConcurrentHashMap<>();
  private final Map<String, Deque<Fault>> faults = new ConcurrentHashMap<>();
  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, com.google.cloud.secretmanager.v1.SecretPayload> payloads = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicReference<String> haltDue =
      new java.util.concurrent.atomic.AtomicReference<>();
  private final AtomicLong ids = new AtomicLong(1_000_000_000L);
  private final HaltSwitch halts = new HaltSwitch();
  private final JsonFormat.TypeRegistry types;
  private final CloudSqlFake cloudSql = new CloudSqlFake(this);
  private final CloudDnsFake cloudDns = new CloudDnsFake(this);
  private final Map<String, String> authStrings = new ConcurrentHashMap<>();
  private volatile int operationPolls;

  public GcpFake(Api... apis) {
    // answers go out at once: with Nagle's algorithm each small answer waits on the client's delayed ACK
    System.setProperty("sun.net.httpserver.nodelay", "true");
    JsonFormat.TypeRegistry.Builder registry = JsonFormat.TypeRegistry.newBuilder();
    for (Api api : apis) {
      for (FileDescriptor file : api.files()) {
        file.getMessageTypes().forEach(registry::add);
        for (ServiceDescriptor service : file.getServices()) {
          for (MethodDescriptor method : service.getMethods()) {
            HttpRule rule = method.getOptions().getExtension(AnnotationsProto.http);
            addRoute(api, method, rule);
            rule.getAdditionalBindingsList().forEach(binding -> addRoute(api, method, binding));
          }
        }
      }
      if (api.operations() != null) {
        addOperationsRoutes(api);
      }
      try {
        // each API on plain HTTP (for clients that take a scheme) and on HTTPS (for those that insist on it)
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        com.sun.net.httpserver.HttpsServer secure = com.sun.net.httpserver.HttpsServer.create(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        secure.setHttpsConfigurator(new com.sun.net.httpserver.HttpsConfigurator(tls.serverContext()));
        var workers = Executors.newFixedThreadPool(4);
        for (HttpServer listener : List.of(server, secure)) {
          if (api == CLOUD_SQL) {
            listener.createContext("/", cloudSql::serve);
          } else if (api == CLOUD_DNS) {
            listener.createContext("/", cloudDns::serve);
          } else {
            listener.createContext("/", exchange -> serve(api, exchange));
          }
          listener.createContext("/token", this::issueToken);
          listener.setExecutor(workers);
          listener.start();
        }
        servers.put(api.name(), server);
        secureServers.put(api.name(), secure);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    this.types = registry.build();
    addBuiltInBehaviours();
    new GkeBehaviours(this).register();
  }

  /**
   * The fake's crash point for the TCK's matrix, given to the provider as its call observer: when the armed
   * mutating call has been accepted (the change is stored, its answer not yet sent), the provider's thread halts
   * as the call returns, as an engine that dies there would.
   */
  dev.zop.provisioner.kit.CloudCalls.Observer haltingObserver() {
    return permission -> {
      String due = haltDue.getAndSet(null);
      if (due != null) {
        throw new dev.zop.provisioner.testkit.tck.EngineHalted(due);
      }
    };
  }

  // ---- methods whose behaviour is not create, get, list or delete ----------------------------------------

  private void addBuiltInBehaviours() {
    on("compute.networks.addPeering", (call, answer) -> {
      String networkPath = call.path().substring(0, call.path().lastIndexOf('/'));
      var network = (com.google.cloud.compute.v1.Network) typed(store.get("compute " + networkPath),
          com.google.cloud.compute.v1.Network.getDefaultInstance());
      if (network == null) {
        answer.fail(notFound(networkPath));
        return;
      }
      var wanted = (com.google.cloud.compute.v1.NetworksAddPeeringRequest) typed(call.request().getField(
          call.request().getDescriptorForType().findFieldByName(call.route().body())),
          com.google.cloud.compute.v1.NetworksAddPeeringRequest.getDefaultInstance());
      var peering = wanted.getNetworkPeering();
      if (network.getPeeringsList().stream().anyMatch(p -> p.getName().equals(peering.getName()))) {
        answer.fail(new Fault(400, "INVALID_ARGUMENT", "BAD_REQUEST", "There is already a peering named '"
            + peering.getName() + "' on network '" + network.getName() + "': it already exists."));
        return;
      }
      String peerPath = peering.getNetwork().substring(peering.getNetwork().indexOf("compute/v1/"));
      var peer = (com.google.cloud.compute.v1.Network) typed(store.get("compute " + peerPath),
          com.google.cloud.compute.v1.Network.getDefaultInstance());
      if (peer == null) {
        answer.fail(notFound(peerPath));
        return;
      }
      boolean reciprocal = peer.getPeeringsList().stream().anyMatch(p -> p.getNetwork().equals(network.getSelfLink()));
      String state = reciprocal ? "ACTIVE" : "INACTIVE";
      store.put("compute " + networkPath, network.toBuilder().addPeerings(peering.toBuilder().setState(state)
          .setStateDetails(reciprocal ? "Connected." : "Waiting for peer network to connect.")).build());
      if (reciprocal) {
        var peerBuilder = peer.toBuilder().clearPeerings();
        peer.getPeeringsList().forEach(p -> peerBuilder.addPeerings(p.getNetwork().equals(network.getSelfLink())
            ? p.toBuilder().setState("ACTIVE").setStateDetails("Connected.").build() : p));
        store.put("compute " + peerPath, peerBuilder.build());
      }
      answer.ok(operation(call.route(), networkPath, network, "addPeering"));
    });
    on("compute.networks.removePeering", (call, answer) -> {
      String networkPath = call.path().substring(0, call.path().lastIndexOf('/'));
      var network = (com.google.cloud.compute.v1.Network) typed(store.get("compute " + networkPath),
          com.google.cloud.compute.v1.Network.getDefaultInstance());
      var wanted = (com.google.cloud.compute.v1.NetworksRemovePeeringRequest) typed(call.request().getField(
          call.request().getDescriptorForType().findFieldByName(call.route().body())),
          com.google.cloud.compute.v1.NetworksRemovePeeringRequest.getDefaultInstance());
      if (network == null || network.getPeeringsList().stream().noneMatch(p -> p.getName().equals(wanted.getName()))) {
        answer.fail(notFound(networkPath + "/peerings/" + wanted.getName()));
        return;
      }
      var removed = network.getPeeringsList().stream().filter(p -> p.getName().equals(wanted.getName())).findFirst()
          .orElseThrow();
      var kept = network.toBuilder().clearPeerings();
      network.getPeeringsList().stream().filter(p -> p != removed).forEach(kept::addPeerings);
      store.put("compute " + networkPath, kept.build());
      // the other side's peering stays, inactive, until it is removed there too
      String peerPath = removed.getNetwork().substring(removed.getNetwork().indexOf("compute/v1/"));
      var peer = (com.google.cloud.compute.v1.Network) typed(store.get("compute " + peerPath),
          com.google.cloud.compute.v1.Network.getDefaultInstance());
      if (peer != null) {
        var peerBuilder = peer.toBuilder().clearPeerings();
        peer.getPeeringsList().forEach(p -> peerBuilder.addPeerings(p.getNetwork().equals(network.getSelfLink())
            ? p.toBuilder().setState("INACTIVE").setStateDetails("Peer network disconnected.").build() : p));
        store.put("compute " + peerPath, peerBuilder.build());
      }
      answer.ok(operation(call.route(), networkPath, network, "removePeering"));
    });
    for (String verb : List.of("start", "stop")) {
      on("compute.instances." + verb, (call, answer) -> {
        String instancePath = call.path().substring(0, call.path().lastIndexOf('/'));
        var instance = (com.google.cloud.compute.v1.Instance) typed(store.get("compute " + instancePath),
            com.google.cloud.compute.v1.Instance.getDefaultInstance());
        if (instance == null) {
          answer.fail(notFound(instancePath));
          return;
        }
        // a stopped Compute Engine instance reads TERMINATED, and keeps its disks
        store.put("compute " + instancePath, instance.toBuilder().setStatus(verb.equals("stop") ? "TERMINATED"
            : "RUNNING").build());
        answer.ok(operation(call.route(), instancePath, instance, verb));
      });
    }
    // Compute Engine's operations wait: a bounded wait that answers with the operation, done or not yet
    for (String scope : List.of("globalOperations", "regionOperations", "zoneOperations")) {
      on("compute." + scope + ".wait", (call, answer) -> {
        String key = "compute " + call.path().substring(0, call.path().lastIndexOf('/'));
        Change change = changesByOperation.get(key);
        if (change != null) {
          advance(change);
        }
        Message op = store.get(key);
        if (op == null) {
          answer.fail(notFound(call.path()));
        } else {
          answer.ok(op);
        }
      });
    }
    // Memorystore changes only what its update mask names, and only the fields Google's proto lists as updatable
    on("redis.instances.update", (call, answer) -> {
      var request = (com.google.cloud.redis.v1.UpdateInstanceRequest) typed(call.request(),
          com.google.cloud.redis.v1.UpdateInstanceRequest.getDefaultInstance());
      String key = "redis " + call.path();
      synchronized (this) {
        var stored = (com.google.cloud.redis.v1.Instance) typed(store.get(key),
            com.google.cloud.redis.v1.Instance.getDefaultInstance());
        Fault refused = required(request);
        if (stored == null) {
          refused = notFound(call.path());
        } else if (refused == null && changesByResource.containsKey(key)) {
          refused = new Fault(400, "FAILED_PRECONDITION", "BAD_REQUEST", "An operation is already running on"
              + " instance " + stored.getName() + ".");
        }
        List<String> updatable = List.of("display_name", "labels", "memory_size_gb", "redis_config", "replica_count");
        for (String path : request.getUpdateMask().getPathsList()) {
          if (refused == null && !updatable.contains(path)) {
            refused = new Fault(400, "INVALID_ARGUMENT", "BAD_REQUEST", "update_mask path '" + path
                + "' is not an updatable field of an instance");
          }
        }
        if (refused != null) {
          answer.fail(refused);
          return;
        }
        Message.Builder changed = stored.toBuilder();
        for (String path : request.getUpdateMask().getPathsList()) {
          FieldDescriptor field = changed.getDescriptorForType().findFieldByName(path);
          changed.setField(field, request.getInstance().getField(field));
        }
        setEnumIfPresent(changed, "state", "UPDATING");
        store.put(key, changed.build());
        answer.ok(operation(call.route(), call.path(), changed.build(), "update", () -> {
          Message current = store.get(key);
          if (current != null) {
            Message.Builder ready = current.toBuilder();
            setEnumIfPresent(ready, "state", "READY");
            store.put(key, ready.build());
          }
        }));
      }
    });
    // Compute Engine's Patch (PATCH, JSON merge: a field sent replaces the resource's) and Update (PUT, the whole
    // resource) of autoscalers and managed instance groups; a group told to run another template reads unstable
    // until the rolling update's operation is done
    for (String collection : List.of("autoscalers", "instanceGroupManagers", "firewalls")) {
      on("compute." + collection + ".update", (call, answer) -> {
        Descriptor type = call.request().getDescriptorForType();
        FieldDescriptor body = type.findFieldByName(call.route().body());
        Message sent = (Message) call.request().getField(body);
        FieldDescriptor named = type.findFieldByName(switch (collection) {
          case "autoscalers" -> "autoscaler";
          case "firewalls" -> "firewall";
          default -> "instance_group_manager";
        });
        String name = call.request().hasField(named) ? (String) call.request().getField(named)
            : (String) sent.getField(sent.getDescriptorForType().findFieldByName("name"));
        String path = call.path().endsWith("/" + collection) ? call.path() + "/" + name : call.path();
        synchronized (this) {
          Message stored = store.get("compute " + path);
          if (stored == null) {
            answer.fail(notFound(path));
            return;
          }
          Message.Builder changed = call.route().verb().equals("PUT") ? sent.toBuilder() : stored.toBuilder();
          if (!call.route().verb().equals("PUT")) {
            sent.getAllFields().forEach(changed::setField);
          }
          for (String kept : List.of("name", "self_link", "id", "creation_timestamp", "instance_group", "target")) {
            FieldDescriptor field = stored.getDescriptorForType().findFieldByName(kept);
            if (field != null && stored.hasField(field)) {
              changed.setField(field, stored.getField(field));
            }
          }
          FieldDescriptor status = changed.getDescriptorForType().findFieldByName("status");
          boolean group = collection.equals("instanceGroupManagers");
          FieldDescriptor versions = group ? changed.getDescriptorForType().findFieldByName("versions") : null;
          if (group && changed.getRepeatedFieldCount(versions) == 1) {
            // a group running one version reads that version's template as its own, as Compute Engine answers
            Message version = (Message) changed.getRepeatedField(versions, 0);
            changed.setField(changed.getDescriptorForType().findFieldByName("instance_template"),
                version.getField(version.getDescriptorForType().findFieldByName("instance_template")));
          }
          if (group) {
            changed.setField(status, groupStatus((Message) changed.getField(status), false));
          }
          store.put("compute " + path, changed.build());
          answer.ok(operation(call.route(), path, changed.build(), "patch", () -> {
            Message current = store.get("compute " + path);
            if (group && current != null) {
              Message.Builder settled = current.toBuilder();
              settled.setField(status, groupStatus((Message) current.getField(status), true));
              store.put("compute " + path, settled.build());
            }
          }));
        }
      });
    }
    // Artifact Registry changes what the update mask names (dotted paths reach into the repository's configs) and
    // answers with the repository itself
    on("artifactregistry.repositories.update", (call, answer) -> {
      var request = (com.google.devtools.artifactregistry.v1.UpdateRepositoryRequest) typed(call.request(),
          com.google.devtools.artifactregistry.v1.UpdateRepositoryRequest.getDefaultInstance());
      String key = "artifactregistry " + call.path();
      var stored = (com.google.devtools.artifactregistry.v1.Repository) typed(store.get(key),
          com.google.devtools.artifactregistry.v1.Repository.getDefaultInstance());
      if (stored == null) {
        answer.fail(notFound(call.path()));
        return;
      }
      var changed = stored.toBuilder();
      com.google.protobuf.util.FieldMaskUtil.merge(request.getUpdateMask(), request.getRepository(), changed,
          new com.google.protobuf.util.FieldMaskUtil.MergeOptions().setReplaceMessageFields(true)
              .setReplaceRepeatedFields(true).setReplacePrimitiveFields(true));
      changed.setName(stored.getName()).setCreateTime(stored.getCreateTime())
          .setUpdateTime(com.google.protobuf.Timestamp.newBuilder().setSeconds(Instant.now().getEpochSecond()));
      store.put(key, changed.build());
      answer.ok(changed.build());
    });
    on("redis.instances.getAuthString", (call, answer) -> {
      String instance = call.path().substring(0, call.path().lastIndexOf('/'));
      if (!store.containsKey("redis " + instance)) {
        answer.fail(notFound(instance));
        return;
      }
      answer.ok(com.google.cloud.redis.v1.InstanceAuthString.newBuilder().setAuthString(
          authStrings.computeIfAbsent(instance, i -> java.util.UUID.randomUUID().toString())).build());
    });
    on("secretmanager.versions.add", (call, answer) -> {
      String secretPath = call.path();
      if (!store.containsKey("secretmanager " + secretPath)) {
        answer.fail(notFound(secretPath));
        return;
      }
      var request = (com.google.cloud.secretmanager.v1.AddSecretVersionRequest) typed(call.request(),
          com.google.cloud.secretmanager.v1.AddSecretVersionRequest.getDefaultInstance());
      long number = store.keySet().stream().filter(k -> k.startsWith("secretmanager " + secretPath + "/versions/"))
          .count() + 1;
      String versionPath = secretPath + "/versions/" + number;
      var version = com.google.cloud.secretmanager.v1.SecretVersion.newBuilder()
          .setName(versionPath.substring(versionPath.indexOf("projects/")))
          .setState(com.google.cloud.secretmanager.v1.SecretVersion.State.ENABLED).build();
      store.put("secretmanager " + versionPath, version);
      payloads.put(versionPath, request.getPayload());
      answer.ok(version);
    });
    on("secretmanager.versions.access", (call, answer) -> {
      String versionPath = call.path();
      if (versionPath.endsWith("/latest")) {
        String prefix = versionPath.substring(0, versionPath.length() - "latest".length());
        versionPath = payloads.keySet().stream().filter(k -> k.startsWith(prefix))
            .max(java.util.Comparator.comparingLong(k -> Long.parseLong(k.substring(prefix.length()))))
            .orElse(versionPath);
      }
      var payload = payloads.get(versionPath);
      if (payload == null || !store.containsKey("secretmanager " + versionPath)) {
        answer.fail(notFound(call.path()));
        return;
      }
      answer.ok(com.google.cloud.secretmanager.v1.AccessSecretVersionResponse.newBuilder()
          .setName(versionPath.substring(versionPath.indexOf("projects/"))).setPayload(payload).build());
    });
  }

  /** A managed instance group's status: stable, its instances on their target version, or neither. */
  private static Message groupStatus(Message status, boolean settled) {
    Message.Builder builder = status.toBuilder();
    builder.setField(builder.getDescriptorForType().findFieldByName("is_stable"), settled);
    FieldDescriptor target = builder.getDescriptorForType().findFieldByName("version_target");
    Message.Builder version = ((Message) builder.getField(target)).toBuilder();
    version.setField(version.getDescriptorForType().findFieldByName("is_reached"), settled);
    builder.setField(target, version.build());
    return builder.build();
  }

  /** A stored or parsed message as the client library's own class. */
  static Message typed(Object message, Message prototype) {
    if (message == null) {
      return null;
    }
    try {
      return prototype.getParserForType().parseFrom(((Message) message).toByteString());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The endpoint of each API, as account properties ({@code endpoint.compute=http://127.0.0.1:port}). */
  public Map<String, String> endpoints() {
    Map<String, String> endpoints = new TreeMap<>();
    servers.forEach((api, server) -> endpoints.put("endpoint." + api,
        "http://127.0.0.1:" + server.getAddress().getPort()));
    return endpoints;
  }

  /** The HTTPS endpoint of each API, by API name ({@code compute} → {@code https://127.0.0.1:port}). */
  public Map<String, String> secureEndpoints() {
    Map<String, String> endpoints = new TreeMap<>();
    secureServers.forEach((api, server) -> endpoints.put(api, "https://127.0.0.1:" + server.getAddress().getPort()));
    return endpoints;
  }

  /** The certificate the HTTPS endpoints present, as PEM, for a client to trust. */
  public String certificatePem() {
    return tls.certificatePem();
  }

  /** An account whose every API points at this fake, in {@code projectId}. */
  public dev.zop.provisioner.CloudAccountRequest account(String name, String projectId, String credentialsRef) {
    dev.zop.provisioner.CloudAccountRequest request = dev.zop.provisioner.CloudAccountRequest.of("gcp", name)
        .credentialsRef(credentialsRef).property("projectId", projectId);
    for (Map.Entry<String, String> endpoint : endpoints().entrySet()) {
      request = request.property(endpoint.getKey(), endpoint.getValue());
    }
    return request;
  }

  HaltSwitch halts() {
    return halts;
  }

  /** How many reads an operation stays running before it is done. */
  public void operationPolls(int polls) {
    this.operationPolls = polls;
  }

  /** The stored resource under {@code api + " " + path}, or null. */
  Message stored(String key) {
    return store.get(key);
  }

  void store(String key, Message resource) {
    store.put(key, resource);
  }

  /** The operation of the change under way on the resource stored under {@code key}, or null. */
  String changeUnderWay(String key) {
    Change change = changesByResource.get(key);
    return change == null ? null : change.operation.substring(change.operation.lastIndexOf('/') + 1);
  }

  /** Handles a method by its IAM permission, e.g. {@code compute.networks.addPeering}. */
  void on(String permission, BiConsumer<Call, Answer> handler) {
    handlers.put(permission, handler);
  }

  /** The next call needing {@code permission} fails with {@code fault}. */
  void failNext(String permission, Fault fault) {
    faults.computeIfAbsent(permission, p -> new ArrayDeque<>()).add(fault);
  }

  /** Every call that needed {@code permission} fails with {@code fault} until {@link #reset()}. */
  void failAlways(String permission, Fault fault) {
    Deque<Fault> queue = faults.computeIfAbsent(permission, p -> new ArrayDeque<>());
    for (int i = 0; i < 10_000; i++) {
      queue.add(fault);
    }
  }

  /** The permissions of the calls the fake answered, in order. */
  List<String> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** Resources (not operations) held for {@code api}, by path. */
  public Map<String, Message> resources(String api) {
    Map<String, Message> found = new TreeMap<>();
    store.forEach((key, value) -> {
      if (key.startsWith(api + " ") && !isOperation(value)) {
        found.put(key.substring(api.length() + 1), value);
      }
    });
    return found;
  }

  public Message get(String api, String path) {
    return store.get(api + " " + path);
  }

  public void put(String api, String path, Message resource) {
    store.put(api + " " + path, resource);
  }

  /** Someone deletes a resource by hand, outside any job: it is gone at once. */
  public void remove(String api, String path) {
    if (store.remove(api + " " + path) == null) {
      throw new IllegalArgumentException(api + " " + path + " does not exist");
    }
  }

  /**
   * GKE's fingerprint of a cluster's resource labels: a hash of them, which a {@code setResourceLabels} must name
   * to change them (the fake's own hash; GKE's is opaque).
   */
  static String labelFingerprint(Map<String, String> labels) {
    return Integer.toHexString(new java.util.TreeMap<>(labels).hashCode() * 31 + 7);
  }

  public void reset() {
    store.clear();
    cloudSql.reset();
    cloudDns.reset();
    authStrings.clear();
    payloads.clear();
    issued.clear();
    haltDue.set(null);
    changesByOperation.clear();
    changesByResource.clear();
    hidden.clear();
    faults.clear();
    calls.clear();
    halts.disarm();
    operationPolls = 0;
  }

  @Override
  public void close() {
    servers.values().forEach(s -> s.stop(0));
    secureServers.values().forEach(s -> s.stop(0));
  }

  // ---- routes ------------------------------------------------------------------------------------------

  private void addRoute(Api api, MethodDescriptor method, HttpRule rule) {
    String verb;
    String path;
    switch (rule.getPatternCase()) {
      case GET -> { verb = "GET"; path = rule.getGet(); }
      case POST -> { verb = "POST"; path = rule.getPost(); }
      case DELETE -> { verb = "DELETE"; path = rule.getDelete(); }
      case PATCH -> { verb = "PATCH"; path = rule.getPatch(); }
      case PUT -> { verb = "PUT"; path = rule.getPut(); }
      default -> { return; }
    }
    String customVerb = null;
    int lastSlash = path.lastIndexOf('/');
    int colon = path.indexOf(':', Math.max(lastSlash, path.lastIndexOf('}')));
    if (colon > 0) {
      customVerb = path.substring(colon + 1);
      path = path.substring(0, colon);
    }
    // PathTemplate takes the path without its leading slash and version prefix as a literal segment
    String template = path.substring(1);
    routes.add(new Route(api, verb, PathTemplate.create(template), template, customVerb, rule.getBody(), method,
        permissionOf(api, method)));
  }

  /**
   * The {@code google.longrunning.Operations} methods at {@code api.operations()}: the binding Google's service
   * configuration for the API makes (and its Node.js client carries as {@code lroOptions.httpRules}).
   */
  private void addOperationsRoutes(Api api) {
    ServiceDescriptor operations = com.google.longrunning.OperationsProto.getDescriptor()
        .findServiceByName("Operations");
    String item = "/" + api.operations();
    String collection = item.substring(0, item.lastIndexOf("/operations/")) + "}/operations";
    addRoute(api, operations.findMethodByName("GetOperation"), HttpRule.newBuilder().setGet(item).build());
    addRoute(api, operations.findMethodByName("DeleteOperation"), HttpRule.newBuilder().setDelete(item).build());
    addRoute(api, operations.findMethodByName("CancelOperation"),
        HttpRule.newBuilder().setPost(item + ":cancel").setBody("*").build());
    addRoute(api, operations.findMethodByName("ListOperations"), HttpRule.newBuilder().setGet(collection).build());
  }

  /**
   * The IAM permission a method needs, by Google's naming: {@code <api>.<collection>.<verb>}, where compute's
   * collection is the service ({@code Networks.Insert} → {@code compute.networks.create}) and the resource-oriented
   * APIs' is the method's noun ({@code CreateRepository} → {@code artifactregistry.repositories.create}).
   */
  static String permissionOf(Api api, MethodDescriptor method) {
    String name = method.getName();
    if (api.name().equals("compute")) {
      String verb = switch (name) {
        case "Insert" -> "create";
        case "Patch" -> "update";
        default -> lowerFirst(name);
      };
      // regional and zonal instance groups and autoscalers share their IAM permissions
      String collection = switch (method.getService().getName()) {
        case "RegionInstanceGroupManagers" -> "instanceGroupManagers";
        case "RegionAutoscalers" -> "autoscalers";
        default -> lowerFirst(method.getService().getName());
      };
      return "compute." + collection + "." + verb;
    }
    Map<String, String> irregular = Map.of("AddSecretVersion", "versions.add", "AccessSecretVersion",
        "versions.access", "GetSecretVersion", "versions.get", "ListSecretVersions", "versions.list",
        "DestroySecretVersion", "versions.destroy", "DisableSecretVersion", "versions.disable",
        "EnableSecretVersion", "versions.enable", "GetInstanceAuthString", "instances.getAuthString");
    if (irregular.containsKey(name)) {
      return api.name() + "." + irregular.get(name);
    }
    int split = 1;
    while (split < name.length() && !Character.isUpperCase(name.charAt(split))) {
      split++;
    }
    String verb = lowerFirst(name.substring(0, split));
    String noun = lowerFirst(name.substring(split));
    if (!verb.equals("list") && !noun.endsWith("s")) {
      noun = noun.endsWith("y") ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s";
    }
    return api.name() + "." + noun + "." + verb;
  }

  private static String lowerFirst(String s) {
    return s.isEmpty() ? s : Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  // ---- what the Cloud SQL part shares -------------------------------------------------------------------

  /** Records a call and returns the fault injected for it, if any. */
  Fault called(String permission) {
    calls.add(permission);
    Deque<Fault> queued = faults.get(permission);
    return queued == null ? null : queued.poll();
  }

  /** A change was stored: where the crash matrix may stop the caller, before the answer is sent. */
  void acceptedChange(String permission) {
    try {
      halts.accepted(permission);
    } catch (dev.zop.provisioner.testkit.tck.EngineHalted halted) {
      haltDue.set(permission);
    }
  }

  boolean authorized(HttpExchange exchange) {
    String authorization = exchange.getRequestHeaders().getFirst("Authorization");
    return authorization == null || authenticated(authorization.replaceFirst("(?i)^Bearer ", ""));
  }

  int operationPolls() {
    return operationPolls;
  }

  static String errorBody(Fault fault) {
    return error(fault);
  }

  static String body(HttpExchange exchange) throws IOException {
    return readBody(exchange);
  }

  static void respond(HttpExchange exchange, int status, String json) throws IOException {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    if (bytes.length == 0) {
      exchange.sendResponseHeaders(status, -1); // no body at all (204)
      return;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  public CloudSqlFake cloudSql() {
    return cloudSql;
  }

  public CloudDnsFake cloudDns() {
    return cloudDns;
  }

  // ---- OAuth 2.0 token endpoint ----------------------------------------------------------------------------

  /** Access tokens issued, by token; a request bearing any other token is refused as Google refuses it. */
  private final Set<String> issued = ConcurrentHashMap.newKeySet();

  /** The token endpoint a service-account key's {@code token_uri} points at (RFC 7523 JWT bearer grant). */
  public String tokenUri() {
    return "http://127.0.0.1:" + servers.values().iterator().next().getAddress().getPort() + "/token";
  }

  private void issueToken(HttpExchange exchange) throws IOException {
    try (exchange) {
      String form = readBody(exchange);
      Map<String, String> fields = new LinkedHashMap<>();
      for (String pair : form.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          fields.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
      String assertion = fields.getOrDefault("assertion", "");
      if (!"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(fields.get("grant_type"))
          || !signedByTrustedKey(assertion)) {
        byte[] bad = "{\"error\": \"invalid_grant\", \"error_description\": \"Invalid JWT\"}"
            .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(400, bad.length);
        exchange.getResponseBody().write(bad);
        return;
      }
      String token = "ya29.fake-" + ids.incrementAndGet();
      issued.add(token);
      byte[] body = ("{\"access_token\": \"" + token + "\", \"expires_in\": 3599, \"token_type\": \"Bearer\"}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private final Set<java.security.PublicKey> trustedKeys = ConcurrentHashMap.newKeySet();

  /**
   * Accept self-signed JWTs signed with this service-account key: Google's clients send those instead of a
   * token from the token endpoint when they can, and Google checks their signature against the account's keys.
   */
  public void trustServiceAccountKey(java.security.PublicKey key) {
    trustedKeys.add(key);
  }

  private boolean authenticated(String bearer) {
    return issued.contains(bearer) || signedByTrustedKey(bearer);
  }

  private boolean signedByTrustedKey(String jwt) {
    String[] parts = jwt.split("\\.");
    if (parts.length != 3) {
      return false;
    }
    for (java.security.PublicKey key : trustedKeys) {
      try {
        java.security.Signature rs256 = java.security.Signature.getInstance("SHA256withRSA");
        rs256.initVerify(key);
        rs256.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        if (rs256.verify(java.util.Base64.getUrlDecoder().decode(parts[2]))) {
          return true;
        }
      } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
        // not signed by this key
      }
    }
    return false;
  }

  /** Whether a token the fake issued, so a test can tell a minted kubeconfig's token is a real one. */
  boolean issuedToken(String token) {
    return issued.contains(token);
  }

  // ---- serving -----------------------------------------------------------------------------------------

  /** The answer a handler writes. */
  static final class Answer {
    int status = 200;
    Message body;
    Fault fault;

    void ok(Message message) {
      this.body = message;
    }

    void fail(Fault error) {
      this.fault = error;
    }
  }

  private void serve(Api api, HttpExchange exchange) throws IOException {
    try (exchange) {
      serveOrFail(api, exchange);
    }
  }

  /** A fault in the fake itself is a 500 naming it, not a dropped connection the client would retry. */
  private void serveOrFail(Api api, HttpExchange exchange) throws IOException {
    try {
      route(api, exchange);
    } catch (RuntimeException e) {
      e.printStackTrace();
      write(exchange, error(new Fault(500, "INTERNAL", "FAKE_FAILED", "the fake failed: " + e)), false);
    }
  }

  private void route(Api api, HttpExchange exchange) throws IOException {
    {
      String rawPath = exchange.getRequestURI().getRawPath();
      String path = URLDecoder.decode(rawPath, StandardCharsets.UTF_8).substring(1);
      String customVerb = null;
      int colon = path.indexOf(':', path.lastIndexOf('/'));
      if (colon > 0) {
        customVerb = path.substring(colon + 1);
        path = path.substring(0, colon);
      }
      // a client whose HTTP stack cannot send PATCH posts with the verb in X-HTTP-Method-Override, as Google takes it
      String override = exchange.getRequestHeaders().getFirst("X-HTTP-Method-Override");
      String verb = override != null && exchange.getRequestMethod().equals("POST") ? override
          : exchange.getRequestMethod();
      Route route = null;
      Map<String, String> variables = null;
      for (Route candidate : routes) {
        if (candidate.api() != api || !candidate.verb().equals(verb)
            || !java.util.Objects.equals(candidate.customVerb(), customVerb)) {
          continue;
        }
        Map<String, String> match = candidate.template().match(path);
        if (match != null) {
          route = candidate;
          variables = match;
          break;
        }
      }
      if (route == null) {
        write(exchange, error(new Fault(404, "NOT_FOUND", "NOT_FOUND", "The requested URL /" + path
            + " was not found on this server (" + verb + ").")), false);
        return;
      }
      String authorization = exchange.getRequestHeaders().getFirst("Authorization");
      if (authorization != null && !authenticated(authorization.replaceFirst("(?i)^Bearer ", ""))) {
        write(exchange, error(new Fault(401, "UNAUTHENTICATED", "ACCESS_TOKEN_TYPE_UNSUPPORTED",
            "Request had invalid authentication credentials. Expected OAuth 2 access token.")), false);
        return;
      }
      boolean enumsAsInts = String.valueOf(exchange.getRequestURI().getRawQuery()).contains("enum-encoding%3Dint")
          || String.valueOf(exchange.getRequestURI().getRawQuery()).contains("enum-encoding=int");
      calls.add(route.permission());
      Deque<Fault> queued = faults.get(route.permission());
      Fault injected = queued == null ? null : queued.poll();
      if (injected != null) {
        write(exchange, error(injected), false);
        return;
      }
      Message request;
      try {
        request = parseRequest(route, variables, exchange);
      } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
        write(exchange, error(new Fault(400, "INVALID_ARGUMENT", "BAD_REQUEST",
            "Invalid JSON payload received. " + e.getMessage())), false);
        return;
      }
      Answer answer = new Answer();
      answer(route, request, variables, path, answer);
      if (answer.fault != null) {
        write(exchange, error(answer.fault), false);
        return;
      }
      if (!verb.equals("GET")) {
        // the change is stored and its answer not yet sent: where the crash matrix stops the caller
        try {
          halts.accepted(route.permission());
        } catch (dev.zop.provisioner.testkit.tck.EngineHalted halted) {
          haltDue.set(route.permission());
        }
      }
      write(exchange, answer.body == null ? "{}" : printer(enumsAsInts).print(answer.body), true);
    }
  }

  private JsonFormat.Printer printer(boolean enumsAsInts) {
    JsonFormat.Printer printer = JsonFormat.printer().usingTypeRegistry(types);
    return enumsAsInts ? printer.printingEnumsAsInts() : printer;
  }

  private Message parseRequest(Route route, Map<String, String> variables, HttpExchange exchange)
      throws IOException {
    Descriptor type = route.method().getInputType();
    DynamicMessage.Builder request = DynamicMessage.newBuilder(type);
    String body = readBody(exchange);
    JsonFormat.Parser parser = JsonFormat.parser().usingTypeRegistry(types);
    if (!route.body().isEmpty() && !body.isBlank()) {
      if (route.body().equals("*")) {
        parser.merge(body, request);
      } else {
        FieldDescriptor field = type.findFieldByName(route.body());
        DynamicMessage.Builder part = DynamicMessage.newBuilder(field.getMessageType());
        parser.merge(body, part);
        request.setField(field, part.build());
      }
    } else if (route.body().isEmpty() && !body.isBlank() && !Set.of("{}", "\"\"").contains(body.strip())) {
      // an empty object or string is no fields at all (the REST transports send one on a bodiless POST); anything
      // else in a body the method does not take is refused
      throw new IllegalArgumentException("this method takes no body: " + body);
    }
    for (Map.Entry<String, String> variable : variables.entrySet()) {
      if (!variable.getKey().startsWith("$")) {
        setPath(request, variable.getKey(), variable.getValue());
      }
    }
    String query = exchange.getRequestURI().getRawQuery();
    if (query != null) {
      for (String pair : query.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
        String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
        if (!isSystemParameter(key)) {
          setPath(request, key, value);
        }
      }
    }
    return request.build();
  }

  /**
   * Google's system parameters, which every method of every API accepts alongside its own fields
   * ({@code https://cloud.google.com/apis/docs/system-parameters}): none of them binds to the request message.
   */
  private static final Set<String> SYSTEM_PARAMETERS = Set.of("access_token", "alt", "callback", "fields", "key",
      "oauth_token", "prettyPrint", "quotaUser", "upload_protocol", "uploadType", "userIp", "userProject");

  static boolean isSystemParameter(String name) {
    return name.startsWith("$") || SYSTEM_PARAMETERS.contains(name);
  }

  /** Sets a (possibly dotted) field from a path variable or query parameter, by proto or JSON name. */
  private static void setPath(DynamicMessage.Builder message, String dotted, String value) {
    String[] names = dotted.split("\\.");
    com.google.protobuf.Message.Builder target = message;
    for (int i = 0; i < names.length; i++) {
      Descriptor type = target.getDescriptorForType();
      FieldDescriptor field = type.findFieldByName(names[i]);
      if (field == null) {
        String name = names[i];
        field = type.getFields().stream().filter(f -> f.getJsonName().equals(name)).findFirst().orElse(null);
      }
      if (field == null) {
        throw new IllegalArgumentException("Cannot bind query parameter. Field '" + dotted
            + "' could not be found in request message.");
      }
      if (i < names.length - 1) {
        target = target.getFieldBuilder(field);
        continue;
      }
      if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE
          && field.getMessageType().getFullName().equals("google.protobuf.FieldMask")) {
        // a field mask in the URL is its paths in JSON form, comma-separated (updateMask=memorySizeGb,labels)
        target.setField(field, com.google.protobuf.util.FieldMaskUtil.fromJsonString(value));
        return;
      }
      Object converted = switch (field.getJavaType()) {
        case STRING -> value;
        case INT -> Integer.parseInt(value);
        case LONG -> Long.parseLong(value);
        case BOOLEAN -> Boolean.parseBoolean(value);
        case ENUM -> field.getEnumType().findValueByName(value) != null
            ? field.getEnumType().findValueByName(value) : field.getEnumType().findValueByNumber(Integer.parseInt(value));
        default -> throw new IllegalArgumentException("field " + dotted + " cannot be given in the URL");
      };
      if (field.isRepeated()) {
        target.addRepeatedField(field, converted);
      } else {
        target.setField(field, converted);
      }
    }
  }

  private static String readBody(HttpExchange exchange) throws IOException {
    InputStream in = exchange.getRequestBody();
    if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
      in = new GZIPInputStream(in);
    }
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  // ---- behaviour by method shape -----------------------------------------------------------------------

  private void answer(Route route, Message request, Map<String, String> variables, String path, Answer answer) {
    BiConsumer<Call, Answer> handler = handlers.get(route.permission());
    String method = route.method().getName();
    String api = route.api().name();
    if (handler != null) {
      handler.accept(new Call(route, request, variables, path), answer);
    } else if (route.verb().equals("POST") && (method.startsWith("Insert") || method.startsWith("Create"))) {
      create(route, request, path, answer);
    } else if (route.verb().equals("GET") && method.startsWith("Get")) {
      String key = api + " " + path;
      // a read of a change's operation or of its resource is time passing for both
      Change change = changesByOperation.containsKey(key) ? changesByOperation.get(key) : changesByResource.get(key);
      if (change != null) {
        advance(change);
      }
      Message found = store.get(key);
      if (found == null) {
        answer.fail(notFound(path));
      } else {
        answer.ok(found);
      }
    } else if (route.verb().equals("GET") && method.startsWith("List")) {
      answer.ok(list(route, path));
    } else if (route.verb().equals("DELETE")) {
      delete(route, path, answer);
    } else {
      answer.fail(new Fault(501, "UNIMPLEMENTED", "NOT_IMPLEMENTED", "the fake has no behaviour for "
          + route.permission() + "; register one with on(...)"));
    }
  }

  private void create(Route route, Message request, String collection, Answer answer) {
    String api = route.api().name();
    Descriptor requestType = request.getDescriptorForType();
    FieldDescriptor bodyField = route.body().equals("*") ? null : requestType.findFieldByName(route.body());
    Message resource;
    if (bodyField != null) {
      resource = (Message) request.getField(bodyField);
    } else {
      // a "*" body holding the resource in a field of its own type ({"cluster": {...}})
      FieldDescriptor held = requestType.getFields().stream()
          .filter(f -> f.getJavaType() == FieldDescriptor.JavaType.MESSAGE && !f.isRepeated()
              && request.hasField(f)).findFirst().orElse(null);
      if (held == null) {
        answer.fail(new Fault(400, "INVALID_ARGUMENT", "BAD_REQUEST", "the request carries no resource"));
        return;
      }
      resource = (Message) request.getField(held);
    }
    // the id is the request's "<x>_id" field (resource-oriented APIs) or the resource's own name
    String id = requestType.getFields().stream().filter(f -> f.getName().endsWith("_id")
            && !f.getName().equals("request_id") && !f.getName().equals("project_id")
            && f.getJavaType() == FieldDescriptor.JavaType.STRING && !((String) request.getField(f)).isEmpty())
        .map(f -> (String) request.getField(f)).findFirst().orElse(null);
    FieldDescriptor nameField = resource.getDescriptorForType().findFieldByName("name");
    if (id == null && nameField != null) {
      id = (String) resource.getField(nameField);
    }
    if (id == null || id.isEmpty()) {
      answer.fail(new Fault(400, "INVALID_ARGUMENT", "REQUIRED_FIELD_MISSING", "Required field 'name' not specified"));
      return;
    }
    String path = collection + "/" + id;
    if (store.containsKey(api + " " + path) || hidden.containsKey(api + " " + path)) {
      answer.fail(new Fault(409, "ALREADY_EXISTS", "ALREADY_EXISTS",
          "The resource '" + path + "' already exists"));
      return;
    }
    Message.Builder filled = resource.toBuilder();
    boolean resourceOriented = !api.equals("compute") && !api.equals("container");
    setIfPresent(filled, "name", resourceOriented ? path.substring(path.indexOf("projects/")) : id);
    setIfPresent(filled, "self_link", selfLink(route, path));
    setIfPresent(filled, "id", ids.incrementAndGet());
    setIfPresent(filled, "creation_timestamp", Instant.now().toString());
    setTimestampIfPresent(filled, "create_time");
    FILLERS.getOrDefault(filled.getDescriptorForType().getFullName(), b -> { }).accept(filled);
    if (!setEnumIfPresent(filled, "status", "PROVISIONING")) {
      setEnumIfPresent(filled, "state", "CREATING");
    }
    Message stored = filled.build();
    if (api.equals("compute")) {
      // Compute Engine shows a resource once its insert is done; until then its name is taken
      hidden.put(api + " " + path, stored);
    } else {
      store.put(api + " " + path, stored);
    }
    answer.ok(operation(route, path, stored, "insert"));
  }

  /**
   * A delete: refused while something refers to the resource; otherwise the resource stays, reading its deleting
   * state where its type has one, until the delete's operation is done. A second delete while the first runs is
   * Compute Engine's {@code resourceNotReady}; the other APIs answer with the operation already running.
   */
  private void delete(Route route, String path, Answer answer) {
    String api = route.api().name();
    String key = api + " " + path;
    Message existing = store.get(key);
    if (existing == null) {
      answer.fail(notFound(path));
      return;
    }
    Change running = changesByResource.get(key);
    if (running != null && running.kind.equals("delete")) {
      if (api.equals("compute")) {
        answer.fail(new Fault(400, "FAILED_PRECONDITION", "RESOURCE_NOT_READY",
            "The resource '" + path + "' is not ready"));
      } else {
        answer.ok(store.get(running.operation));
      }
      return;
    }
    String user = userOf(selfLink(route, path));
    if (user != null) {
      answer.fail(new Fault(400, "FAILED_PRECONDITION", "RESOURCE_IN_USE_BY_ANOTHER_RESOURCE",
          "The resource '" + path + "' is already being used by '" + user + "'"));
      return;
    }
    Message.Builder deleting = existing.toBuilder();
    // GKE clusters and node pools read STOPPING, Memorystore instances DELETING, Compute instances STOPPING
    if (!setEnumIfPresent(deleting, "status", "STOPPING")) {
      setEnumIfPresent(deleting, "state", "DELETING");
    }
    store.put(key, deleting.build());
    answer.ok(operation(route, path, existing, "delete"));
  }

  private String selfLink(Route route, String path) {
    return endpoints().get("endpoint." + route.api().name()) + "/" + path;
  }

  private static void setIfPresent(Message.Builder builder, String field, Object value) {
    FieldDescriptor f = builder.getDescriptorForType().findFieldByName(field);
    if (f == null || f.isRepeated()) {
      return;
    }
    if (f.getJavaType() == FieldDescriptor.JavaType.STRING && value instanceof String) {
      builder.setField(f, value);
    } else if (f.getJavaType() == FieldDescriptor.JavaType.LONG && value instanceof Long) {
      builder.setField(f, value);
    }
  }

  /**
   * A create, update or delete under way. Its operation and its resource advance together: each read of either is
   * a step of time, and after {@link #operationPolls} of them both read their final state at once (the operation
   * DONE, the resource running, or gone).
   */
  private static final class Change {
    final String operation;
    final String resource;
    final String kind;
    /** What the change does to its resource once done, beyond the kind's own (a version set, a pool gone). */
    final Runnable whenDone;
    int left;

    Change(String operation, String resource, String kind, int left, Runnable whenDone) {
      this.operation = operation;
      this.resource = resource;
      this.kind = kind;
      this.left = left;
      this.whenDone = whenDone;
    }
  }

  private void start(Change change) {
    if (change.left <= 0) {
      finish(change);
      return;
    }
    changesByOperation.put(change.operation, change);
    changesByResource.put(change.resource, change);
  }

  private synchronized void advance(Change change) {
    if (change.left > 0) {
      change.left--;
      return;
    }
    finish(change);
  }

  private synchronized void finish(Change change) {
    changesByOperation.remove(change.operation, change);
    changesByResource.remove(change.resource, change);
    switch (change.kind) {
      case "insert" -> {
        Message made = hidden.containsKey(change.resource) ? hidden.remove(change.resource)
            : store.get(change.resource);
        if (made != null) {
          Message.Builder running = made.toBuilder();
          if (!setEnumIfPresent(running, "status", "RUNNING")) {
            setEnumIfPresent(running, "state", "READY");
          }
          store.put(change.resource, running.build());
        }
      }
      case "delete" -> {
        store.keySet().removeIf(k -> k.equals(change.resource) || k.startsWith(change.resource + "/"));
        String path = change.resource.substring(change.resource.indexOf(' ') + 1);
        payloads.keySet().removeIf(k -> k.startsWith(path + "/"));
      }
      default -> {
        // a change made in place (a peering, a start or stop) is in the resource already
      }
    }
    change.whenDone.run();
    Message op = store.get(change.operation);
    if (op != null) {
      store.put(change.operation, done(op));
    }
  }

  private static boolean setEnumIfPresent(Message.Builder builder, String field, String value) {
    FieldDescriptor f = builder.getDescriptorForType().findFieldByName(field);
    if (f == null || f.getJavaType() != FieldDescriptor.JavaType.ENUM || f.getEnumType().findValueByName(value) == null) {
      return false;
    }
    builder.setField(f, f.getEnumType().findValueByName(value));
    return true;
  }

  /** Output-only fields Google fills in on create, by resource type, where a client reads them. */
  private static final Map<String, java.util.function.Consumer<Message.Builder>> FILLERS = Map.of(
      "google.cloud.redis.v1.Instance", instance -> {
        Descriptor type = instance.getDescriptorForType();
        instance.setField(type.findFieldByName("host"), "127.0.0.1");
        // TLS in transit moves Redis to 6378, as Memorystore does
        boolean tls = ((com.google.protobuf.Descriptors.EnumValueDescriptor) instance.getField(
            type.findFieldByName("transit_encryption_mode"))).getName().equals("SERVER_AUTHENTICATION");
        instance.setField(type.findFieldByName("port"), tls ? 6378 : 6379);
      },
      "google.cloud.compute.v1.InstanceGroupManager", manager -> {
        FieldDescriptor selfLink = manager.getDescriptorForType().findFieldByName("self_link");
        manager.setField(manager.getDescriptorForType().findFieldByName("instance_group"),
            ((String) manager.getField(selfLink)).replace("/instanceGroupManagers/", "/instanceGroups/"));
      },
      "google.cloud.compute.v1.ForwardingRule", rule -> {
        FieldDescriptor address = rule.getDescriptorForType().findFieldByName("I_p_address");
        if (((String) rule.getField(address)).isEmpty()) {
          rule.setField(address, "34.120.0." + (1 + new java.util.Random().nextInt(250)));
        }
      },
      "google.container.v1.Cluster", cluster -> {
        Descriptor type = cluster.getDescriptorForType();
        String name = (String) cluster.getField(type.findFieldByName("name"));
        cluster.setField(type.findFieldByName("endpoint"), "127.0.0.1");
        String version = gkeVersion((String) cluster.getField(type.findFieldByName("initial_cluster_version")));
        cluster.setField(type.findFieldByName("current_master_version"), version);
        cluster.setField(type.findFieldByName("current_node_version"), version);
        // the node pools made with the cluster run its version, ready when it is
        FieldDescriptor pools = type.findFieldByName("node_pools");
        for (int i = 0; i < cluster.getRepeatedFieldCount(pools); i++) {
          Message.Builder pool = ((Message) cluster.getRepeatedField(pools, i)).toBuilder();
          pool.setField(pool.getDescriptorForType().findFieldByName("version"), version);
          setEnumIfPresent(pool, "status", "RUNNING");
          cluster.setRepeatedField(pools, i, pool.build());
        }
        var labels = ((com.google.container.v1.Cluster) typed(cluster.build(),
            com.google.container.v1.Cluster.getDefaultInstance())).getResourceLabelsMap();
        cluster.setField(type.findFieldByName("label_fingerprint"), labelFingerprint(labels));
        Message.Builder auth = cluster.getFieldBuilder(type.findFieldByName("master_auth"));
        auth.setField(auth.getDescriptorForType().findFieldByName("cluster_ca_certificate"),
            java.util.Base64.getEncoder().encodeToString(("-----BEGIN CERTIFICATE-----\nfake cluster CA for "
                + name + "\n-----END CERTIFICATE-----\n").getBytes(StandardCharsets.UTF_8)));
      });

  /** A 400 naming the first field the request's protos mark REQUIRED that it leaves empty, or null. */
  static Fault required(Message request) {
    for (FieldDescriptor field : request.getDescriptorForType().getFields()) {
      List<com.google.api.FieldBehavior> behaviours = field.getOptions()
          .getExtension(com.google.api.FieldBehaviorProto.fieldBehavior);
      boolean empty = field.isRepeated() ? request.getRepeatedFieldCount(field) == 0
          : field.getJavaType() == FieldDescriptor.JavaType.MESSAGE ? !request.hasField(field)
          : request.getField(field).equals(field.getDefaultValue());
      if (behaviours.contains(com.google.api.FieldBehavior.REQUIRED) && empty) {
        return new Fault(400, "INVALID_ARGUMENT", "REQUIRED_FIELD_MISSING",
            "Required field '" + field.getJsonName() + "' not specified");
      }
    }
    return null;
  }

  /** The version GKE runs for a requested one: a minor alone ({@code 1.31}) is that minor's current patch. */
  static String gkeVersion(String requested) {
    return requested.matches("\\d+\\.\\d+") ? requested + ".3-gke.100" : requested;
  }

  private static void setTimestampIfPresent(Message.Builder builder, String field) {
    FieldDescriptor f = builder.getDescriptorForType().findFieldByName(field);
    if (f != null && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE
        && f.getMessageType().getFullName().equals("google.protobuf.Timestamp")) {
      Instant now = Instant.now();
      builder.setField(f, com.google.protobuf.Timestamp.newBuilder().setSeconds(now.getEpochSecond()).build());
    }
  }

  /** The direct children of a collection path, in the list response's repeated field. */
  private Message list(Route route, String collection) {
    Descriptor type = route.method().getOutputType();
    FieldDescriptor items = type.getFields().stream()
        .filter(f -> f.isRepeated() && f.getJavaType() == FieldDescriptor.JavaType.MESSAGE).findFirst()
        .orElseThrow();
    DynamicMessage.Builder response = DynamicMessage.newBuilder(type);
    String prefix = route.api().name() + " " + collection + "/";
    new TreeMap<>(store).forEach((key, value) -> {
      if (key.startsWith(prefix) && key.indexOf('/', prefix.length()) < 0
          && value.getDescriptorForType().getFullName().equals(items.getMessageType().getFullName())) {
        response.addRepeatedField(items, value);
      }
    });
    return response.build();
  }

  /** The path of a stored resource whose fields refer to {@code selfLink}, or null: Google refuses such a delete. */
  private String userOf(String selfLink) {
    for (Map.Entry<String, Message> entry : store.entrySet()) {
      Message value = entry.getValue();
      if (isOperation(value) || selfLink.equals(stringField(value, "self_link"))) {
        continue;
      }
      if (refersTo(value, selfLink)) {
        return entry.getKey().substring(entry.getKey().indexOf(' ') + 1);
      }
    }
    return null;
  }

  private static boolean refersTo(Message message, String link) {
    for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      List<?> values = field.getKey().isRepeated() ? (List<?>) field.getValue() : List.of(field.getValue());
      for (Object value : values) {
        if (value instanceof String s && s.equals(link)) {
          return true;
        }
        if (value instanceof Message nested && refersTo(nested, link)) {
          return true;
        }
      }
    }
    return false;
  }

  private static String stringField(Message message, String name) {
    FieldDescriptor field = message.getDescriptorForType().findFieldByName(name);
    return field == null || field.isRepeated() ? null : String.valueOf(message.getField(field));
  }

  // ---- operations --------------------------------------------------------------------------------------

  private static boolean isOperation(Message message) {
    String type = message.getDescriptorForType().getFullName();
    return type.equals("google.cloud.compute.v1.Operation") || type.equals("google.longrunning.Operation")
        || type.equals("google.container.v1.Operation");
  }

  /** The method's own answer type: an operation for a change, the resource where the method returns it. */
  private Message operation(Route route, String path, Message resource, String kind) {
    return operation(route, path, resource, kind, () -> { });
  }

  Message operation(Route route, String path, Message resource, String kind, Runnable whenDone) {
    Descriptor out = route.method().getOutputType();
    String api = route.api().name();
    String opId = "operation-" + ids.incrementAndGet();
    Message op;
    String opPath;
    switch (out.getFullName()) {
      case "google.cloud.compute.v1.Operation" -> {
        String scope = path.contains("/zones/") ? path.substring(0, path.indexOf('/', path.indexOf("/zones/") + 7))
            : path.contains("/regions/") ? path.substring(0, path.indexOf('/', path.indexOf("/regions/") + 9))
            : path.substring(0, path.indexOf("/global/") + 7);
        opPath = scope + "/operations/" + opId;
        op = com.google.cloud.compute.v1.Operation.newBuilder().setName(opId).setKind("compute#operation")
            .setId(ids.incrementAndGet()).setOperationType(kind).setTargetLink(selfLink(route, path))
            .setSelfLink(selfLink(route, opPath)).setInsertTime(Instant.now().toString()).setProgress(0)
            .setStatus(com.google.cloud.compute.v1.Operation.Status.RUNNING).build();
      }
      case "google.container.v1.Operation" -> {
        String location = path.substring(0, path.indexOf("/", path.indexOf("locations/") + 10));
        opPath = location + "/operations/" + opId;
        op = com.google.container.v1.Operation.newBuilder().setName(opId)
            .setOperationType(kind.equals("insert") ? com.google.container.v1.Operation.Type.CREATE_CLUSTER
                : kind.equals("delete") ? com.google.container.v1.Operation.Type.DELETE_CLUSTER
                : com.google.container.v1.Operation.Type.valueOf(kind))
            .setSelfLink(selfLink(route, opPath)).setTargetLink(selfLink(route, path))
            .setStatus(com.google.container.v1.Operation.Status.RUNNING).build();
      }
      case "google.longrunning.Operation" -> {
        int at = path.contains("/locations/") ? path.indexOf("/locations/") + 11 : path.indexOf("/regions/") + 9;
        String location = path.substring(0, path.indexOf("/", at));
        opPath = location + "/operations/" + opId;
        op = com.google.longrunning.Operation.newBuilder()
            .setName(opPath.substring(opPath.indexOf("projects/"))).setDone(false)
            .setResponse(kind.equals("delete") ? Any.pack(com.google.protobuf.Empty.getDefaultInstance())
                : Any.pack(resource)).build();
      }
      default -> {
        // a method that answers with the resource itself (Secret Manager) or nothing: done when it answers
        finish(new Change("", api + " " + path, kind, 0, whenDone));
        return out.getFullName().equals("google.protobuf.Empty") ? com.google.protobuf.Empty.getDefaultInstance()
            : resource.getDescriptorForType().equals(out) ? resource : DynamicMessage.getDefaultInstance(out);
      }
    }
    store.put(api + " " + opPath, op);
    start(new Change(api + " " + opPath, api + " " + path, kind.equals("insert") || kind.equals("delete") ? kind
        : "update", operationPolls, whenDone));
    return store.get(api + " " + opPath);
  }

  private static Message done(Message op) {
    if (op instanceof com.google.cloud.compute.v1.Operation c) {
      return c.toBuilder().setStatus(com.google.cloud.compute.v1.Operation.Status.DONE).setProgress(100)
          .setEndTime(Instant.now().toString()).build();
    }
    if (op instanceof com.google.container.v1.Operation c) {
      return c.toBuilder().setStatus(com.google.container.v1.Operation.Status.DONE).build();
    }
    if (op instanceof com.google.longrunning.Operation l) {
      return l.toBuilder().setDone(true).build();
    }
    return op;
  }

  // ---- errors ------------------------------------------------------------------------------------------

  static Fault notFound(String path) {
    return new Fault(404, "NOT_FOUND", "NOT_FOUND", "The resource '" + path + "' was not found");
  }

  /** A {@code google.rpc.Status} body, with the legacy {@code errors} list the JSON APIs also send. */
  private static String error(Fault fault) {
    String reason = fault.reason();
    String message = fault.message().replace("\\", "\\\\").replace("\"", "\\\"");
    return "{\"error\": {\"code\": " + fault.status() + ", \"message\": \"" + message + "\", \"status\": \""
        + fault.code() + "\", \"errors\": [{\"message\": \"" + message + "\", \"domain\": \"global\", \"reason\": \""
        + lowerFirst(toCamel(reason)) + "\"}], \"details\": [{\"@type\": \"type.googleapis.com/google.rpc.ErrorInfo\", "
        + "\"reason\": \"" + reason + "\", \"domain\": \"googleapis.com\", \"metadata\": {}}]}}";
  }

  private static String toCamel(String upperSnake) {
    StringBuilder out = new StringBuilder();
    for (String part : upperSnake.toLowerCase(java.util.Locale.ROOT).split("_")) {
      out.append(part.isEmpty() ? "" : Character.toUpperCase(part.charAt(0)) + part.substring(1));
    }
    return out.toString();
  }

  private static void write(HttpExchange exchange, String json, boolean ok) throws IOException {
    int status = 200;
    if (!ok) {
      int at = json.indexOf("\"code\": ") + 8;
      status = Integer.parseInt(json.substring(at, json.indexOf(',', at)));
    }
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
