package dev.zop.provisioner.server.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.DatabaseId;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.client.wire.Requests.CreateDatabase;
import dev.zop.provisioner.client.wire.Requests.CreateNamespace;
import dev.zop.provisioner.client.wire.Requests.Decision;
import dev.zop.provisioner.client.wire.Requests.InstallComponent;
import dev.zop.provisioner.client.wire.Requests.SpaceStatusChange;
import dev.zop.provisioner.client.wire.Requests.StartRemediation;
import dev.zop.provisioner.client.wire.Requests.SubmitJob;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.server.AccessStore;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spec.ResourceSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/** Every route of the service, as one table. Paths and bodies follow the product documents. */
public final class Routes {
  /** The longest one await request is held before it answers with the job as it stands. */
  static final Duration MAX_LONG_POLL = Duration.ofSeconds(25);

  private final List<Endpoint> table = new ArrayList<>();
  private final AccessStore access;
  private final JobEventStreams streams;

  public Routes(AccessStore access, JobEventStreams streams) {
    this.access = access;
    this.streams = streams;
    service();
    accounts();
    spaces();
    jobs();
    databases();
    catalog();
    remediations();
  }

  public List<Endpoint> all() {
    return List.copyOf(table);
  }

  private void route(String method, String path, String policy, String summary, int status, Endpoint.Action action) {
    table.add(new Endpoint(method, path, policy, summary, status, false, action));
  }

