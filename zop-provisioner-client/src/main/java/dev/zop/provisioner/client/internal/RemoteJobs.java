package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.Connections;
import dev.zop.provisioner.Databases;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Jobs;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.wire.Requests.InstallComponent;
import dev.zop.provisioner.wire.Requests.ReviseJob;
import dev.zop.provisioner.wire.Requests.SubmitJob;
import dev.zop.provisioner.spec.ResourceSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import okhttp3.HttpUrl;

/** {@link Jobs} over {@code /provisioning-jobs}. */
public final class RemoteJobs implements Jobs {
  static final String JOBS = "provisioning-jobs";
  /** The longest a single await request is held open by the server; the client asks again until its deadline. */
  static final Duration LONG_POLL = Duration.ofSeconds(25);

  private static final TypeReference<Page<Job>> JOB_PAGE = new TypeReference<>() {};
  private static final TypeReference<List<JobEvent>> EVENTS = new TypeReference<>() {};
  private static final TypeReference<List<JobRevision>> REVISIONS = new TypeReference<>() {};

  private final HttpTransport http;

  public RemoteJobs(HttpTransport http) {
    this.http = http;
  }

  @Override
  public Plan plan(SpaceId spaceId, ResourceSpec spec) {
    return plan(spaceId, spec, SubmitOptions.none());
  }

  @Override
  public Plan plan(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
    return http.send("POST", body(spaceId, spec, options), Plan.class, JOBS, "plan");
  }

  @Override
  public Job submit(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
    Map<String, String> headers = options.idempotencyKey() == null ? Map.of()
        : Map.of("Idempotency-Key", options.idempotencyKey());
    return http.send("POST", body(spaceId, spec, options), Job.class, headers, JOBS);
  }

  private SubmitJob body(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
    return new SubmitJob(spaceId.value(), spec.kind().wireName(), http.json().valueToTree(spec), options.name(),
        options.tags().isEmpty() ? null : options.tags());
  }

  @Override
  public Job installComponent(SpaceId spaceId, String componentId, Map<String, Object> values) {
    return http.send("POST", new InstallComponent(spaceId.value(), componentId, null, values, null), Job.class, JOBS,
        "install-component");
  }

  @Override
  public Job get(JobId id) {
    return http.get(Job.class, JOBS, id.value());
  }

  @Override
  public Page<Job> list(JobQuery query) {
    HttpUrl.Builder url = http.url(JOBS).addQueryParameter("limit", Integer.toString(query.limit()))
        .addQueryParameter("order", query.order().wireName());
    if (query.spaceId() != null) {
      url.addQueryParameter("spaceID", query.spaceId().value());
    }
    if (!query.statuses().isEmpty()) {
      url.addQueryParameter("status",
          query.statuses().stream().map(JobStatus::wireName).sorted().collect(Collectors.joining(",")));
    }
    if (query.cursor() != null) {
      url.addQueryParameter("cursor", query.cursor());
    }
    return http.get(url.build(), JOB_PAGE.getType());
  }

  @Override
  public Job update(JobId id, JobPatch patch) {
    return http.send("PATCH", patch, Job.class, JOBS, id.value());
  }

  @Override
  public Job delete(JobId id) {
    return http.send("DELETE", null, Job.class, JOBS, id.value());
  }

  @Override
  public Job retry(JobId id) {
    return http.send("POST", null, Job.class, JOBS, id.value(), "retry");
  }

  @Override
  public RevisionPlan planRevision(JobId id, ResourceSpec revised) {
    return http.send("POST", new ReviseJob(revised.kind().wireName(), http.json().valueToTree(revised)), RevisionPlan.class, JOBS, id.value(),
        "revisions", "plan");
  }

  @Override
  public Job revise(JobId id, ResourceSpec revised) {
    return http.send("POST", new ReviseJob(revised.kind().wireName(), http.json().valueToTree(revised)), Job.class, JOBS, id.value(),
        "revisions");
  }

  @Override
  public dev.zop.provisioner.DriftReport checkDrift(JobId id) {
    return http.send("POST", null, dev.zop.provisioner.DriftReport.class, JOBS, id.value(), "drift-checks");
  }

  @Override
  public dev.zop.provisioner.DriftReport drift(JobId id) {
    return http.get(http.url(JOBS, id.value(), "drift").build(), dev.zop.provisioner.DriftReport.class);
  }

  @Override
  public RevisionPlan planReconcile(JobId id) {
    return http.send("POST", null, RevisionPlan.class, JOBS, id.value(), "reconcile", "plan");
  }

  @Override
  public Job reconcile(JobId id) {
    return http.send("POST", null, Job.class, JOBS, id.value(), "reconcile");
  }

  @Override
  public dev.zop.provisioner.ImportPlan planImport(dev.zop.provisioner.SpaceId spaceId,
      dev.zop.provisioner.ImportRequest request) {
    return http.send("POST", importBody(spaceId, request), dev.zop.provisioner.ImportPlan.class, JOBS, "import",
        "plan");
  }

  @Override
  public Job importExisting(dev.zop.provisioner.SpaceId spaceId, dev.zop.provisioner.ImportRequest request) {
    return http.send("POST", importBody(spaceId, request), Job.class, JOBS, "import");
  }

  private dev.zop.provisioner.wire.Requests.ImportJob importBody(dev.zop.provisioner.SpaceId spaceId,
      dev.zop.provisioner.ImportRequest request) {
    return new dev.zop.provisioner.wire.Requests.ImportJob(spaceId.value(), request.config().kind().wireName(),
        http.json().valueToTree(request.config()), request.externalId());
  }

  @Override
  public List<JobRevision> revisions(JobId id) {
    return http.get(http.url(JOBS, id.value(), "revisions").build(), REVISIONS.getType());
  }

  @Override
  public Job await(JobId id, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      long left = deadline - System.nanoTime();
      Duration wait = Duration.ofNanos(Math.max(0, Math.min(left, LONG_POLL.toNanos())));
      HttpUrl url = http.url(JOBS, id.value(), "await")
          .addQueryParameter("timeoutMs", Long.toString(wait.toMillis())).build();
      Job job = http.get(url, Job.class);
      if (job.status().isTerminal()) {
        return job;
      }
      if (System.nanoTime() >= deadline) {
        throw new AwaitTimeoutException(job);
      }
    }
  }

  @Override
  public Subscription watch(JobId id, JobEventListener listener) {
    return EventStream.open(http, id, listener);
  }

  @Override
  public List<JobEvent> events(JobId id, long afterSeq) {
    HttpUrl url = http.url(JOBS, id.value(), "events").addQueryParameter("after", Long.toString(afterSeq)).build();
    return http.get(url, EVENTS.getType());
  }

  @Override
  public Databases databases(JobId datastoreJob) {
    return new RemoteDatabases(http, datastoreJob);
  }

  @Override
  public Connections connections(JobId datastoreJob) {
    return new RemoteConnections(http, JOBS, datastoreJob.value(), "connections");
  }
}
