package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.AwaitTimeoutException;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventListener;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Plan;
import dev.zop.provisioner.PlanStep;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.Subscription;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.core.internal.lifecycle.TeardownGuard;
import dev.zop.provisioner.core.internal.providers.ProviderRegistry;
import dev.zop.provisioner.core.internal.accounts.AccountRepository;
import dev.zop.provisioner.core.internal.spaces.ClusterTargets;
import dev.zop.provisioner.core.internal.providers.ProviderCalls;
import dev.zop.provisioner.core.internal.spaces.SpaceRepository;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.GroupCommit;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.core.internal.store.StorableText;
import dev.zop.provisioner.core.internal.store.Timestamps;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NodeGroup;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spec.VmPoolSpec;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Discovery;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** The {@code Jobs} operations of the embedded engine, for a given principal. */
public final class JobService {
  private static final int MAX_TAGS = 50;

  private final Database db;
  private final EngineTracing tracing;
  private final JobRepository jobs;
  private final StatusTransitions transitions;
  private final SpaceRepository spaces;
  private final AccountRepository accounts;
  private final ProviderRegistry providers;
  private final JobScopes scopes;
  private final ClusterTargets targets;
  private final JobSignals signals;
  private final WatchHub watchHub;
  private final Runnable wakeWorker;
  /** This engine's worker, which may take a job it submits without a claim; null when it runs no workers. */
  private final Reservation.Source worker;
  private final Duration awaitPoll;
  private final List<TeardownGuard> teardownGuards;
  private final GroupCommit submits;

  JobService(Database db, JobRepository jobs, SpaceRepository spaces, AccountRepository accounts,
      ProviderRegistry providers, JobScopes scopes, ClusterTargets targets, JobSignals signals, WatchHub watchHub,
      Runnable wakeWorker, Reservation.Source worker, Duration awaitPoll, List<TeardownGuard> teardownGuards,
      EngineTracing tracing) {
    this.worker = worker;
    this.tracing = tracing;
    this.db = db;
    this.jobs = jobs;
    this.transitions = new StatusTransitions(jobs, db.dialect());
    this.spaces = spaces;
    this.accounts = accounts;
    this.providers = providers;
    this.scopes = scopes;
    this.targets = targets;
    this.signals = signals;
    this.watchHub = watchHub;
    this.wakeWorker = wakeWorker;
    this.awaitPoll = awaitPoll;
    this.teardownGuards = List.copyOf(teardownGuards);
    // two lanes: a transaction runs on one database backend, so with one at a time a second core sat idle (8
    // callers on PostgreSQL, 2 cores, alternating runs: 703-959 submits/s with one lane, 990-1,175 with two)
    this.submits = new GroupCommit(db, 2);
  }

  /**
   * Spaces a submit found usable (active, with their account), kept for a second so that a burst of submits to a
   * space reads it once rather than before every transaction. Only a space's status ever changes after it is
   * written (and it may be deleted), and a submit writes its job only while its space is still active
   * ({@link JobRepository#inserts} with {@code whileSpaceActive}): a job written with a kept space is the job a
   * fresh read would have written. A space found inactive or missing is not kept.
   */
  private final com.github.benmanes.caffeine.cache.Cache<PlaceKey, Place> usablePlaces =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().expireAfterWrite(Duration.ofSeconds(1))
          .maximumSize(10_000).build();

  private record PlaceKey(String orgId, SpaceId spaceId) {}

  /** How many times a submit reads its space again when the space changed before its job was written. */
  private static final int PLACE_ATTEMPTS = 3;

  /** The space a submit had found active was deactivated or deleted before its job could be written. */
  private static final class SpaceChanged extends RuntimeException {
    SpaceChanged(Throwable cause) {
      super("the space changed before the job was written", cause, false, false);
    }
  }

  /** Where a job would run, and the driver that would run it. */
  private record Target(Space space, CloudAccount account, ResourceDriver<ResourceSpec> driver) {}

