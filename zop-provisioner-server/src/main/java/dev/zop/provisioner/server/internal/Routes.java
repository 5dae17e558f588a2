package dev.zop.provisioner.server.internal;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.Operation;
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
    this(access, streams, null);
  }

  /** The routes, and a test double's fault routes when {@code simulation} is not null. */
  public Routes(AccessStore access, JobEventStreams streams, dev.zop.provisioner.spi.FaultInjection simulation) {
    this.access = access;
    service();
    SpaceRoutes.register(this);
    JobRoutes.register(this, streams);
    RemediationRoutes.register(this);
    GuardrailRoutes.register(this);
    if (simulation != null) {
      SimulationRoutes.register(this, simulation);
    }
    describe(simulation != null);
  }

  /**
   * What each route is called, reads (body and query) and answers under {@code data}, for the OpenAPI document.
   * Kept beside the table so that a route without its contract fails at start (and in the tests), never silently
   * undocumented.
   */
  private void describe(boolean simulation) {
    Map<String, Described> t = new java.util.HashMap<>();
    Endpoint.Shape none = null;
    String jobDatabases = "/provisioning-jobs/{jobID}/databases";
    String jobConnections = "/provisioning-jobs/{jobID}/connections";
    String dbConnections = jobDatabases + "/{dbID}/connections";
    String access = "/cloud-accounts/{accountID}/clusters/{region}/{clusterName}/access";
    add(t, "GET /healthz", "getHealth", none, of(Map.class, String.class, String.class));
    add(t, "GET /readyz", "getReadiness", none, of(Map.class, String.class, String.class));
    add(t, "GET /me", "getMe", none, of(dev.zop.provisioner.Principal.class));
    add(t, "GET /tokens", "listTokens", none, of(Page.class, AccessStore.TokenRecord.class), pages(100));
    add(t, "POST /tokens", "createToken", of(AccessStore.TokenRequest.class), of(AccessStore.IssuedToken.class));
    add(t, "DELETE /tokens/{tokenID}", "revokeToken", none, none);
    if (simulation) {
      Endpoint.Shape faults = of(SimulationRoutes.Faults.class);
      add(t, "GET /simulation/faults", "listSimulatedFaults", none, faults);
      add(t, "POST /simulation/faults", "injectSimulatedFault", of(SimulationRoutes.FaultRequest.class), faults);
      add(t, "DELETE /simulation/faults", "clearSimulatedFaults", none, none);
    }
    add(t, "GET /audit-log", "listAuditLog", none, of(Page.class, AccessStore.AuditRecord.class), pages(100));
    add(t, "GET /providers", "listProviders", none, of(List.class, dev.zop.provisioner.ProviderInfo.class));
    add(t, "GET /cloud-accounts", "listCloudAccounts", none, of(Page.class, dev.zop.provisioner.CloudAccount.class),
        pages(100));
    add(t, "POST /cloud-accounts", "createCloudAccount", of(dev.zop.provisioner.CloudAccountRequest.class),
        of(dev.zop.provisioner.CloudAccount.class));
    add(t, "GET /cloud-accounts/{accountID}", "getCloudAccount", none, of(dev.zop.provisioner.CloudAccount.class));
    add(t, "GET /cloud-accounts/{accountID}/clusters", "listAccountClusters", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredCluster.class),
        List.of(text("region", "the region to look in (default: the account's region property)")));
    add(t, "PUT " + access, "registerClusterAccess", none, of(dev.zop.provisioner.ClusterAccessGrant.class));
    add(t, "DELETE " + access, "revokeClusterAccess", none, none);
    add(t, "GET /spaces", "listSpaces", none, of(Page.class, dev.zop.provisioner.Space.class), pages(100));
    add(t, "POST /spaces", "createSpace", of(dev.zop.provisioner.SpaceRequest.class),
        of(dev.zop.provisioner.Space.class));
    add(t, "GET /spaces/{spaceID}", "getSpace", none, of(dev.zop.provisioner.Space.class));
    add(t, "PATCH /spaces/{spaceID}/status", "setSpaceStatus",
        of(dev.zop.provisioner.wire.Requests.SpaceStatusChange.class), of(dev.zop.provisioner.Space.class));
    add(t, "DELETE /spaces/{spaceID}", "deleteSpace", none, none);
    add(t, "POST /spaces/{spaceID}/kubeconfig", "mintKubeconfig", none, of(dev.zop.provisioner.Kubeconfig.class));
    add(t, "GET /space-discovery/{spaceID}/namespaces", "listNamespaces", none,
        of(List.class, dev.zop.provisioner.Namespace.class));
    add(t, "POST /space-discovery/{spaceID}/namespaces", "createNamespace",
        of(dev.zop.provisioner.wire.Requests.CreateNamespace.class), of(dev.zop.provisioner.Namespace.class));
    add(t, "GET /space-discovery/{spaceID}/networks", "listNetworks", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredNetwork.class));
    add(t, "GET /space-discovery/{spaceID}/subnets", "listSubnets", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredSubnet.class),
        List.of(text("networkID", "only the subnets of this network")));
    add(t, "GET /space-discovery/{spaceID}/dns-zones", "listDnsZones", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredDnsZone.class));
    add(t, "GET /spaces/{spaceID}/cost", "getSpaceCost", none, of(dev.zop.provisioner.SpaceCost.class));
    add(t, "GET /space-costs", "listSpaceCosts", none, of(List.class, dev.zop.provisioner.SpaceCost.class));
    add(t, "GET /space-discovery/{spaceID}/offerings", "getOfferings", none,
        of(dev.zop.provisioner.discovery.Offerings.class));
    add(t, "GET /space-discovery/{spaceID}/clusters", "listClusters", none,
        of(List.class, dev.zop.provisioner.discovery.DiscoveredCluster.class));
    Endpoint.Shape job = of(Job.class);
    Endpoint.Shape submit = of(dev.zop.provisioner.wire.Requests.SubmitJob.class);
    add(t, "POST /provisioning-jobs", "submitJob", submit, job);
    add(t, "POST /provisioning-jobs/plan", "planJob", submit, of(dev.zop.provisioner.Plan.class));
    List<Endpoint.QueryParameter> jobList = new ArrayList<>(pages(JobQuery.DEFAULT_LIMIT));
    jobList.add(text("spaceID", "only the jobs of this space"));
    jobList.add(new Endpoint.QueryParameter("status", Map.of("type", "array", "items", Map.of("type", "string",
        "enum", java.util.Arrays.stream(JobStatus.values()).map(JobStatus::wireName).toList())),
        "only jobs in any of these statuses: comma-separated (status=failed,running) or repeated"));
    add(t, "GET /provisioning-jobs", "listJobs", none, of(Page.class, Job.class), jobList);
    add(t, "GET /provisioning-jobs/{id}", "getJob", none, job);
    add(t, "GET /provisioning-jobs/{id}/await", "awaitJob", none, job, List.of(timeout()));
    add(t, "PATCH /provisioning-jobs/{id}", "updateJob", of(dev.zop.provisioner.JobPatch.class), job);
    add(t, "DELETE /provisioning-jobs/{id}", "deleteJob", none, job);
    add(t, "POST /provisioning-jobs/{id}/retry", "retryJob", none, job);
    Endpoint.Shape revise = of(dev.zop.provisioner.wire.Requests.ReviseJob.class);
    add(t, "POST /provisioning-jobs/{id}/revisions/plan", "planJobRevision", revise,
        of(dev.zop.provisioner.RevisionPlan.class));
    add(t, "POST /provisioning-jobs/{id}/revisions", "reviseJob", revise, job);
    add(t, "GET /provisioning-jobs/{id}/revisions", "listJobRevisions", none,
        of(List.class, dev.zop.provisioner.JobRevision.class));
    add(t, "POST /provisioning-jobs/{id}/drift-checks", "checkJobDrift", none,
        of(dev.zop.provisioner.DriftReport.class));
    add(t, "GET /provisioning-jobs/{id}/drift", "getJobDrift", none, of(dev.zop.provisioner.DriftReport.class));
    add(t, "POST /provisioning-jobs/{id}/reconcile/plan", "planJobReconcile", none,
        of(dev.zop.provisioner.RevisionPlan.class));
    add(t, "POST /provisioning-jobs/{id}/reconcile", "reconcileJob", none, job);
    Endpoint.Shape importBody = of(dev.zop.provisioner.wire.Requests.ImportJob.class);
    add(t, "POST /provisioning-jobs/import/plan", "planJobImport", importBody,
        of(dev.zop.provisioner.ImportPlan.class));
    add(t, "POST /provisioning-jobs/import", "importJob", importBody, job);
    add(t, "GET /provisioning-jobs/{id}/events", "listJobEvents", none,
        of(List.class, dev.zop.provisioner.JobEvent.class), List.of(after()));
    // Server-Sent Events: each event's data is one JobEvent
    add(t, "GET /provisioning-jobs/{id}/events/stream", "streamJobEvents", none,
        of(dev.zop.provisioner.JobEvent.class), List.of(after()));
    Endpoint.Shape database = of(dev.zop.provisioner.Database.class);
    Endpoint.Shape connection = of(dev.zop.provisioner.Connection.class);
    add(t, "POST " + jobDatabases, "createDatabase", of(dev.zop.provisioner.wire.Requests.CreateDatabase.class),
        database);
    add(t, "GET " + jobDatabases, "listDatabases", none, of(Page.class, dev.zop.provisioner.Database.class),
        pages(100));
    add(t, "GET " + jobDatabases + "/{dbID}", "getDatabase", none, database);
    add(t, "DELETE " + jobDatabases + "/{dbID}", "deleteDatabase", none, none);
    for (String connections : List.of(jobConnections, dbConnections)) {
      String scope = connections.equals(jobConnections) ? "Job" : "Database";
      add(t, "POST " + connections, "create" + scope + "Connection", none, connection);
      add(t, "GET " + connections, "list" + scope + "Connections", none,
          of(Page.class, dev.zop.provisioner.Connection.class), pages(100));
      add(t, "GET " + connections + "/{connID}", "get" + scope + "Connection", none, connection);
      add(t, "DELETE " + connections + "/{connID}", "delete" + scope + "Connection", none, none);
    }
    add(t, "GET /catalog/components", "listCatalogComponents", none,
        of(List.class, dev.zop.provisioner.CatalogComponent.class));
    add(t, "POST /provisioning-jobs/install-component", "installComponent",
        of(dev.zop.provisioner.wire.Requests.InstallComponent.class), job);
    Endpoint.Shape remediation = of(RemediationJob.class);
    Endpoint.Shape decision = of(dev.zop.provisioner.wire.Requests.Decision.class);
    add(t, "POST /remediation-jobs", "startRemediation", of(dev.zop.provisioner.wire.Requests.StartRemediation.class),
        remediation);
    add(t, "GET /remediation-jobs", "listRemediations", none, of(Page.class, RemediationJob.class),
        pages(JobQuery.DEFAULT_LIMIT));
    add(t, "GET /remediation-jobs/{id}", "getRemediation", none, remediation);
    add(t, "GET /remediation-jobs/{id}/await", "awaitRemediation", none, remediation, List.of(timeout()));
    add(t, "POST /remediation-jobs/{id}/cancel", "cancelRemediation", decision, remediation);
    for (String step : List.of("steps-by-id/{stepID}", "steps/{stepName}")) {
      String by = step.startsWith("steps-by-id") ? "ById" : "ByName";
      add(t, "POST /remediation-jobs/{jobID}/" + step + "/approve", "approveStep" + by, decision, remediation);
      add(t, "POST /remediation-jobs/{jobID}/" + step + "/reject", "rejectStep" + by, decision, remediation);
    }
    add(t, "GET /remediation-jobs/{id}/audit", "getRemediationAudit", none,
        of(List.class, dev.zop.provisioner.remediation.AuditEntry.class));
    add(t, "GET /recommendations", "listRecommendations", none,
        of(List.class, dev.zop.provisioner.remediation.Recommendation.class));
    add(t, "PUT /recommendations/{id}", "putRecommendation",
        of(dev.zop.provisioner.remediation.Recommendation.class), none);
    add(t, "GET /remediation-templates", "listRemediationTemplates", none,
        of(List.class, dev.zop.provisioner.remediation.WorkflowTemplate.class));
    Endpoint.Shape guardrail = of(dev.zop.provisioner.Guardrail.class);
    Endpoint.Shape guardrails = of(List.class, dev.zop.provisioner.Guardrail.class);
    add(t, "POST /guardrails", "createGuardrail", of(dev.zop.provisioner.GuardrailRequest.class), guardrail);
    add(t, "GET /guardrails", "listGuardrails", none, guardrails);
    add(t, "POST /guardrails/try", "tryGuardrail", of(dev.zop.provisioner.GuardrailRequest.class),
        of(dev.zop.provisioner.GuardrailTrial.class), List.of(new Endpoint.QueryParameter("lastPlans",
            Map.of("type", "integer", "minimum", 0, "maximum", 10000, "default", 100),
            "how many of the organisation's latest recorded changes to try it on")));
    add(t, "GET /guardrails/{id}", "getGuardrail", none, guardrail);
    add(t, "PATCH /guardrails/{id}", "updateGuardrail", of(dev.zop.provisioner.wire.Requests.GuardrailPatch.class),
        guardrail);
    add(t, "DELETE /guardrails/{id}", "deleteGuardrail", none, guardrail);
    add(t, "GET /guardrails/{id}/versions", "listGuardrailVersions", none, guardrails);
    add(t, "GET /guardrails/{id}/versions/{version}", "getGuardrailVersion", none, guardrail);
    Endpoint.Shape exemption = of(dev.zop.provisioner.GuardrailExemption.class);
    add(t, "POST /guardrail-exemptions", "createGuardrailExemption",
        of(dev.zop.provisioner.GuardrailExemptionRequest.class), exemption);
    add(t, "GET /guardrail-exemptions", "listGuardrailExemptions", none,
        of(List.class, dev.zop.provisioner.GuardrailExemption.class));
    add(t, "DELETE /guardrail-exemptions/{id}", "revokeGuardrailExemption", none, exemption);
    add(t, "GET /guardrail-decisions", "listGuardrailDecisions", none,
        of(List.class, dev.zop.provisioner.GuardrailDecision.class), List.of(new Endpoint.QueryParameter("limit",
            Map.of("type", "integer", "minimum", 1, "maximum", 1000, "default", 100), "how many, newest first")));
    add(t, "POST /provisioning-jobs/{id}/approve", "approveJob", decision, job);
    add(t, "POST /provisioning-jobs/{id}/reject", "rejectJob", decision, job);
    add(t, "GET /provisioning-jobs/{id}/guardrail-decisions", "listJobGuardrailDecisions", none,
        of(List.class, dev.zop.provisioner.GuardrailDecision.class));
    for (int i = 0; i < table.size(); i++) {
      Endpoint endpoint = table.get(i);
      Described described = t.remove(endpoint.auditAction());
      if (described == null) {
        throw new IllegalStateException("no contract for " + endpoint.auditAction());
      }
      table.set(i, endpoint.documented(described.request(), described.response(), new Endpoint.Contract(
          described.operationId(), tag(endpoint.path()), described.query())));
    }
    if (!t.isEmpty()) {
      throw new IllegalStateException("contracts for routes that do not exist: " + t.keySet());
    }
  }

  private record Described(String operationId, Endpoint.Shape request, Endpoint.Shape response,
      List<Endpoint.QueryParameter> query) {}

  private static void add(Map<String, Described> described, String route, String operationId,
      Endpoint.Shape request, Endpoint.Shape response) {
    add(described, route, operationId, request, response, List.of());
  }

  private static void add(Map<String, Described> described, String route, String operationId,
      Endpoint.Shape request, Endpoint.Shape response, List<Endpoint.QueryParameter> query) {
    if (described.put(route, new Described(operationId, request, response, query)) != null) {
      throw new IllegalStateException("contract given twice for " + route);
    }
  }

  /** The resource a path belongs to: one tag each, as the document groups its operations. */
  static String tag(String path) {
    if (path.equals("/healthz") || path.equals("/readyz")) {
      return "health";
    }
    if (path.equals("/me") || path.equals("/audit-log") || path.startsWith("/tokens")) {
      return "access";
    }
    if (path.startsWith("/simulation")) {
      return "simulation";
    }
    if (path.startsWith("/guardrail") || path.endsWith("/approve") && path.startsWith("/provisioning-jobs")
        || path.endsWith("/reject") && path.startsWith("/provisioning-jobs") || path.endsWith("/guardrail-decisions")) {
      return "guardrails";
    }
    if (path.startsWith("/cloud-accounts") || path.equals("/providers")) {
      return "accounts";
    }
    if (path.startsWith("/spaces") || path.startsWith("/space-")) {
      return "spaces";
    }
    if (path.contains("/connections")) {
      return "connections";
    }
    if (path.contains("/databases")) {
      return "databases";
    }
    if (path.startsWith("/catalog") || path.endsWith("/install-component")) {
      return "catalog";
    }
    if (path.startsWith("/remediation") || path.startsWith("/recommendations")) {
      return "remediations";
    }
    if (path.startsWith("/provisioning-jobs")) {
      return "jobs";
    }
    throw new IllegalStateException("no tag for " + path);
  }

  /** limit, cursor and order: every route that answers a page reads them. */
  private static List<Endpoint.QueryParameter> pages(int defaultLimit) {
    return List.of(
        new Endpoint.QueryParameter("limit", Map.of("type", "integer", "minimum", 1, "maximum", JobQuery.MAX_LIMIT,
            "default", defaultLimit), "items per page"),
        text("cursor", "the nextCursor of the page before, to read the page after it (in the same order)"),
        new Endpoint.QueryParameter("order", Map.of("type", "string", "enum", List.of("newest", "oldest"),
            "default", "newest"), "newest first (the default) or oldest first"));
  }

  private static Endpoint.QueryParameter timeout() {
    return new Endpoint.QueryParameter("timeoutMs", Map.of("type", "integer", "format", "int64", "minimum", 0,
        "default", MAX_LONG_POLL.toMillis()), "the longest the request is held, in milliseconds, and never longer"
        + " than " + MAX_LONG_POLL.toMillis() + "; it answers with the job as it stands then");
  }

  private static Endpoint.QueryParameter after() {
    return new Endpoint.QueryParameter("after", Map.of("type", "integer", "format", "int64", "minimum", 0,
        "default", 0), "only the events after this sequence number (a stream's Last-Event-ID header wins)");
  }

  private static Endpoint.QueryParameter text(String name, String description) {
    return new Endpoint.QueryParameter(name, Map.of("type", "string"), description);
  }

  private static Endpoint.Shape of(Class<?> type, Class<?>... arguments) {
    return Endpoint.Shape.of(type, arguments);
  }

  public List<Endpoint> all() {
    return List.copyOf(table);
  }

  /** A route; {@code operation} null for one any caller with a valid token may call ({@code /me}). */
  void route(String method, String path, Operation operation, String summary, int status, Endpoint.Action action) {
    String policy = operation == null ? null : operation.policy();
    boolean takesBody = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    table.add(new Endpoint(method, path, policy, summary, status,
        takesBody ? Endpoint.Form.WITH_BODY : Endpoint.Form.WITHOUT_BODY, action, null, null, null));
  }

  /** A GET held open until something happens or its time is up: a long poll, an event stream. */
  void heldOpen(String path, Operation operation, String summary, Endpoint.Action action) {
    String policy = operation.policy();
    table.add(new Endpoint("GET", path, policy, summary, 200, Endpoint.Form.HELD_OPEN, action, null, null, null));
  }

  /** A route that acts on its path alone; a body, if one is sent, must be empty or {@code {}}. */
  void routeWithoutBody(String method, String path, Operation operation, String summary, int status,
      Endpoint.Action action) {
    String policy = operation.policy();
    table.add(new Endpoint(method, path, policy, summary, status, Endpoint.Form.WITHOUT_BODY, action, null, null,
        null));
  }

  private void open(String method, String path, String summary, Endpoint.Action action) {
    table.add(new Endpoint(method, path, null, summary, 200, Endpoint.Form.PUBLIC, action, null, null, null));
  }

  private void service() {
    open("GET", "/healthz", "Liveness: the process answers", call -> Map.of("status", "ok"));
    open("GET", "/readyz", "Readiness: the store answers", call -> {
      access.ping();
      return Map.of("status", "ready");
    });
    route("GET", "/me", null, "The principal the bearer token names", 200, call -> call.caller().principal());
    route("GET", "/audit-log", Operation.AUDIT_LOG_LIST, "The organisation's audit log, newest first", 200,
        call -> page(call, access.auditLog(call.caller().principal().orgId(), 10_000), r -> Long.toString(r.id())));
    // tokens are the organisation's keys: only its admins see them, make them and revoke them
    route("GET", "/tokens", null, "The organisation's tokens, newest first (never the tokens themselves); admins only",
        200, call -> page(call, access.tokens(admin(call).orgId()), AccessStore.TokenRecord::id));
    route("POST", "/tokens", null, "Make a token; the answer holds it, and it is never shown again; admins only",
        201, call -> {
          dev.zop.provisioner.Principal admin = admin(call);
          AccessStore.TokenRequest body = call.body(AccessStore.TokenRequest.class);
          if (body.expiresInDays() != null && (body.expiresInDays() < 1 || body.expiresInDays() > 3650)) {
            throw ApiError.badRequest("expiresInDays", "out_of_range", "expiresInDays must be 1..3650");
          }
          return access.createToken(admin.orgId(), body.actor(),
              body.roles() == null ? null : java.util.Set.copyOf(body.roles()),
              body.expiresInDays() == null ? null : Duration.ofDays(body.expiresInDays()));
        });
    route("DELETE", "/tokens/{tokenID}", null, "Revoke one of the organisation's tokens; admins only", 204, call -> {
      if (!access.revoke(admin(call).orgId(), call.path("tokenID"))) {
        throw new dev.zop.provisioner.NotFoundException("token", call.path("tokenID"));
      }
      return null;
    });
  }

  /**
   * The caller, when it holds the admin role; tokens and the simulated cloud's faults are refused to every other
   * role, custom ones included.
   */
  static dev.zop.provisioner.Principal admin(Call call) {
    dev.zop.provisioner.Principal principal = call.caller().principal();
    if (!principal.roles().contains(dev.zop.provisioner.Policies.ADMIN)) {
      throw new dev.zop.provisioner.ForbiddenException("only the organisation's admins may do this");
    }
    return principal;
  }

  /**
   * A page of a list the engine returns whole, newest first: {@code limit} items after the one the cursor names,
   * in the order asked for.
   */
  static <T> Page<T> page(Call call, List<T> newestFirst, Function<T, String> key) {
    List<T> all = newestFirst;
    if (order(call) == ListOrder.OLDEST_FIRST) {
      all = new ArrayList<>(newestFirst);
      java.util.Collections.reverse(all);
    }
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

  /** {@code ?limit=}, already checked against its declared range by {@link QueryParameters}. */
  static int limit(Call call, int fallback) {
    String value = call.query("limit");
    return value == null ? fallback : Integer.parseInt(value);
  }

  /** {@code ?order=newest} (the default) or {@code oldest}. */
  static ListOrder order(Call call) {
    String value = call.query("order");
    return value == null ? ListOrder.NEWEST_FIRST : ListOrder.fromWire(value);
  }

  static Duration longPoll(Call call) {
    String value = call.query("timeoutMs");
    long millis = value == null ? MAX_LONG_POLL.toMillis() : Long.parseLong(value);
    return Duration.ofMillis(Math.min(millis, MAX_LONG_POLL.toMillis()));
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
    return id("accountID", call.path("accountID"), CloudAccountId::of);
  }

  static SpaceId space(Call call) {
    return id("spaceID", call.path("spaceID"), SpaceId::of);
  }

  static JobId job(Call call) {
    return id("id", call.path("id"), JobId::of);
  }

  static JobId parent(Call call) {
    return id("jobID", call.path("jobID"), JobId::of);
  }

  static DatabaseId database(Call call) {
    return id("dbID", call.path("dbID"), DatabaseId::of);
  }

  static ConnectionId connection(Call call) {
    return id("connID", call.path("connID"), ConnectionId::of);
  }

  /** An id from the request, or a 400 naming the field it came from ({@code id: must be 1..64 characters}). */
  static <T> T id(String field, String value, Function<String, T> of) {
    try {
      return of.apply(value);
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest(field, "invalid_value", field + ": must be 1..64 characters");
    }
  }
}