  private void open(String method, String path, String summary, Endpoint.Action action) {
    table.add(new Endpoint(method, path, null, summary, 200, true, action));
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

  private void accounts() {
    route("GET", "/cloud-accounts", "space:view", "List cloud accounts", 200,
        call -> page(call, call.zop().accounts().list(), a -> a.id().value()));
    route("POST", "/cloud-accounts", "space:create", "Connect a cloud account (credentials by reference)", 201,
        call -> touched(call, call.zop().accounts().create(call.body(CloudAccountRequest.class))));
    route("GET", "/cloud-accounts/{accountID}", "space:view", "Get a cloud account", 200,
        call -> call.zop().accounts().get(account(call)));
    route("GET", "/cloud-accounts/{accountID}/clusters", "space:view",
        "List clusters discovered on the cloud account in ?region=", 200, call -> {
          String region = call.query("region");
          if (region == null) {
            throw ApiError.badRequest("region", "required", "region is required, e.g. ?region=us-east-1");
          }
          return call.zop().accounts().clusters(account(call), region);
        });
    String access = "/cloud-accounts/{accountID}/clusters/{region}/{clusterName}/access";
    route("PUT", access, "space:update", "Register a cluster on a cloud account for kubeconfig minting", 200,
        call -> call.zop().accounts().registerClusterAccess(account(call), call.path("region"),
            call.path("clusterName")));
    route("DELETE", access, "space:update", "Revoke cluster access", 204, call -> {
      call.zop().accounts().revokeClusterAccess(account(call), call.path("region"), call.path("clusterName"));
      return null;
    });
  }

  private void spaces() {
    route("GET", "/spaces", "space:view", "List deployment spaces", 200,
        call -> page(call, call.zop().spaces().list(), sp -> sp.id().value()));
    route("POST", "/spaces", "space:create", "Register a cluster as a deployment space", 201,
        call -> touched(call, call.zop().spaces().create(call.body(SpaceRequest.class))));
    route("GET", "/spaces/{spaceID}", "space:view", "Get a space (credentials stripped)", 200,
        call -> call.zop().spaces().get(space(call)));
    route("PATCH", "/spaces/{spaceID}/status", "space:update", "Make a space active or inactive", 200, call -> {
      SpaceStatusChange change = call.body(SpaceStatusChange.class);
      if (change.status() == null) {
        throw new ValidationException(List.of(FieldError.required("status")));
      }
      return call.zop().spaces().setStatus(space(call), SpaceStatus.fromWire(change.status()));
    });
    route("DELETE", "/spaces/{spaceID}", "space:delete", "Delete a space that holds no jobs", 204, call -> {
      call.zop().spaces().delete(space(call));
      return null;
    });
    route("POST", "/spaces/{spaceID}/kubeconfig", "space:update",
        "Mint a short-lived kubeconfig for the space's cluster", 200,
        call -> call.zop().spaces().kubeconfig(space(call)));
    route("GET", "/space-discovery/{spaceID}/namespaces", "deployment:view", "List namespaces on the space", 200,
        call -> call.zop().spaces().namespaces(space(call)).list());
    route("POST", "/space-discovery/{spaceID}/namespaces", "deployment:create", "Create a namespace on the space",
        201, call -> {
          CreateNamespace body = call.body(CreateNamespace.class);
          if (body.name() == null) {
            throw new ValidationException(List.of(FieldError.required("name")));
          }
          return call.zop().spaces().namespaces(space(call)).create(body.name());
        });
    route("GET", "/space-discovery/{spaceID}/networks", "space:view",
        "VPCs/VNets in the space's account and region", 200,
        call -> call.zop().spaces().discovery(space(call)).networks());
    route("GET", "/space-discovery/{spaceID}/subnets", "space:view",
        "Subnets in the space's account and region (?networkID= for one network)", 200,
        call -> call.zop().spaces().discovery(space(call)).subnets(call.query("networkID")));
    route("GET", "/space-discovery/{spaceID}/dns-zones", "space:view", "DNS zones of the space's account", 200,
        call -> call.zop().spaces().discovery(space(call)).dnsZones());
    route("GET", "/space-discovery/{spaceID}/clusters", "space:view",
        "Kubernetes clusters in the space's account and region", 200,
        call -> call.zop().spaces().discovery(space(call)).clusters());
  }

  private void jobs() {
    route("POST", "/provisioning-jobs", "provisioning:create", "Submit a provisioning job into a space", 201,
        call -> {
          SubmitJob body = call.body(SubmitJob.class);
          ResourceSpec spec = spec(call, body);
          String key = call.header("Idempotency-Key");
          SubmitOptions options = new SubmitOptions(key, body.name(), body.tags());
          return touched(call, call.zop().jobs().submit(SpaceId.of(body.spaceId()), spec, options));
        });
    route("POST", "/provisioning-jobs/plan", "provisioning:view",
        "Review a spec: its steps, IAM operations and monthly cost; nothing changes", 200, call -> {
          SubmitJob body = call.body(SubmitJob.class);
          return call.zop().jobs().plan(SpaceId.of(body.spaceId()), spec(call, body));
        });
    route("GET", "/provisioning-jobs", "provisioning:view", "List provisioning jobs, by space and status", 200,
        call -> call.zop().jobs().list(query(call)));
    route("GET", "/provisioning-jobs/{id}", "provisioning:view", "Get a job", 200,
        call -> call.zop().jobs().get(job(call)));
    route("GET", "/provisioning-jobs/{id}/await", "provisioning:view",
        "Hold the request until the job is terminal or timeoutMs passes; answers the job as it stands", 200,
        call -> {
          try {
            return call.zop().jobs().await(job(call), longPoll(call));
          } catch (AwaitTimeoutException e) {
            return e.lastSeen();
          }
        });
    route("PATCH", "/provisioning-jobs/{id}", "provisioning:update", "Change a job's name or tags", 200,
        call -> call.zop().jobs().update(job(call), call.body(JobPatch.class)));
    route("DELETE", "/provisioning-jobs/{id}", "provisioning:delete", "Tear down the job's resources", 200,
        call -> call.zop().jobs().delete(job(call)));
    route("POST", "/provisioning-jobs/{id}/retry", "provisioning:update", "Retry a failed job from the failed step",
        200, call -> call.zop().jobs().retry(job(call)));
    route("GET", "/provisioning-jobs/{id}/events", "provisioning:view", "The job's progress events after `after`",
        200, call -> call.zop().jobs().events(job(call), after(call)));
    route("GET", "/provisioning-jobs/{id}/events/stream", "provisioning:view",
        "The job's progress events as Server-Sent Events, live", 200, streams::serve);
  }

  private void databases() {
    String base = "/provisioning-jobs/{jobID}/databases";
    route("POST", base, "provisioning:create", "Create a database on the parent datastore", 201, call -> {
      CreateDatabase body = call.body(CreateDatabase.class);
      return touched(call, call.zop().jobs().databases(parent(call)).create(body.name(), body.owner()));
    });
    route("GET", base, "provisioning:view", "List databases under a job", 200,
        call -> page(call, call.zop().jobs().databases(parent(call)).list(), d -> d.id().value()));
    route("GET", base + "/{dbID}", "provisioning:view", "Get a database with its connection metadata", 200,
        call -> call.zop().jobs().databases(parent(call)).get(database(call)));
    route("DELETE", base + "/{dbID}", "provisioning:delete", "Drop the database and its user", 204, call -> {
      call.zop().jobs().databases(parent(call)).delete(database(call));
      return null;
    });
    String jobScoped = "/provisioning-jobs/{jobID}/connections";
    route("POST", jobScoped, "provisioning:create", "Create a job-scoped connection", 201,
        call -> touched(call, call.zop().jobs().connections(parent(call)).create()));
    route("GET", jobScoped, "provisioning:view", "List job-scoped connections", 200,
        call -> page(call, call.zop().jobs().connections(parent(call)).list(), cn -> cn.id().value()));
    route("GET", jobScoped + "/{connID}", "provisioning:view", "Get a job-scoped connection", 200,
        call -> call.zop().jobs().connections(parent(call)).get(connection(call)));
    route("DELETE", jobScoped + "/{connID}", "provisioning:delete", "Delete a job-scoped connection", 204, call -> {
      call.zop().jobs().connections(parent(call)).delete(connection(call));
      return null;
    });
    String dbScoped = base + "/{dbID}/connections";
    route("POST", dbScoped, "provisioning:create", "Create a database-scoped connection", 201,
        call -> touched(call, call.zop().jobs().databases(parent(call)).connections(database(call)).create()));
    route("GET", dbScoped, "provisioning:view", "List a database's connections", 200,
        call -> page(call, call.zop().jobs().databases(parent(call)).connections(database(call)).list(),
            cn -> cn.id().value()));
    route("GET", dbScoped + "/{connID}", "provisioning:view", "Get a database-scoped connection", 200,
        call -> call.zop().jobs().databases(parent(call)).connections(database(call)).get(connection(call)));
    route("DELETE", dbScoped + "/{connID}", "provisioning:delete", "Delete a database-scoped connection", 204,
        call -> {
          call.zop().jobs().databases(parent(call)).connections(database(call)).delete(connection(call));
          return null;
        });
  }

  private void catalog() {
    route("GET", "/catalog/components", "service:view", "List catalog components and their default values", 200,
        call -> call.zop().catalog().components());
    route("POST", "/provisioning-jobs/install-component", "service:create",
        "Install a catalog component into a space", 201, call -> {
          InstallComponent body = call.body(InstallComponent.class);
          List<FieldError> missing = new ArrayList<>();
          if (body.spaceId() == null) {
            missing.add(FieldError.required("spaceID"));
          }
          if (body.componentId() == null) {
            missing.add(FieldError.required("componentID"));
          }
          ValidationException.throwIfAny(missing);
          ComponentSpec spec = new ComponentSpec(body.componentId(), body.namespace(), body.values());
          ValidationException.throwIfAny(spec.validate());
          SubmitOptions options = new SubmitOptions(call.header("Idempotency-Key"), null, null);
          return touched(call, call.zop().jobs().submit(SpaceId.of(body.spaceId()), spec, options));
        });
  }

  private void remediations() {
    String base = "/remediation-jobs";
    route("POST", base, "provisioning:create", "Start a remediation workflow for a recommendation", 201, call -> {
      StartRemediation body = call.body(StartRemediation.class);
      List<FieldError> missing = new ArrayList<>();
      if (body.recommendationId() == null) {
        missing.add(FieldError.required("recommendationID"));
      }
      if (body.subjectId() == null) {
        missing.add(FieldError.required("subjectID"));
      }
      ValidationException.throwIfAny(missing);
      SubjectType subject = body.subjectType() == null ? SubjectType.RESOURCE : SubjectType.fromWire(body.subjectType());
      return touched(call, call.zop().remediations().start(body.recommendationId(), subject, body.subjectId()));
    });
    route("GET", base, "provisioning:view", "List remediation jobs", 200,
        call -> call.zop().remediations().list(limit(call, JobQuery.DEFAULT_LIMIT), call.query("cursor")));
    route("GET", base + "/{id}", "provisioning:view", "Get a remediation job", 200,
        call -> call.zop().remediations().get(job(call)));
    route("GET", base + "/{id}/await", "provisioning:view",
        "Hold the request until the workflow is terminal or timeoutMs passes", 200, call -> {
          try {
            return call.zop().remediations().await(job(call), longPoll(call));
          } catch (AwaitTimeoutException e) {
            return call.zop().remediations().get(job(call));
          }
        });
    route("POST", base + "/{id}/cancel", "provisioning:update", "Cancel a running or paused workflow", 200,
        call -> call.zop().remediations().cancel(job(call), reason(call)));
    route("POST", base + "/{jobID}/steps-by-id/{stepID}/approve", "provisioning:update",
        "Approve an approval step by its stable id", 200,
        call -> decide(call, StepRef.id(stepId(call)), true));
    route("POST", base + "/{jobID}/steps-by-id/{stepID}/reject", "provisioning:update",
        "Reject an approval step by its stable id; the workflow ends cancelled", 200,
        call -> decide(call, StepRef.id(stepId(call)), false));
    route("POST", base + "/{jobID}/steps/{stepName}/approve", "provisioning:update",
        "Approve by step name (legacy form)", 200, call -> decide(call, StepRef.name(call.path("stepName")), true));
    route("POST", base + "/{jobID}/steps/{stepName}/reject", "provisioning:update",
        "Reject by step name (legacy form)", 200, call -> decide(call, StepRef.name(call.path("stepName")), false));
    route("GET", base + "/{id}/audit", "provisioning:view", "The workflow's step-level audit timeline", 200,
        call -> call.zop().remediations().audit(job(call)));
    route("PUT", "/recommendations/{id}", "provisioning:create",
        "Record a recommendation in the provisioner's own store", 204, call -> {
          Recommendation body = call.body(Recommendation.class);
          if (!body.id().equals(call.path("id"))) {
            throw ApiError.badRequest("id", "mismatch", "the body's id must match the path's");
          }
          call.zop().remediations().putRecommendation(body);
          return null;
        });
    route("GET", "/remediation-templates", "provisioning:view", "The workflow templates recommendations resolve to",
        200, call -> call.zop().remediations().templates());
  }

  private static RemediationJob decide(Call call, StepRef step, boolean approve) {
    JobId id = JobId.of(call.path("jobID"));
    String reason = reason(call);
    return approve ? call.zop().remediations().approve(id, step, reason)
        : call.zop().remediations().reject(id, step, reason);
  }

  private static String reason(Call call) {
    if (call.ctx().bodyAsBytes().length == 0) {
      return null;
    }
    return call.body(Decision.class).reason();
  }

  private static UUID stepId(Call call) {
    try {
      return UUID.fromString(call.path("stepID"));
    } catch (IllegalArgumentException e) {
      throw ApiError.badRequest("stepID", "invalid", "stepID must be a UUID");
    }
  }

  private static ResourceSpec spec(Call call, SubmitJob body) {
    List<FieldError> missing = new ArrayList<>();
    if (body.spaceId() == null) {
      missing.add(FieldError.required("spaceID"));
    }
    if (body.kind() == null) {
      missing.add(FieldError.required("kind"));
    }
    if (body.config() == null || !body.config().isObject()) {
      missing.add(FieldError.of("config", "required", "config must be a JSON object"));
    }
    ValidationException.throwIfAny(missing);
    JobKind kind;
    try {
      kind = JobKind.fromWire(body.kind());
    } catch (IllegalArgumentException e) {
      kind = null;
    }
    if (kind == null || kind == JobKind.REMEDIATION) {
      throw ApiError.badRequest("kind", "unknown_kind", "kind must be one of kubernetes, vm_pool, datastore, "
          + "network, registry, load_balancer, component");
    }
    JsonNode config = body.config();
    ResourceSpec spec = call.convert(config, ResourceSpec.typeFor(kind), "config");
    ValidationException.throwIfAny(spec.validate().stream().map(e -> e.under("config")).toList());
    return spec;
  }

  private static JobQuery query(Call call) {
    JobQuery query = JobQuery.all().limit(limit(call, JobQuery.DEFAULT_LIMIT));
    String space = call.query("spaceID") != null ? call.query("spaceID") : call.query("spaceId");
    if (space != null) {
      query = query.withSpace(SpaceId.of(space));
    }
    String status = call.query("status");
    if (status != null && !status.isBlank()) {
      Set<JobStatus> statuses = EnumSet.noneOf(JobStatus.class);
      for (String one : status.split(",")) {
        try {
          statuses.add(JobStatus.fromWire(one));
        } catch (IllegalArgumentException e) {
          throw ApiError.badRequest("status", "invalid_value", "unknown status " + one);
        }
      }
      query = new JobQuery(query.spaceId(), statuses, query.limit(), null);
    }
    String cursor = call.query("cursor");
    return cursor == null ? query : query.after(cursor);
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

  private static int limit(Call call, int fallback) {
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

  private static long after(Call call) {
    String value = call.query("after");
    try {
      return value == null ? 0 : Math.max(0, Long.parseLong(value));
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("after", "invalid_value", "after must be an event sequence number");
    }
  }

  private static Duration longPoll(Call call) {
    String value = call.query("timeoutMs");
    long millis;
    try {
      millis = value == null ? MAX_LONG_POLL.toMillis() : Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw ApiError.badRequest("timeoutMs", "invalid_value", "timeoutMs must be a number of milliseconds");
    }
    return Duration.ofMillis(Math.max(0, Math.min(millis, MAX_LONG_POLL.toMillis())));
  }

  private static <T> T touched(Call call, T created) {
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

  private static CloudAccountId account(Call call) {
    return CloudAccountId.of(call.path("accountID"));
  }

  private static SpaceId space(Call call) {
    return SpaceId.of(call.path("spaceID"));
  }

  private static JobId job(Call call) {
    return JobId.of(call.path("id"));
  }

  private static JobId parent(Call call) {
    return JobId.of(call.path("jobID"));
  }

  private static DatabaseId database(Call call) {
    return DatabaseId.of(call.path("dbID"));
  }

  private static ConnectionId connection(Call call) {
    return ConnectionId.of(call.path("connID"));
  }
}