  /**
   * A space and its account, read once for a plan or a submit and used by every check of it (null when not found).
   * A read inside the submit's transaction would not hold them still either: nothing locks them.
   */
  private record Place(Space space, CloudAccount account) {}

  private Place place(Principal principal, SpaceId spaceId) {
    if (spaceId == null) {
      return new Place(null, null);
    }
    SpaceRepository.WithAccount found = db.read(c -> spaces.findWithAccount(c, principal.orgId(), spaceId));
    return found == null ? new Place(null, null) : new Place(found.space(), found.account());
  }

  /** A usable space kept from an earlier submit, or a fresh read (kept when it is usable). */
  private Place keptPlace(Principal principal, SpaceId spaceId) {
    if (spaceId == null) {
      return place(principal, spaceId);
    }
    PlaceKey key = new PlaceKey(principal.orgId(), spaceId);
    Place kept = usablePlaces.getIfPresent(key);
    if (kept != null) {
      return kept;
    }
    Place read = place(principal, spaceId);
    if (read.space() != null && read.account() != null && read.space().status() == SpaceStatus.ACTIVE) {
      usablePlaces.put(key, read);
    }
    return read;
  }

  public Plan plan(Principal principal, SpaceId spaceId, ResourceSpec asked) {
    Place place = place(principal, spaceId);
    Defaulted<ResourceSpec> defaulted = withDefaults(principal, place, asked); // asks the cloud
    ResourceSpec spec = defaulted.spec();
    List<FieldError> networkErrors = networkErrors(place, asked);
    Target target = target(principal, place, spaceId, spec, false, networkErrors);
    List<PlanStep> steps = target.driver.create(spec).stream()
        .map(s -> new PlanStep(s.name(), s.permissions()))
        .toList();
    Plan plan = Plan.of(spec.kind(), target.space.provider(), target.space.region(), steps,
        target.driver.price(spec, target.space.region()), target.driver.pricesAsOf(), defaulted.filled(),
        target.driver.warnings(spec), target.driver.state().asPlanned());
    ResourceSpec largest = atMaximum(spec);
    return largest == spec ? plan : plan.withCostsAtMax(target.driver.price(largest, target.space.region()));
  }

  /** The spec with every node group and pool scaled to its maximum, or the spec itself when nothing scales. */
  private static ResourceSpec atMaximum(ResourceSpec spec) {
    if (spec instanceof KubernetesSpec cluster && cluster.nodeGroups().stream().anyMatch(g -> g.max() != null)) {
      // the records themselves: the spec was validated when it was planned, and priced is all this copy is for
      return new KubernetesSpec(cluster.name(), cluster.version(), cluster.nodeGroups().stream()
          .map(g -> g.max() == null ? g : new NodeGroup(g.name(), g.instanceType(), g.min(), g.max(), g.max()))
          .toList(), cluster.vpcId(), cluster.subnetIds(), cluster.clusterRole());
    }
    if (spec instanceof VmPoolSpec pool && pool.max() != null) {
      return new VmPoolSpec(pool.name(), pool.instanceType(), pool.max(), pool.max(), pool.createLoadBalancer(),
          pool.loadBalancerType(), pool.listenerPorts(), pool.vpcId(), pool.subnetIds(), pool.imageId(),
          pool.certificateArn());
    }
    return spec;
  }

  /**
   * Submits a job. A key already used answers with its job, or refuses a different request, whatever else this call
   * would meet (a space since deleted, say). The key is looked up only when the submit fails (its insert does when
   * the key is taken), so a first submit pays no read for it; a repeated one does the submit's checks, and asks the
   * provider for its defaults, before it finds its job.
   */
  public Job submit(Principal principal, SpaceId spaceId, ResourceSpec asked, SubmitOptions options) {
    String key = options.idempotencyKey();
    String hash = requestHash(spaceId, asked, options);
    try {
      return create(principal, spaceId, asked, options, key, hash);
    } catch (RuntimeException e) {
      if (key == null) {
        throw e;
      }
      JobId existing;
      try {
        existing = existingForKey(principal, key, hash);
      } catch (ConflictException reused) {
        throw reused;
      } catch (RuntimeException lookup) {
        e.addSuppressed(lookup);
        throw e;
      }
      if (existing == null) {
        throw e;
      }
      return get(principal, existing);
    }
  }

