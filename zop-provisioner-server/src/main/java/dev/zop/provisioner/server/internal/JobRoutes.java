package dev.zop.provisioner.server.internal;

import static dev.zop.provisioner.server.internal.Routes.connection;
import static dev.zop.provisioner.server.internal.Routes.database;
import static dev.zop.provisioner.server.internal.Routes.job;
import static dev.zop.provisioner.server.internal.Routes.limit;
import static dev.zop.provisioner.server.internal.Routes.longPoll;
import static dev.zop.provisioner.server.internal.Routes.page;
import static dev.zop.provisioner.server.internal.Routes.parent;
import static dev.zop.provisioner.server.internal.Routes.touched;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.spec.ComponentSpec;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.wire.Requests.CreateDatabase;
import dev.zop.provisioner.wire.Requests.InstallComponent;
import dev.zop.provisioner.wire.Requests.ImportJob;
import dev.zop.provisioner.wire.Requests.SubmitJob;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** Provisioning jobs, their databases and connections, and catalog components. */
final class JobRoutes {
  private JobRoutes() {}

  static void register(Routes r, JobEventStreams streams) {
    jobs(r, streams);
    databases(r);
    catalog(r);
  }

  private static void jobs(Routes r, JobEventStreams streams) {
    r.route("POST", "/provisioning-jobs", Operation.JOBS_SUBMIT, "Submit a provisioning job into a space", 201,
        call -> {
          SubmitJob body = call.body(SubmitJob.class);
          ResourceSpec spec = spec(call, body);
          String key = call.header("Idempotency-Key");
          SubmitOptions options = new SubmitOptions(key, body.name(), body.tags());
          SpaceId space = Routes.id("spaceID", body.spaceId(), SpaceId::of);
          return touched(call, call.zop().jobs().submit(space, spec, options));
        });
    r.route("POST", "/provisioning-jobs/plan", Operation.JOBS_PLAN,
        "Review a spec: its steps, IAM operations and monthly cost; nothing changes", 200, call -> {
          SubmitJob body = call.body(SubmitJob.class);
          ResourceSpec spec = spec(call, body); // checks spaceID is present before an id is made of it
          // the name and tags a submit would carry: guardrails read them
          return call.zop().jobs().plan(Routes.id("spaceID", body.spaceId(), SpaceId::of), spec,
              new SubmitOptions(null, body.name(), body.tags()));
        });
    r.route("GET", "/provisioning-jobs", Operation.JOBS_LIST,
        "List provisioning jobs, newest first unless ?order=oldest, by space and status, a page at a time", 200,
        call -> call.zop().jobs().list(query(call)));
    r.route("GET", "/provisioning-jobs/{id}", Operation.JOBS_GET, "Get a job", 200,
        call -> call.zop().jobs().get(job(call)));
    r.heldOpen("/provisioning-jobs/{id}/await", Operation.JOBS_AWAIT,
        "Hold the request until the job is terminal or timeoutMs passes; answers the job as it stands",
        call -> {
          try {
            return call.zop().jobs().await(job(call), longPoll(call));
          } catch (AwaitTimeoutException e) {
            return e.lastSeen();
          }
        });
    r.route("PATCH", "/provisioning-jobs/{id}", Operation.JOBS_UPDATE, "Change a job's name or tags", 200,
        call -> call.zop().jobs().update(job(call), call.body(JobPatch.class)));
    r.route("DELETE", "/provisioning-jobs/{id}", Operation.JOBS_DELETE, "Tear down the job's resources", 200,
        call -> call.zop().jobs().delete(job(call)));
    r.routeWithoutBody("POST", "/provisioning-jobs/{id}/retry", Operation.JOBS_RETRY,
        "Retry a failed job from the failed step",
        200, call -> call.zop().jobs().retry(job(call)));
    r.route("POST", "/provisioning-jobs/{id}/revisions/plan", Operation.JOBS_PLAN_REVISION,
        "Plan a revision of a succeeded job's config: each field's change and its effect, the steps, their IAM"
            + " operations and the monthly cost before and after; nothing changes", 200, call -> {
          JobId id = job(call);
          return call.zop().jobs().planRevision(id, revised(call, id));
        });
    r.route("POST", "/provisioning-jobs/{id}/revisions", Operation.JOBS_REVISE,
        "Apply a revision of a succeeded job's config as durable steps; the job runs again and ends succeeded"
            + " with the revised config, or failed at a step and retryable", 200, call -> {
          JobId id = job(call);
          return call.zop().jobs().revise(id, revised(call, id));
        });
    r.route("GET", "/provisioning-jobs/{id}/revisions", Operation.JOBS_REVISIONS,
        "The configs the job was given, oldest first: revision 1 the one it was submitted with", 200,
        call -> call.zop().jobs().revisions(job(call)));
    r.routeWithoutBody("POST", "/provisioning-jobs/{id}/drift-checks", Operation.JOBS_CHECK_DRIFT,
        "Check a succeeded job for drift now: every resource it made read back and compared with its config;"
            + " nothing changes in the cloud. The report is kept as the job's latest", 200,
        call -> call.zop().jobs().checkDrift(job(call)));
    r.route("GET", "/provisioning-jobs/{id}/drift", Operation.JOBS_DRIFT,
        "The job's latest drift report, from a check on request or on its space's schedule", 200,
        call -> call.zop().jobs().drift(job(call)));
    r.routeWithoutBody("POST", "/provisioning-jobs/{id}/reconcile/plan", Operation.JOBS_PLAN_RECONCILE,
        "Plan a reconcile: what a drift check made now found, each change from the cloud's value back to the"
            + " config's, and the steps that put it back; nothing changes", 200,
        call -> call.zop().jobs().planReconcile(job(call)));
    r.routeWithoutBody("POST", "/provisioning-jobs/{id}/reconcile", Operation.JOBS_RECONCILE,
        "Reconcile: a revision that re-applies the job's config, putting back what drifted", 200,
        call -> call.zop().jobs().reconcile(job(call)));
    r.route("POST", "/provisioning-jobs/import/plan", Operation.JOBS_PLAN_IMPORT,
        "Plan an import of resources that exist: what the job would adopt, the config they have, and what a"
            + " revision to the requested config would change; nothing changes", 200, call -> {
          ImportJob body = call.body(ImportJob.class);
          return call.zop().jobs().planImport(Routes.id("spaceID", body.spaceId(), SpaceId::of),
              importRequest(call, body));
        });
    r.route("POST", "/provisioning-jobs/import", Operation.JOBS_IMPORT,
        "Import resources that exist as a new job: its steps adopt them (tagged as the job's where the cloud"
            + " allows); then it is revised, checked for drift and torn down like any other", 201, call -> {
          ImportJob body = call.body(ImportJob.class);
          return touched(call, call.zop().jobs().importExisting(Routes.id("spaceID", body.spaceId(), SpaceId::of),
              importRequest(call, body)));
        });
    r.route("GET", "/provisioning-jobs/{id}/events", Operation.JOBS_EVENTS, "The job's progress events after `after`",
        200, call -> call.zop().jobs().events(job(call), after(call)));
    r.heldOpen("/provisioning-jobs/{id}/events/stream", Operation.JOBS_WATCH,
        "The job's progress events as Server-Sent Events, live", streams::serve);
  }
  private static void databases(Routes r) {
    String base = "/provisioning-jobs/{jobID}/databases";
    r.route("POST", base, Operation.DATABASES_CREATE, "Create a database on the parent datastore", 201, call -> {
      CreateDatabase body = call.body(CreateDatabase.class);
      return touched(call, call.zop().jobs().databases(parent(call)).create(body.name(), body.owner()));
    });
    r.route("GET", base, Operation.DATABASES_LIST, "List databases under a job", 200,
        call -> page(call, call.zop().jobs().databases(parent(call)).list(), d -> d.id().value()));
    r.route("GET", base + "/{dbID}", Operation.DATABASES_GET, "Get a database with its connection metadata", 200,
        call -> call.zop().jobs().databases(parent(call)).get(database(call)));
    r.route("DELETE", base + "/{dbID}", Operation.DATABASES_DELETE, "Drop the database and its user", 204, call -> {
      call.zop().jobs().databases(parent(call)).delete(database(call));
      return null;
    });
    String jobScoped = "/provisioning-jobs/{jobID}/connections";
    r.routeWithoutBody("POST", jobScoped, Operation.CONNECTIONS_CREATE, "Create a job-scoped connection", 201,
        call -> touched(call, call.zop().jobs().connections(parent(call)).create()));
    r.route("GET", jobScoped, Operation.CONNECTIONS_LIST, "List job-scoped connections", 200,
        call -> page(call, call.zop().jobs().connections(parent(call)).list(), cn -> cn.id().value()));
    r.route("GET", jobScoped + "/{connID}", Operation.CONNECTIONS_GET, "Get a job-scoped connection", 200,
        call -> call.zop().jobs().connections(parent(call)).get(connection(call)));
    r.route("DELETE", jobScoped + "/{connID}", Operation.CONNECTIONS_DELETE,
        "Delete a job-scoped connection", 204, call -> {
      call.zop().jobs().connections(parent(call)).delete(connection(call));
      return null;
    });
    String dbScoped = base + "/{dbID}/connections";
    r.routeWithoutBody("POST", dbScoped, Operation.CONNECTIONS_CREATE, "Create a database-scoped connection", 201,
        call -> touched(call, call.zop().jobs().databases(parent(call)).connections(database(call)).create()));
    r.route("GET", dbScoped, Operation.CONNECTIONS_LIST, "List a database's connections", 200,
        call -> page(call, call.zop().jobs().databases(parent(call)).connections(database(call)).list(),
            cn -> cn.id().value()));
    r.route("GET", dbScoped + "/{connID}", Operation.CONNECTIONS_GET, "Get a database-scoped connection", 200,
        call -> call.zop().jobs().databases(parent(call)).connections(database(call)).get(connection(call)));
    r.route("DELETE", dbScoped + "/{connID}", Operation.CONNECTIONS_DELETE, "Delete a database-scoped connection", 204,
        call -> {
          call.zop().jobs().databases(parent(call)).connections(database(call)).delete(connection(call));
          return null;
        });
  }
  private static void catalog(Routes r) {
    r.route("GET", "/catalog/components", Operation.CATALOG_LIST,
        "List catalog components and their default values", 200,
        call -> call.zop().catalog().components());
    r.route("POST", "/provisioning-jobs/install-component", Operation.COMPONENTS_INSTALL,
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
          ComponentSpec spec = new ComponentSpec(body.componentId(), body.namespace(), body.values(),
              body.chartVersion());
          ValidationException.throwIfAny(spec.validate());
          SubmitOptions options = new SubmitOptions(call.header("Idempotency-Key"), null, null);
          SpaceId space = Routes.id("spaceID", body.spaceId(), SpaceId::of);
          return touched(call, call.zop().jobs().submit(space, spec, options));
        });
  }
  /**
   * A revision's body: the job's kind and its whole config as it should be, read as that kind's spec (the body's
   * own faults are said before the job is looked up).
   */
  private static ResourceSpec revised(Call call, JobId id) {
    dev.zop.provisioner.wire.Requests.ReviseJob body = call.body(dev.zop.provisioner.wire.Requests.ReviseJob.class);
    // checked as a submit's kind and config are (a revision names no space: its job's is kept)
    ResourceSpec spec = spec(call, new SubmitJob("", body.kind(), body.config(), null, null));
    JobKind kind = call.zop().jobs().get(id).kind();
    if (kind != spec.kind()) {
      throw ApiError.badRequest("kind", "kind_mismatch", "this job is a " + kind.wireName() + " job: a revision"
          + " keeps the job's kind (submit a new job for another kind)");
    }
    return spec;
  }

  private static dev.zop.provisioner.ImportRequest importRequest(Call call, ImportJob body) {
    ResourceSpec spec = spec(call, new SubmitJob(body.spaceId(), body.kind(), body.config(), null, null));
    if (body.externalId() == null || body.externalId().isBlank()) {
      throw ValidationException.of("externalID", "required", "the cloud's id of the resource to import");
    }
    return dev.zop.provisioner.ImportRequest.of(spec, body.externalId());
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
    JobQuery query = JobQuery.all().limit(limit(call, JobQuery.DEFAULT_LIMIT)).order(Routes.order(call));
    String space = call.query("spaceID");
    if (space != null) {
      query = query.withSpace(Routes.id("spaceID", space, SpaceId::of));
    }
    Set<JobStatus> statuses = EnumSet.noneOf(JobStatus.class);
    for (String status : call.queryAll("status")) {
      for (String one : status.isBlank() ? new String[0] : status.split(",")) {
        statuses.add(JobStatus.fromWire(one));
      }
    }
    if (!statuses.isEmpty()) {
      query = query.withStatuses(statuses);
    }
    String cursor = call.query("cursor");
    return cursor == null ? query : query.after(cursor);
  }
  private static long after(Call call) {
    String value = call.query("after");
    return value == null ? 0 : Long.parseLong(value);
  }
}
