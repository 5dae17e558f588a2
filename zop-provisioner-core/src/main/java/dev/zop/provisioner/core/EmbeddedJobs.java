package dev.zop.provisioner.core;

import dev.zop.provisioner.Connections;
import dev.zop.provisioner.Databases;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.Jobs;
import dev.zop.provisioner.Operation;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.spec.ResourceSpec;
import java.time.Duration;
import java.util.List;
import dev.zop.provisioner.Connection;
import dev.zop.provisioner.ConnectionId;
import dev.zop.provisioner.DatabaseId;
import java.util.Objects;

/**
 * The embedded engine's {@link Jobs}, for one principal: each call checks the principal's policy, then goes to the
 * job machinery.
 */
final class EmbeddedJobs implements Jobs {
  private final EngineAssembly assembly;
  private final Principal principal;

  EmbeddedJobs(EngineAssembly assembly, Principal principal) {
    this.assembly = assembly;
    this.principal = principal;
  }

  private void require(Operation operation) {
    Policies.require(principal, operation);
  }

  @Override
  public Plan plan(SpaceId spaceId, ResourceSpec spec) {
    require(Operation.JOBS_PLAN);
    return assembly.jobs.plan(principal, spaceId, spec);
  }

  @Override
  public Plan plan(SpaceId spaceId, ResourceSpec spec, dev.zop.provisioner.SubmitOptions options) {
    require(Operation.JOBS_PLAN);
    return assembly.jobs.plan(principal, spaceId, spec, options);
  }

  @Override
  public Job submit(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
    // installing a catalog component is the service policy's, as on the REST route
    require(spec != null && spec.kind() == JobKind.COMPONENT ? Operation.COMPONENTS_INSTALL : Operation.JOBS_SUBMIT);
    return assembly.jobs.submit(principal, spaceId, spec, options == null ? SubmitOptions.none() : options);
  }

  @Override
  public Job get(JobId id) {
    require(Operation.JOBS_GET);
    return assembly.jobs.get(principal, id);
  }

  @Override
  public Page<Job> list(JobQuery query) {
    require(Operation.JOBS_LIST);
    return assembly.jobs.list(principal, query);
  }

  @Override
  public Job update(JobId id, JobPatch patch) {
    require(Operation.JOBS_UPDATE);
    return assembly.jobs.update(principal, id, patch);
  }

  @Override
  public Job delete(JobId id) {
    require(Operation.JOBS_DELETE);
    return assembly.jobs.delete(principal, id);
  }

  @Override
  public Job retry(JobId id) {
    require(Operation.JOBS_RETRY);
    return assembly.jobs.retry(principal, id);
  }

  @Override
  public dev.zop.provisioner.RevisionPlan planRevision(JobId id, ResourceSpec revised) {
    require(Operation.JOBS_PLAN_REVISION);
    return assembly.revisions.plan(principal, id, revised, assembly.drift);
  }

  @Override
  public Job revise(JobId id, ResourceSpec revised) {
    require(Operation.JOBS_REVISE);
    return assembly.revisions.revise(principal, id, revised);
  }

  @Override
  public dev.zop.provisioner.DriftReport checkDrift(JobId id) {
    require(Operation.JOBS_CHECK_DRIFT);
    return assembly.drift.check(principal, id);
  }

  @Override
  public dev.zop.provisioner.DriftReport drift(JobId id) {
    require(Operation.JOBS_DRIFT);
    return assembly.drift.latest(principal, id);
  }

  @Override
  public dev.zop.provisioner.RevisionPlan planReconcile(JobId id) {
    require(Operation.JOBS_PLAN_RECONCILE);
    return assembly.revisions.planReconcile(principal, id, assembly.drift);
  }

  @Override
  public Job reconcile(JobId id) {
    require(Operation.JOBS_RECONCILE);
    return assembly.revisions.reconcile(principal, id, assembly.drift);
  }

  @Override
  public dev.zop.provisioner.ImportPlan planImport(SpaceId spaceId, dev.zop.provisioner.ImportRequest request) {
    require(Operation.JOBS_PLAN_IMPORT);
    return assembly.imports.plan(principal, spaceId, request);
  }

  @Override
  public Job importExisting(SpaceId spaceId, dev.zop.provisioner.ImportRequest request) {
    require(Operation.JOBS_IMPORT);
    return assembly.imports.importExisting(principal, spaceId, request);
  }

  @Override
  public List<dev.zop.provisioner.JobRevision> revisions(JobId id) {
    require(Operation.JOBS_REVISIONS);
    return assembly.revisions.history(principal, id);
  }

  @Override
  public Job await(JobId id, Duration timeout) {
    require(Operation.JOBS_AWAIT);
    return assembly.jobs.await(principal, id, timeout);
  }

  @Override
  public Subscription watch(JobId id, JobEventListener listener) {
    require(Operation.JOBS_WATCH);
    return assembly.jobs.watch(principal, id, listener);
  }

  @Override
  public List<JobEvent> events(JobId id, long afterSeq) {
    require(Operation.JOBS_EVENTS);
    return assembly.jobs.events(principal, id, afterSeq);
  }

  @Override
  public Databases databases(JobId datastoreJob) {
    return new DatabaseView(datastoreJob);
  }

  @Override
  public Connections connections(JobId datastoreJob) {
    return new ConnectionView(datastoreJob, null);
  }

  private final class DatabaseView implements Databases {
    private final JobId job;

    DatabaseView(JobId job) {
      this.job = Objects.requireNonNull(job, "job");
    }

    @Override
    public dev.zop.provisioner.Database create(String name, String owner) {
      require(Operation.DATABASES_CREATE);
      return assembly.databases.create(principal, job, name, owner);
    }

    @Override
    public List<dev.zop.provisioner.Database> list() {
      require(Operation.DATABASES_LIST);
      return assembly.databases.list(principal, job);
    }

    @Override
    public dev.zop.provisioner.Database get(DatabaseId id) {
      require(Operation.DATABASES_GET);
      return assembly.databases.get(principal, job, id);
    }

    @Override
    public void delete(DatabaseId id) {
      require(Operation.DATABASES_DELETE);
      assembly.databases.delete(principal, job, id);
    }

    @Override
    public Connections connections(DatabaseId id) {
      return new ConnectionView(job, Objects.requireNonNull(id, "id"));
    }
  }

  /** Connections of a job ({@code database} null) or of one of its databases. */
  private final class ConnectionView implements Connections {
    private final JobId job;
    private final DatabaseId database;

    ConnectionView(JobId job, DatabaseId database) {
      this.job = Objects.requireNonNull(job, "job");
      this.database = database;
    }

    @Override
    public Connection create() {
      require(Operation.CONNECTIONS_CREATE);
      return assembly.databases.createConnection(principal, job, database);
    }

    @Override
    public List<Connection> list() {
      require(Operation.CONNECTIONS_LIST);
      return assembly.databases.connections(principal, job, database);
    }

    @Override
    public Connection get(ConnectionId id) {
      require(Operation.CONNECTIONS_GET);
      return assembly.databases.connection(principal, job, database, id);
    }

    @Override
    public void delete(ConnectionId id) {
      require(Operation.CONNECTIONS_DELETE);
      assembly.databases.deleteConnection(principal, job, database, id);
    }
  }
}