  private Job create(Principal principal, SpaceId spaceId, ResourceSpec asked, SubmitOptions options, String key,
      String hash) {
    validateNameAndTags(options.name(), options.tags(), "");
    Place place = keptPlace(principal, spaceId);
    for (int attempt = 1; ; attempt++) {
      try {
        return create(principal, spaceId, place, asked, options, key, hash);
      } catch (SpaceChanged changed) {
        usablePlaces.invalidate(new PlaceKey(principal.orgId(), spaceId));
        if (attempt == PLACE_ATTEMPTS) {
          throw new ConflictException("space_changed", "space " + spaceId + " changed " + attempt
              + " times while the job was submitted; submit it again");
        }
        // as a fresh read finds it now: inactive or gone is refused as such, active again is written
        place = place(principal, spaceId);
      }
    }
  }

  private Job create(Principal principal, SpaceId spaceId, Place place, ResourceSpec asked, SubmitOptions options,
      String key, String hash) {
    // the job keeps the spec with the provider's defaults filled in, as its plan showed them
    ResourceSpec spec = withDefaults(principal, place, asked).spec(); // asks the cloud: outside the tx
    List<FieldError> networkErrors = networkErrors(place, asked); // asks the cloud: outside the tx
    JobId id = JobId.random();
    io.opentelemetry.api.trace.Span span = tracing.submitted(id.value(), spec.kind().wireName());
    String traceParent = EngineTracing.traceParent(span);
    Job submitted;
    Reservation leased = null;
    LoadedJob written;
    try (io.opentelemetry.context.Scope ignored = span.makeCurrent()) {
      Target target = target(principal, place, spaceId, spec, true, networkErrors);
      List<Step> steps = target.driver.create(spec);
      List<StepRecord> rows = new ArrayList<>();
      for (int i = 0; i < steps.size(); i++) {
        rows.add(StepRecord.pending(id.value(), JobPhase.CREATE, i, steps.get(i).name(),
            steps.get(i).permissions()));
      }
      Instant now = Timestamps.now();
      String name = options.name() != null ? options.name()
          : spec.name() != null ? spec.name() : spec.kind().wireName() + "-" + id.value().substring(4, 12);
      span.setAttribute(EngineTracing.PROVIDER, target.space.provider());
      // with a thread free here now, the job's row is written leased to this engine, which runs it once committed
      leased = worker == null ? null : worker.reserve(id);
      JobRecord job = new JobRecord(id, principal.orgId(), spaceId, JobType.PROVISIONING, spec.kind(), name,
          options.tags(), target.space.provider(), target.account.id(), target.space.region(), spec,
          JobStatus.PENDING, JobPhase.CREATE, Map.of(), null, principal.actor(), now, now, null,
          leased == null ? 0 : JobRepository.LEASED_AT_SUBMIT_VERSION, traceParent);
      JobRepository.StoredJob row = JobRepository.asWritten(job);
      List<NewEvent> events = new ArrayList<>();
      events.add(new NewEvent(JobEventType.SUBMITTED, null, JobStatus.PENDING,
          "submitted by " + principal.actor()));
      // what the plan warned of stays with the job, for whoever submitted without planning
      for (dev.zop.provisioner.PlanWarning warning : target.driver.warnings(spec)) {
        events.add(new NewEvent(JobEventType.WARNING, null, JobStatus.PENDING,
            warning.message() + " (" + warning.code() + ")"));
      }
      List<RowWrite> inserts = jobs.inserts(row, key, hash, rows, events, true,
          leased == null ? null : leased.leaseAtSubmit(), db.dialect());
      // reads nothing inside its transaction, so concurrent submits share commits
      submits.write(inserts);
      // the answer is the job as written: reading it back would cost two more round trips
      submitted = view(job, rows);
      // the run's own copy, parsed from the row as written, as a claim's read gives it: nothing it holds is shared
      written = leased == null ? null : new LoadedJob(row.parse(), List.copyOf(rows), events.size());
    } catch (dev.zop.provisioner.core.internal.store.StoreException e) {
      unreserve(leased);
      if (e.sqlCause() != null && db.dialect().isNotNullViolation(e.sqlCause())) {
        // only the job's organisation, taken from its space, can be null (JobRepository#inserts): the space is no
        // longer active
        EngineTracing.failed(span, e);
        throw new SpaceChanged(e);
      }
      if (key != null && db.dialect().isUniqueViolation(e.sqlCause())) {
        throw e; // the key is taken: not a failure, the caller answers with the key's job
      }
      EngineTracing.failed(span, e);
      throw e;
    } catch (RuntimeException e) {
      unreserve(leased);
      EngineTracing.failed(span, e);
      throw e;
    } finally {
      span.end();
    }
    if (leased != null) {
      leased.committed(written);
    } else {
      wakeWorker.run();
    }
    return submitted;
  }

