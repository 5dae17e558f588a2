package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.server.AccessStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every route of the service, as one table assembled from the feature classes ({@link SpaceRoutes},
 * {@link JobRoutes}, {@link RemediationRoutes}), and the request helpers they share. Paths and bodies follow the
 * product documents.
 */
public final class Routes {
  /** The longest one await request is held before it answers with the job as it stands. */
  static final Duration MAX_LONG_POLL = Duration.ofSeconds(25);

  private final List<Endpoint> table = new ArrayList<>();
  private final AccessStore access;

  public Routes(AccessStore access, JobEventStreams streams) {
    this.access = access;
    service();
    SpaceRoutes.register(this);
    JobRoutes.register(this, streams);
    RemediationRoutes.register(this);
    describe();
  }

  /**
   * What each route reads and answers under {@code data}, for the OpenAPI document. Kept beside the table so that
   * a route without its shapes fails at start (and in the tests), never silently undocumented.
   */
  private void describe() {
    Map<String, Shapes> t = new java.util.HashMap<>();
    Endpoint.Shape none = null;
    String jobDatabases = "/provisioning-jobs/{jobID}/databases";
    String jobConnections = "/provisioning-jobs/{jobID}/connections";
    String dbConnections = jobDatabases + "/{dbID}/connections";
    String access = "/cloud-accounts/{accountID}/clusters/{region}/{clusterName}/access";
    add(t, "GET /healthz", none, of(Map.class, String.class, String.class));
    add(t, "GET /readyz", none, of(Map.class, String.class, String.class));
    add(t, "GET /me", none, of(dev.zop.provisioner.Principal.class));
    add(t, "GET /audit-log", none, of(Page.class, AccessStore.AuditRecord.class));
    add(t, "GET /cloud-accounts", none, of(Page.class, dev.zop.provisioner.CloudAccount.class));
    add(t, "POST /cloud-accounts", of(dev.zop.provisioner.CloudAccountRequest.class),
        of(dev.zop.provisioner.CloudAccount.class));
    add(t, "GET /cloud-accounts/{accountID}", none, of(dev.zop.provisioner.CloudAccount.class));
    add(t, "GET /cloud-accounts/{accountID}/clusters", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredCluster.class));
    add(t, "PUT " + access, none, of(dev.zop.provisioner.ClusterAccessGrant.class));
    add(t, "DELETE " + access, none, none);
    add(t, "GET /spaces", none, of(Page.class, dev.zop.provisioner.Space.class));
    add(t, "POST /spaces", of(dev.zop.provisioner.SpaceRequest.class), of(dev.zop.provisioner.Space.class));
    add(t, "GET /spaces/{spaceID}", none, of(dev.zop.provisioner.Space.class));
    add(t, "PATCH /spaces/{spaceID}/status", of(dev.zop.provisioner.wire.Requests.SpaceStatusChange.class),
        of(dev.zop.provisioner.Space.class));
    add(t, "DELETE /spaces/{spaceID}", none, none);
    add(t, "POST /spaces/{spaceID}/kubeconfig", none, of(dev.zop.provisioner.Kubeconfig.class));
    add(t, "GET /space-discovery/{spaceID}/namespaces", none, of(List.class, dev.zop.provisioner.Namespace.class));
    add(t, "POST /space-discovery/{spaceID}/namespaces", of(dev.zop.provisioner.wire.Requests.CreateNamespace.class),
        of(dev.zop.provisioner.Namespace.class));
    add(t, "GET /space-discovery/{spaceID}/networks", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredNetwork.class));
    add(t, "GET /space-discovery/{spaceID}/subnets", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredSubnet.class));
    add(t, "GET /space-discovery/{spaceID}/dns-zones", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredDnsZone.class));
    add(t, "GET /space-discovery/{spaceID}/clusters", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredCluster.class));
    Endpoint.Shape job = of(Job.class);
    Endpoint.Shape submit = of(dev.zop.provisioner.wire.Requests.SubmitJob.class);
    add(t, "POST /provisioning-jobs", submit, job);
    add(t, "POST /provisioning-jobs/plan", submit, of(dev.zop.provisioner.Plan.class));
    add(t, "GET /provisioning-jobs", none, of(Page.class, Job.class));
    add(t, "GET /provisioning-jobs/{id}", none, job);
    add(t, "GET /provisioning-jobs/{id}/await", none, job);
    add(t, "PATCH /provisioning-jobs/{id}", of(dev.zop.provisioner.JobPatch.class), job);
    add(t, "DELETE /provisioning-jobs/{id}", none, job);
    add(t, "POST /provisioning-jobs/{id}/retry", none, job);
    add(t, "GET /provisioning-jobs/{id}/events", none, of(List.class, dev.zop.provisioner.JobEvent.class));
    // Server-Sent Events: each event's data is one JobEvent
    add(t, "GET /provisioning-jobs/{id}/events/stream", none, of(dev.zop.provisioner.JobEvent.class));
    Endpoint.Shape database = of(dev.zop.provisioner.Database.class);
    Endpoint.Shape connection = of(dev.zop.provisioner.Connection.class);
    add(t, "POST " + jobDatabases, of(dev.zop.provisioner.wire.Requests.CreateDatabase.class), database);
    add(t, "GET " + jobDatabases, none, of(Page.class, dev.zop.provisioner.Database.class));
    add(t, "GET " + jobDatabases + "/{dbID}", none, database);
    add(t, "DELETE " + jobDatabases + "/{dbID}", none, none);
    for (String connections : List.of(jobConnections, dbConnections)) {
      add(t, "POST " + connections, none, connection);
      add(t, "GET " + connections, none, of(Page.class, dev.zop.provisioner.Connection.class));
      add(t, "GET " + connections + "/{connID}", none, connection);
      add(t, "DELETE " + connections + "/{connID}", none, none);
    }
    add(t, "GET /catalog/components", none, of(List.class, dev.zop.provisioner.CatalogComponent.class));
    add(t, "POST /provisioning-jobs/install-component",
        of(dev.zop.provisioner.wire.Requests.InstallComponent.class), job);
    Endpoint.Shape remediation = of(RemediationJob.class);
    Endpoint.Shape decision = of(dev.zop.provisioner.wire.Requests.Decision.class);
    add(t, "POST /remediation-jobs", of(dev.zop.provisioner.wire.Requests.StartRemediation.class), remediation);
    add(t, "GET /remediation-jobs", none, of(Page.class, RemediationJob.class));
    add(t, "GET /remediation-jobs/{id}", none, remediation);
    add(t, "GET /remediation-jobs/{id}/await", none, remediation);
    add(t, "POST /remediation-jobs/{id}/cancel", decision, remediation);
    for (String step : List.of("steps-by-id/{stepID}", "steps/{stepName}")) {
      add(t, "POST /remediation-jobs/{jobID}/" + step + "/approve", decision, remediation);
      add(t, "POST /remediation-jobs/{jobID}/" + step + "/reject", decision, remediation);
    }
    add(t, "GET /remediation-jobs/{id}/audit", none,
        of(List.class, dev.zop.provisioner.remediation.AuditEntry.class));
    add(t, "PUT /recommendations/{id}", of(dev.zop.provisioner.remediation.Recommendation.class), none);
    add(t, "GET /remediation-templates", none,
        of(List.class, dev.zop.provisioner.remediation.WorkflowTemplate.class));
    for (int i = 0; i < table.size(); i++) {
      Endpoint endpoint = table.get(i);
      Shapes shapes = t.remove(endpoint.auditAction());
      if (shapes == null) {
        throw new IllegalStateException("no request/response shapes for " + endpoint.auditAction());
      }
      table.set(i, endpoint.takes(shapes.request()).returns(shapes.response()));
    }
    if (!t.isEmpty()) {
      throw new IllegalStateException("shapes for routes that do not exist: " + t.keySet());
    }
  }

  private record Shapes(Endpoint.Shape request, Endpoint.Shape response) {}

  private static void add(Map<String, Shapes> shapes, String route, Endpoint.Shape request,
      Endpoint.Shape response) {
    if (shapes.put(route, new Shapes(request, response)) != null) {
      throw new IllegalStateException("shapes given twice for " + route);
    }
  }

  private static Endpoint.Shape of(Class<?> type, Class<?>... arguments) {
    return Endpoint.Shape.of(type, arguments);
  }

  public List<Endpoint> all() {
    return List.copyOf(table);
  }

  void route(String method, String path, String policy, String summary, int status, Endpoint.Action action) {
    boolean takesBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    table.add(new Endpoint(method, path, policy, summary, status, false, takesBody, false, action, null, null));
  }

  /** A GET held open until something happens or its time is up: a long poll, an event stream. */
  void heldOpen(String path, String policy, String summary, Endpoint.Action action) {
    table.add(new Endpoint("GET", path, policy, summary, 200, false, false, true, action, null, null));
  }

  /** A route that acts on its path alone; a body, if one is sent, must be empty or {@code {}}. */
  void routeWithoutBody(String method, String path, String policy, String summary, int status,
      Endpoint.Action action) {
    table.add(new Endpoint(method, path, policy, summary, status, false, false, false, action, null, null));
  }

  private void open(String method, String path, String summary, Endpoint.Action action) {
    table.add(new Endpoint(method, path, null, summary, 200, true, false, false, action, null, null));
  }

  private void service() {
    open("GET", "/healthz", "Liveness: the process answers", call -> Map.of("status", "ok"));
    open("GET", "/readyz", "Readiness: the store answers", call -> {
      access.ping();
      return Map.of("status", "ready");
    });
    route("GET", "/me", null, "The principal the bearer token names", 200, call -> call.caller().principal());
    route("GET", "/audit-log", "provisioning:view", "The organisation's audit log, newest first", 200,
        call -> page(call, access.auditLog(call.caller().principal().orgId(), 10_000), r -> Long.toString(r.id())));
  }

  /** A page of a list the engine returns whole: {@code limit} items after the one the cursor names. */
  static <T> Page<T> page(Call call, List<T> all, Function<T, String> key) {
    int limit = limit(call, JobQuery.DEFAULT_LIMIT * 2);
    String cursor = call.query("cursor");
    int from = 0;
    if (cursor != null) {
      from = -1;
      for (int i = 0; i < all.size(); i++) {
        if (("k" + key.apply(all.get(i))).equals(cursor)) {
          from = i + 1;
          break;
        }
      }
      if (from < 0) {
        throw ApiError.badRequest("cursor", "invalid_value", "the cursor does not name an item of this list");
      }
    }
    int to = Math.min(all.size(), from + limit);
    String next = to < all.size() ? "k" + key.apply(all.get(to - 1)) : null;
    return new Page<>(all.subList(from, to), next);
  }

  static int limit(Call call, int fallback) {
    String value = call.query("limit");
    if (value == null) {
      return fallback;
    }
    try {
      int limit = Integer.parseInt(value);
      if (limit < 1 || limit > JobQuery.MAX_LIMIT) {
        throw new NumberFormatException();
      }
      return limit;
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("limit", "out_of_range", "limit must be a whole number from 1 to "
          + JobQuery.MAX_LIMIT);
    }
  }

  static Duration longPoll(Call call) {
    String value = call.query("timeoutMs");
    long millis;
    try {
      millis = value == null ? MAX_LONG_POLL.toMillis() : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("timeoutMs", "invalid_value", "timeoutMs must be a number of milliseconds");
    }
    return Duration.ofMillis(Math.max(0, Math.min(millis, MAX_LONG_POLL.toMillis())));
  }

  static <T> T touched(Call call, T created) {
    if (created instanceof Job job) {
      call.touched(job.id());
    } else if (created instanceof RemediationJob job) {
      call.touched(job.id());
    } else if (created instanceof dev.zop.provisioner.Space space) {
      call.touched(space.id());
    } else if (created instanceof dev.zop.provisioner.CloudAccount account) {
      call.touched(account.id());
    } else if (created instanceof dev.zop.provisioner.Database database) {
      call.touched(database.id());
    } else if (created instanceof dev.zop.provisioner.Connection connection) {
      call.touched(connection.id());
    }
    return created;
  }

  static CloudAccountId account(Call call) {
    return CloudAccountId.of(call.path("accountID"));
  }

  static SpaceId space(Call call) {
    return SpaceId.of(call.path("spaceID"));
  }

  static JobId job(Call call) {
    return JobId.of(call.path("id"));
  }

  static JobId parent(Call call) {
    return JobId.of(call.path("jobID"));
  }

  static DatabaseId database(Call call) {
    return DatabaseId.of(call.path("dbID"));
  }

  static ConnectionId connection(Call call) {
    return ConnectionId.of(call.path("connID"));
  }
}