  /** A thread reserved for a job whose row was not written (or not known to be): its lease, if any, runs out. */
  private static void unreserve(Reservation leased) {
    if (leased != null) {
      leased.abandoned();
    }
  }

  private JobId existingForKey(Principal principal, String key, String hash) {
    Map.Entry<JobId, String> existing = db.read(c -> jobs.findByIdempotencyKey(c, principal.orgId(), key));
    if (existing == null) {
      return null;
    }
    if (!existing.getValue().equals(hash)) {
      throw new ConflictException("idempotency_key_reused",
          "idempotency key '" + key + "' was already used for a different request");
    }
    return existing.getKey();
  }

  public Job get(Principal principal, JobId id) {
    return db.read(c -> {
      JobRepository.StoredJob row = jobs.findStored(c, principal.orgId(), id);
      if (row == null || JobType.fromWire(row.jobType()) != JobType.PROVISIONING) {
        throw new NotFoundException("job", id);
      }
      Job kept = finishedView(row);
      return kept != null ? kept : keptIfFinished(row, view(row.parse(), jobs.steps(c, id)));
    });
  }

  public Page<Job> list(Principal principal, JobQuery query) {
    long after = parseCursor(query.cursor(), query.order());
    return db.read(c -> {
      List<Map.Entry<Long, JobRepository.StoredJob>> rows =
          jobs.list(c, principal.orgId(), JobType.PROVISIONING, query.spaceId(), query.statuses(), after,
              query.order(), query.limit());
      boolean more = rows.size() > query.limit();
      List<Map.Entry<Long, JobRepository.StoredJob>> page = more ? rows.subList(0, query.limit()) : rows;
      Job[] items = new Job[page.size()];
      List<String> unread = new ArrayList<>();
      for (int i = 0; i < items.length; i++) {
        items[i] = finishedView(page.get(i).getValue());
        if (items[i] == null) {
          unread.add(page.get(i).getValue().id());
        }
      }
      Map<String, List<StepRecord>> steps = unread.isEmpty() ? Map.of() : jobs.steps(c, unread);
      for (int i = 0; i < items.length; i++) {
        if (items[i] == null) {
          JobRepository.StoredJob row = page.get(i).getValue();
          items[i] = keptIfFinished(row, view(row.parse(), steps.getOrDefault(row.id(), List.of())));
        }
      }
      String next = more ? cursor(page.get(page.size() - 1).getKey(), query.order()) : null;
      return new Page<>(List.of(items), next);
    });
  }

  /**
   * Views of finished jobs as last read, by job id, each with the row it was built from. A kept view is used
   * only when the row read now is equal to that one, column for column, so a changed name, tag, status or output
   * is never missed. The steps are not in the row, and are what the view saves reading: a finished job's steps
   * change only while it runs again or is retried or torn down, and each of those leaves its row different for
   * good (a claim bumps the version, which never goes back; a retry, cancel or teardown moves the status and
   * sets a new finish time). Steps read just after the row can only be newer than it, so a view kept under an
   * older row is one no later row matches. Component jobs are not kept: their values may nest maps a caller could
   * change in place.
   */
  private final com.github.benmanes.caffeine.cache.Cache<String, FinishedView> finishedViews =
      com.github.benmanes.caffeine.cache.Caffeine.newBuilder().maximumWeight(FINISHED_VIEWS_WEIGHT)
          .weigher((String id, FinishedView kept) -> kept.weight()).build();

  /** Weighed in characters of text kept: two million is some two thousand one-step jobs, forty full pages. */
  private static final long FINISHED_VIEWS_WEIGHT = 2_000_000;

  private record FinishedView(JobRepository.StoredJob row, Job view) {
    /** Its row's text and its steps' names, outputs and permissions, in characters. */
    int weight() {
      int weight = row.textLength();
      for (JobStep step : view.steps()) {
        weight += 200 + step.name().length();
        for (Map.Entry<String, String> output : step.outputs().entrySet()) {
          weight += output.getKey().length() + output.getValue().length();
        }
        for (String permission : step.permissions()) {
          weight += permission.length();
        }
      }
      return weight;
    }
  }

  private Job finishedView(JobRepository.StoredJob row) {
    FinishedView kept = finishedViews.getIfPresent(row.id());
    return kept != null && kept.row().equals(row) ? kept.view() : null;
  }

  private Job keptIfFinished(JobRepository.StoredJob row, Job view) {
    if (view.status().isTerminal() && view.kind() != JobKind.COMPONENT) {
      finishedViews.put(row.id(), new FinishedView(row, view));
    }
    return view;
  }

  public Job update(Principal principal, JobId id, JobPatch patch) {
    if (patch == null || (patch.name() == null && patch.tags() == null)) {
      throw ValidationException.of("body", "empty_patch", "give a name, tags or both");
    }
    validateNameAndTags(patch.name(), patch.tags(), "");
    get(principal, id);
    // Not fenced: name and tags are not touched by workers, and bumping the version would break their fence.
    db.tx(c -> {
      jobs.patch(c, id, patch.name(), patch.tags());
      return null;
    });
    return get(principal, id);
  }

  public Job delete(Principal principal, JobId id) {
    Job current = get(principal, id);
    if (current.status() == JobStatus.DELETED || current.status() == JobStatus.DELETING) {
      return current;
    }
    if (current.status() == JobStatus.FAILED && current.phase() == JobPhase.TEARDOWN) {
      return retry(principal, id);
    }
    if (!current.status().isTerminal()) {
      throw new ConflictException("job_in_progress",
          "job " + id + " is " + current.status().wireName() + "; wait for it to finish before deleting it");
    }
    for (TeardownGuard guard : teardownGuards) {
      ConflictException refusal = guard.check(id);
      if (refusal != null) {
        throw refusal;
      }
    }
    db.tx(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      List<StepRecord> all = jobs.steps(c, id);
      ResourceDriver<ResourceSpec> driver = driver(c, job);
      List<Step> steps = driver.teardown(job.spec(), StepRunner.recordedOutputs(all, Integer.MAX_VALUE));
      if (!jobs.bumpIfUnchanged(c, id, job.version())) {
        throw new ConflictException("concurrent_change", "job " + id + " changed while deleting; try again");
      }
      List<StepRecord> rows = new ArrayList<>();
      for (int i = 0; i < steps.size(); i++) {
        rows.add(StepRecord.pending(id.value(), JobPhase.TEARDOWN, i, steps.get(i).name(),
            steps.get(i).permissions()));
      }
      jobs.addSteps(c, id, rows);
      transitions.move(c, id, StatusTransitions.Move.requeue(job.status(), JobStatus.DELETING, JobPhase.TEARDOWN,
          JobEventType.STATUS, null, "teardown requested by " + principal.actor()));
      return null;
    });
    signals.changed(id);
    wakeWorker.run();
    return get(principal, id);
  }

  public Job retry(Principal principal, JobId id) {
    Job current = get(principal, id);
    if (current.status() != JobStatus.FAILED) {
      throw new ConflictException("illegal_transition",
          "only a failed job can be retried; job " + id + " is " + current.status().wireName());
    }
    JobStatus next = current.phase() == JobPhase.TEARDOWN ? JobStatus.DELETING : JobStatus.PENDING;
    db.tx(c -> {
      JobRecord job = jobs.find(c, principal.orgId(), id);
      if (!jobs.bumpIfUnchanged(c, id, job.version())) {
        throw new ConflictException("concurrent_change", "job " + id + " changed while retrying; try again");
      }
      StepRecord failed = null;
      List<StepRecord> steps = new ArrayList<>();
      for (StepRecord step : jobs.steps(c, id)) {
        if (step.phase() != job.phase() || step.status() == StepStatus.SUCCEEDED) {
          steps.add(step);
          continue;
        }
        if (failed == null && step.status() == StepStatus.FAILED) {
          failed = step;
        }
        steps.add(transitions.reset(step));
      }
      jobs.writeSteps(c, id, steps);
      jobs.recordRetry(c, id, principal.actor(), job.phase(), failed == null ? null : failed.name(),
          job.failure());
      if (job.phase() == JobPhase.UPDATE) {
        jobs.revisionRetried(c, id);
      }
      transitions.move(c, id, StatusTransitions.Move.requeue(job.status(), next, null, JobEventType.RETRIED,
          failed == null ? null : failed.name(), "retried by " + principal.actor()
              + (job.failure() == null ? "" : " after " + job.failure().code() + ": " + job.failure().message())));
      return null;
    });
    signals.changed(id);
    wakeWorker.run();
    return get(principal, id);
  }

  public Job await(Principal principal, JobId id, Duration timeout) {
    get(principal, id);
    awaitTerminal(principal, id, timeout);
    return get(principal, id);
  }

  /** Waits until the job (of either type) is terminal; on timeout reports it as the provisioning view. */
  public void awaitTerminal(Principal principal, JobId id, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    try (JobSignals.JobWaiter waiter = signals.waiter(id)) {
      while (true) {
        JobRecord record = db.read(c -> jobs.find(c, principal.orgId(), id));
        if (record == null) {
          throw new NotFoundException("job", id);
        }
        if (record.status().isTerminal()) {
          return;
        }
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          throw new AwaitTimeoutException(db.read(c -> view(record, jobs.steps(c, id))));
        }
        try {
          waiter.await(Math.min(left, awaitPoll.toMillis()));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new AwaitTimeoutException(db.read(c -> view(record, jobs.steps(c, id))));
        }
      }
    }
  }

  public Subscription watch(Principal principal, JobId id, JobEventListener listener) {
    get(principal, id);
    return watchHub.watch(id, listener);
  }

  public List<JobEvent> events(Principal principal, JobId id, long afterSeq) {
    get(principal, id);
    return db.read(c -> jobs.events(c, id, afterSeq, Integer.MAX_VALUE));
  }

  /** Resolves and checks everything a job needs before it can be planned or submitted. */
  private Target target(Principal principal, Place place, SpaceId spaceId, ResourceSpec spec, boolean submitting,
      List<FieldError> networkErrors) {
    if (spec == null) {
      throw ValidationException.of("config", "required", "a spec is required");
    }
    Space space = place.space();
    if (space == null) {
      throw ValidationException.of("spaceID", "not_found", "space " + spaceId + " not found");
    }
    if (submitting && space.status() == SpaceStatus.INACTIVE) {
      throw new ConflictException("space_inactive", "space " + spaceId + " is inactive; activate it first");
    }
    CloudAccount account = place.account();
    if (providers.find(space.provider()) == null) {
      throw ValidationException.of("spaceID", "unsupported_provider",
          "provider '" + space.provider() + "' of space " + spaceId + " is not installed");
    }
    if (!providers.supports(space.provider(), spec.kind())) {
      throw ValidationException.of("kind", "unsupported_kind",
          space.provider() + " cannot provision " + spec.kind().wireName());
    }
    ProviderSession session = providers.session(account, space);
    ResourceDriver<ResourceSpec> driver = providers.driver(session, spec.kind(),
        () -> targets.of(principal.orgId(), spaceId));
    List<FieldError> errors = new ArrayList<>();
    spec.validate().forEach(e -> errors.add(e.under("config")));
    if (errors.isEmpty()) {
      driver.validate(spec).forEach(e -> errors.add(e.under("config")));
    }
    errors.addAll(networkErrors);
    ValidationException.throwIfAny(errors);
    return new Target(space, account, driver);
  }

  /**
   * The spec with the provider's defaults filled in, or the spec as it is when it is invalid or its space is not
   * usable ({@link #target} reports both).
   */
  private Defaulted<ResourceSpec> withDefaults(Principal principal, Place place, ResourceSpec spec) {
    Space space = place.space();
    if (spec == null || space == null || !spec.validate().isEmpty() || providers.find(space.provider()) == null
        || !providers.supports(space.provider(), spec.kind())) {
      return Defaulted.as(spec);
    }
    ProviderSession session = providers.session(place.account(), space);
    ResourceDriver<ResourceSpec> driver = providers.driver(session, spec.kind(),
        () -> targets.of(principal.orgId(), space.id()));
    return ProviderCalls.classified(session, () -> driver.withDefaults(spec));
  }

  /**
   * The references to existing networks the caller wrote that the provider does not find, or none when the spec
   * names none, the provider cannot discover, or the space is not usable (which {@link #target} reports). What
   * the provider's defaults fill in is not checked here: a default may name a network the job itself makes.
   */
  private List<FieldError> networkErrors(Place place, ResourceSpec spec) {
    NetworkReferences references = spec == null ? null : NetworkReferences.of(spec);
    Space space = place.space();
    if (references == null || references.isEmpty() || space == null || providers.find(space.provider()) == null) {
      return List.of();
    }
    ProviderSession session = providers.session(place.account(), space);
    Discovery discovery = session.discovery();
    if (discovery == null) {
      return List.of();
    }
    return ProviderCalls.classified(session, () -> references.check(discovery));
  }

  /** A revised config as a submit would take it: the provider's defaults filled in, validated, with its driver. */
  record Revised(ResourceSpec spec, List<dev.zop.provisioner.PlanDefault> filled, ResourceDriver<ResourceSpec> driver,
      String region) {}

  /** Checks a revised config of {@code job} as a submit to its space checks a new one. */
  Revised revised(Principal principal, JobRecord job, ResourceSpec asked) {
    Place place = place(principal, job.spaceId());
    Defaulted<ResourceSpec> defaulted = withDefaults(principal, place, asked); // asks the cloud
    List<FieldError> networkErrors = networkErrors(place, asked);
    Target target = target(principal, place, job.spaceId(), defaulted.spec(), true, networkErrors);
    return new Revised(defaulted.spec(), defaulted.filled(), target.driver, target.space.region());
  }

  /** A job's provider session and driver, for a read of what it made (a drift check). */
  record Driving(ProviderSession session, ResourceDriver<ResourceSpec> driver) {}

  Driving driving(JobRecord job) {
    ProviderSession session = providers.session(job.accountId(), job.region(), scopes.of(job),
        () -> db.read(c -> accounts.findAnyOrg(c, job.accountId())));
    return new Driving(session, providers.driver(session, job.kind(), () -> targets.of(job.orgId(), job.spaceId())));
  }

  /** Where an import into a space would run: the space, its account, the session and the kind's driver. */
  record Importing(Space space, CloudAccount account, ProviderSession session, ResourceDriver<ResourceSpec> driver) {}

  /** Checks {@code spec} as a submit to the space checks it, and opens the space's session for an import. */
  Importing importing(Principal principal, SpaceId spaceId, ResourceSpec spec, boolean submitting) {
    Place place = place(principal, spaceId);
    Target target = target(principal, place, spaceId, spec, submitting, List.of());
    return new Importing(target.space, target.account, providers.session(target.account, target.space),
        target.driver);
  }

  private ResourceDriver<ResourceSpec> driver(Connection c, JobRecord job) throws SQLException {
    CloudAccount account = accounts.findAnyOrg(c, job.accountId());
    return providers.driver(providers.session(account.id(), job.region(), scopes.of(job), () -> account), job.kind(),
        () -> targets.of(job.orgId(), job.spaceId()));
  }

  private static void validateNameAndTags(String name, Map<String, String> tags, String prefix) {
    List<FieldError> errors = new ArrayList<>();
    if (name != null && (name.isBlank() || name.length() > 200)) {
      errors.add(FieldError.of(prefix + "name", "invalid_name", "must be 1-200 characters"));
    }
    StorableText.check(prefix + "name", name, errors);
    StorableText.check(prefix + "tags", tags, errors);
    if (tags != null) {
      if (tags.size() > MAX_TAGS) {
        errors.add(FieldError.of(prefix + "tags", "too_many", "at most " + MAX_TAGS + " tags"));
      }
      tags.forEach((k, v) -> {
        if (k == null || k.isBlank() || k.length() > 128) {
          errors.add(FieldError.of(prefix + "tags", "invalid_key", "tag keys must be 1-128 characters"));
        } else if (v == null || v.length() > 256) {
          errors.add(FieldError.of(prefix + "tags." + k, "invalid_value", "tag values must be 0-256 characters"));
        }
      });
    }
    ValidationException.throwIfAny(errors);
  }

  /**
   * The sequence number a cursor continues from: {@code c<seq>} after it, oldest first; {@code d<seq>} before it,
   * newest first. Without a cursor, the start of the list in that order.
   */
  public static long parseCursor(String cursor, ListOrder order) {
    boolean newest = order == ListOrder.NEWEST_FIRST;
    if (cursor == null) {
      return newest ? Long.MAX_VALUE : 0;
    }
    try {
      if (cursor.startsWith("c") || cursor.startsWith("d")) {
        long seq = Long.parseLong(cursor.substring(1));
        if (seq >= 0) {
          if (cursor.startsWith("d") != newest) {
            throw ValidationException.of("cursor", "invalid_cursor", "the cursor continues a list in the other"
                + " order: pass order=" + (newest ? "oldest" : "newest") + " with it, or start again without it");
          }
          return seq;
        }
      }
    } catch (NumberFormatException e) {
      // falls through to the validation error
    }
    throw ValidationException.of("cursor", "invalid_cursor", "cursor is not one this service returned");
  }

  /** The cursor of the page after the one that ends at {@code seq}. */
  public static String cursor(long seq, ListOrder order) {
    return (order == ListOrder.NEWEST_FIRST ? "d" : "c") + seq;
  }

  private static String requestHash(SpaceId spaceId, ResourceSpec spec, SubmitOptions options) {
    String canonical = spaceId + "|" + (spec == null ? "" : spec.kind().wireName() + "|" + Json.write(spec))
        + "|" + options.name() + "|" + Json.write(new java.util.TreeMap<>(options.tags()));
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(canonical.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Job view(JobRecord job, List<StepRecord> steps) {
    return new Job(job.id(), job.spaceId(), job.jobType(), job.kind(), job.name(), job.tags(), job.status(),
        job.phase(), job.spec(), job.outputs(), job.failure(), steps.stream().map(StepRecord::toView).toList(),
        job.createdBy(), job.createdAt(), job.updatedAt(), job.finishedAt());
  }
}
