package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.ListOrder;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.SpaceStatus;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.Dialect;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.spec.ResourceSpec;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * SQL for jobs, their steps, events and retries. Reads that serve a caller are scoped to an organisation;
 * writes that follow a claim go through {@link #fence}.
 */
public final class JobRepository {
  /** Read back by position in {@link #stored}: a column added here is added there in the same place. */
  private static final String JOB_COLUMNS = "id, org_id, space_id, job_type, kind, name, tags, provider,"
      + " cloud_account_id, region, spec, status, phase, outputs, failure, created_by, created_at, updated_at,"
      + " finished_at, version, trace_parent";
  /** Formatted with: more columns, the organisation's value, the version, more values. */
  private static final String INSERT_JOB_TEMPLATE = "INSERT INTO provisioning_jobs (id, org_id, space_id, job_type, kind,"
      + " name, tags, provider, cloud_account_id, region, spec, status, phase, outputs, failure, created_by,"
      + " created_at, updated_at, next_run_at, version, trace_parent, steps, held_events, held_count, last_event%s)"
      + " VALUES (?, %s, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP, %d, ?, ?, ?, ?, ?%s)";
  /** The job's organisation taken from its space's row, found only while the space is active (org_id is NOT NULL). */
  private static final String ORG_WHILE_SPACE_ACTIVE =
      "(SELECT s.org_id FROM deployment_spaces s WHERE s.id = ? AND s.org_id = ? AND s.status = ?)";
  private static final String INSERT_JOB_WHILE_SPACE_ACTIVE =
      INSERT_JOB_TEMPLATE.formatted("", ORG_WHILE_SPACE_ACTIVE, 0, "");
  private static final String INSERT_JOB = INSERT_JOB_TEMPLATE.formatted("", "?", 0, "");
  /** The version of a job's row written already leased by its submit: as a claim of the row at 0 leaves it. */
  static final long LEASED_AT_SUBMIT_VERSION = 1;

  /** Who a new job's row is leased to as it is written, and for how long by the database's clock. */
  record LeaseAtSubmit(String owner, long millis) {}

  public void insert(Connection c, JobRecord job, String idempotencyKey, String requestHash, List<StepRecord> steps)
      throws SQLException {
    Database.executeBatched(c, inserts(asWritten(job), idempotencyKey, requestHash, steps, List.of(), false, null,
        null));
  }

  /**
   * The inserts of a new job: its row (as {@link #asWritten} gives it, with its steps and the first entries of its
   * history, held on it as {@link #appended} holds them) and its idempotency key (when
   * given), in an order {@link Database#executeBatched} keeps. A second job with the same key fails on the key's
   * primary key.
   *
   * <p>With {@code whileSpaceActive}, the job's row takes its organisation from its space's own row, found only
   * while that row is still active in that organisation: a space deactivated or deleted since the caller read it
   * leaves {@code org_id} null, and the insert fails on the column's NOT NULL (before the job's other rows).
   *
   * <p>With {@code lease}, the job's row is written leased to its owner, at {@link #LEASED_AT_SUBMIT_VERSION}, as
   * if claimed at once ({@code job.version()} must say so).
   */
  List<RowWrite> inserts(StoredJob job, String idempotencyKey, String requestHash, List<StepRecord> steps,
      List<NewEvent> events, boolean whileSpaceActive, LeaseAtSubmit lease, Dialect dialect) {
    if (job.version() != (lease == null ? 0 : LEASED_AT_SUBMIT_VERSION)) {
      throw new IllegalArgumentException("a new job's row is written at version 0, or "
          + LEASED_AT_SUBMIT_VERSION + " when leased; not " + job.version());
    }
    List<RowWrite> rows = new ArrayList<>(2);
    List<Object> args = new ArrayList<>();
    args.add(job.id());
    if (whileSpaceActive) {
      args.addAll(java.util.Arrays.asList(job.spaceId(), job.orgId(), SpaceStatus.ACTIVE));
    } else {
      args.add(job.orgId());
    }
    args.addAll(java.util.Arrays.asList(job.spaceId(), job.jobType(), job.kind(), job.name(), job.tags(),
        job.provider(), job.accountId(), job.region(), job.spec(), job.status(), job.phase(), job.outputs(),
        job.failure(), job.createdBy(), job.createdAt(), job.updatedAt(), job.traceParent(),
        StoredSteps.write(steps), events.isEmpty() ? Database.NULL_TEXT : HeldEvents.lines(events, job.createdAt()),
        events.size(), events.size()));
    String insert = whileSpaceActive ? INSERT_JOB_WHILE_SPACE_ACTIVE : INSERT_JOB;
    if (lease != null) {
      insert = INSERT_JOB_TEMPLATE.formatted(", lease_owner, lease_until", whileSpaceActive ? ORG_WHILE_SPACE_ACTIVE
          : "?", LEASED_AT_SUBMIT_VERSION, ", ?, " + dialect.nowPlusMillis());
      args.add(lease.owner());
      args.add(lease.millis());
    }
    rows.add(new RowWrite(insert, args.toArray()));
    if (idempotencyKey != null) {
      rows.add(new RowWrite("INSERT INTO job_idempotency_keys (org_id, idempotency_key, job_id, request_hash)"
          + " VALUES (?, ?, ?, ?)", job.orgId(), idempotencyKey, job.id(), requestHash));
    }
    return rows;
  }

  /**
   * Adds steps to the job's (a teardown's, a revision's), rewriting its stored steps; the caller's transaction has
   * already moved the job's version on, so no other write of its steps is under way.
   */
  void addSteps(Connection c, JobId id, List<StepRecord> added) throws SQLException {
    List<StepRecord> all = steps(c, id);
    all.addAll(added);
    writeSteps(c, id, all);
  }

  /** Replaces the job's stored steps (see {@link StoredSteps}). */
  void writeSteps(Connection c, JobId id, List<StepRecord> steps) throws SQLException {
    Database.update(c, "UPDATE provisioning_jobs SET steps = ? WHERE id = ?", StoredSteps.write(steps), id.value());
  }

  /**
   * The organisation's job, or null. Looked up by the primary key alone: given {@code org_id = ? AND id = ?} and
   * statistics older than the table's growth, PostgreSQL costs the organisation's index the same as the key and
   * may walk every job of the organisation to find one.
   */
  public JobRecord find(Connection c, String orgId, JobId id) throws SQLException {
    StoredJob job = findStored(c, orgId, id);
    return job == null ? null : job.parse();
  }

  /** The organisation's job's row as stored, or null; looked up as {@link #find} does. */
  public StoredJob findStored(Connection c, String orgId, JobId id) throws SQLException {
    StoredJob job = storedAnyOrg(c, id);
    return job != null && job.orgId().equals(orgId) ? job : null;
  }

  /** A succeeded job of a space, as a space's budget reads it: its spec is read only when this changed. */
  record Succeeded(JobId id, JobKind kind, long version) {}

  /** The space's succeeded jobs, components left out (they run in a cluster another job pays for). */
  List<Succeeded> succeededInSpace(Connection c, String orgId, SpaceId spaceId) throws SQLException {
    // the row's version rather than updated_at: every write of a job's row moves both, and a number reads faster
    // than a timestamp, ten thousand times a plan
    return Database.query(c, "SELECT id, kind, version FROM provisioning_jobs WHERE org_id = ? AND space_id = ?"
            + " AND status = 'succeeded' AND kind <> 'component'",
        rs -> new Succeeded(JobId.of(rs.getString(1)), JobKind.fromWire(rs.getString(2)), rs.getLong(3)),
        orgId, spaceId.value());
  }

  /** The specs of {@code jobs}, by id, read in batches. */
  Map<JobId, ResourceSpec> specs(Connection c, List<Succeeded> jobs) throws SQLException {
    Map<JobId, ResourceSpec> specs = new java.util.HashMap<>();
    for (int from = 0; from < jobs.size(); from += 500) {
      List<Succeeded> batch = jobs.subList(from, Math.min(jobs.size(), from + 500));
      Map<String, JobKind> kinds = new java.util.HashMap<>();
      batch.forEach(j -> kinds.put(j.id().value(), j.kind()));
      Database.query(c, "SELECT id, spec FROM provisioning_jobs WHERE id IN (" + Database.marks(batch.size()) + ")",
          rs -> specs.put(JobId.of(rs.getString(1)), Json.spec(kinds.get(rs.getString(1)), rs.getString(2))),
          batch.stream().map(j -> j.id().value()).toArray());
    }
    return specs;
  }

  /** For workers: the job was scoped when it was submitted. */
  JobRecord findAnyOrg(Connection c, JobId id) throws SQLException {
    StoredJob job = storedAnyOrg(c, id);
    return job == null ? null : job.parse();
  }

  private static StoredJob storedAnyOrg(Connection c, JobId id) throws SQLException {
    return Database.queryOne(c, "SELECT " + JOB_COLUMNS + " FROM provisioning_jobs WHERE id = ?",
        rs -> stored(rs, 1), id.value());
  }

  /** For workers: several jobs by id with their steps, in one query (a claim's, or a run's that was handed one). */
  List<LoadedJob> loadAnyOrg(Connection c, Collection<String> ids) throws SQLException {
    if (ids.isEmpty()) {
      return List.of();
    }
    return Database.query(c, "SELECT " + JOB_COLUMNS + ", steps, held_count FROM provisioning_jobs WHERE id IN ("
        + Database.marks(ids.size()) + ")", rs -> new LoadedJob(mapJob(rs),
            StoredSteps.read(rs.getString(1), rs.getString(STEPS_AFTER_JOB_COLUMNS)),
            rs.getInt(STEPS_AFTER_JOB_COLUMNS + 1)), ids.toArray());
  }

  /** The position of {@code steps} when it follows the {@link #JOB_COLUMNS}. */
  private static final int STEPS_AFTER_JOB_COLUMNS = JOB_COLUMNS.split(",").length + 1;

  /** The job an idempotency key created, with the hash of the request that created it. */
  Map.Entry<JobId, String> findByIdempotencyKey(Connection c, String orgId, String key) throws SQLException {
    return Database.queryOne(c,
        "SELECT job_id, request_hash FROM job_idempotency_keys WHERE org_id = ? AND idempotency_key = ?",
        rs -> Map.entry(JobId.of(rs.getString(1)), rs.getString(2)), orgId, key);
  }

  /** A read of jobs' steps, completed by how it picks the jobs. */
  private static final String STEPS_OF_JOBS = "SELECT id, steps FROM provisioning_jobs WHERE id";

  /** The job's steps in phase and index order; none when it is gone. */
  public List<StepRecord> steps(Connection c, JobId id) throws SQLException {
    String json = Database.queryOne(c, STEPS_OF_JOBS + " = ?", rs -> rs.getString(2), id.value());
    return StoredSteps.read(id.value(), json);
  }

  /** Steps of several jobs in one query, keyed by job id, each job's in phase and index order. */
  public Map<String, List<StepRecord>> steps(Connection c, Collection<String> jobIds) throws SQLException {
    Map<String, List<StepRecord>> byJob = new LinkedHashMap<>();
    if (jobIds.isEmpty()) {
      return byJob;
    }
    Collection<String> distinct = new java.util.LinkedHashSet<>(jobIds);
    for (Map.Entry<String, String> row : Database.query(c, STEPS_OF_JOBS + " IN (" + Database.marks(distinct.size())
        + ")", rs -> Map.entry(rs.getString(1), rs.getString(2)), distinct.toArray())) {
      byJob.put(row.getKey(), StoredSteps.read(row.getKey(), row.getValue()));
    }
    return byJob;
  }

  /**
   * One page of jobs past {@code fromSeq} in {@code order}: after it oldest first, before it newest first; returns
   * limit+1 rows to tell if more follow.
   */
  public List<Map.Entry<Long, StoredJob>> list(Connection c, String orgId, JobType type, SpaceId spaceId,
      Set<JobStatus> statuses, long fromSeq, ListOrder order, int limit) throws SQLException {
    boolean newest = order == ListOrder.NEWEST_FIRST;
    StringBuilder sql = new StringBuilder("SELECT seq, " + JOB_COLUMNS
        + " FROM provisioning_jobs WHERE org_id = ? AND job_type = ? AND seq " + (newest ? "<" : ">") + " ?");
    List<Object> args = new ArrayList<>(List.of(orgId, type, fromSeq));
    if (spaceId != null) {
      sql.append(" AND space_id = ?");
      args.add(spaceId.value());
    }
    if (!statuses.isEmpty()) {
      sql.append(" AND status IN (").append(Database.marks(statuses.size()))
          .append(")");
      args.addAll(statuses);
    }
    sql.append(newest ? " ORDER BY seq DESC LIMIT ?" : " ORDER BY seq LIMIT ?");
    args.add(limit + 1);
    return Database.query(c, sql.toString(), rs -> Map.entry(rs.getLong(1), stored(rs, 2)), args.toArray());
  }

  /**
   * The fencing write: bumps the job's version if it still is the lease's (one row updated), setting its outputs
   * too when {@code outputsJson} is given, its steps when {@code stepsJson} is (see {@link StoredSteps}), appending
   * {@code eventCount} history entries ({@code eventLines}, see {@link #appended}) when there are any, and, with
   * {@code dueInMillis}, putting it back in the queue as {@link #scheduled} does. Everything else the transaction
   * writes to the job happens after this, under the row lock it takes. A status move ({@code moveSet}: its SET
   * clauses, with {@code moveArgs}) may ride in it, guarded by the status it expects ({@code from}): one new version
   * of the job's row rather than two.
   */
  RowWrite fence(Lease lease, String outputsJson, String moveSet, List<Object> moveArgs, JobStatus from,
      String stepsJson, String eventLines, int eventCount, Long dueInMillis, Dialect dialect) {
    // few statement texts (with a move or without, history entries or none, due again or not), so that the fences
    // of a shared transaction go as few batches; each made once (a move's SET clause is one text a shape, see
    // StatusTransitions), so a write neither builds nor hashes its statement's text again
    boolean events = eventCount > 0;
    boolean due = dueInMillis != null;
    String sql = fences.computeIfAbsent(new FenceShape(dialect, events, due, moveSet), JobRepository::fenceSql);
    List<Object> args = new ArrayList<>(moveArgs.size() + 9);
    args.add(text(outputsJson));
    args.add(text(stepsJson));
    if (events) {
      args.add(eventLines);
      args.add(eventCount);
      args.add(eventCount);
    }
    if (due) {
      args.add(dueInMillis);
    }
    if (moveSet != null) {
      args.addAll(moveArgs);
    }
    args.add(lease.jobId.value());
    args.add(lease.version());
    if (moveSet != null) {
      args.add(from);
    }
    return new RowWrite(sql, args.toArray());
  }

  /**
   * What sets a fence's statement text apart: the dialect, history entries appended, due again, the move it carries
   * (or null). A few dozen at most: a move's SET clause has one text a shape.
   */
  private record FenceShape(Dialect dialect, boolean events, boolean due, String moveSet) {}

  private final Map<FenceShape, String> fences = new java.util.concurrent.ConcurrentHashMap<>();

  private static String fenceSql(FenceShape shape) {
    StringBuilder sql = new StringBuilder("UPDATE provisioning_jobs SET version = version + 1,"
        + " updated_at = CURRENT_TIMESTAMP, outputs = COALESCE(?, outputs), steps = COALESCE(?, steps)");
    if (shape.events()) {
      sql.append(", ").append(APPEND_SET);
    }
    if (shape.due()) {
      sql.append(", next_run_at = ").append(shape.dialect().nowPlusMillis())
          .append(", lease_owner = NULL, lease_until = NULL");
    }
    if (shape.moveSet() != null) {
      sql.append(", ").append(shape.moveSet());
    }
    sql.append(" WHERE id = ? AND version = ?");
    if (shape.moveSet() != null) {
      sql.append(" AND status = ?");
    }
    return sql.toString();
  }

  /** The job's fencing version now, or -1 when it is gone. */
  long version(Connection c, JobId id) throws SQLException {
    Long version = Database.queryOne(c, "SELECT version FROM provisioning_jobs WHERE id = ?", rs -> rs.getLong(1),
        id.value());
    return version == null ? -1 : version;
  }

  /** Optimistic write for API calls on a job no worker holds (failed, succeeded): guarded by the version read. */
  boolean bumpIfUnchanged(Connection c, JobId id, long version) throws SQLException {
    return Database.update(c, "UPDATE provisioning_jobs SET version = version + 1, updated_at = CURRENT_TIMESTAMP"
        + " WHERE id = ? AND version = ?", id.value(), version) == 1;
  }

  void setOutputs(Connection c, JobId id, Map<String, String> outputs) throws SQLException {
    Database.update(c, "UPDATE provisioning_jobs SET outputs = ? WHERE id = ?", Json.write(outputs), id.value());
  }

  /**
   * Parks a job that already waits for a person: unleased, due again after {@code dueInMillis} (null: not until a
   * command nudges it). Its status does not change.
   */
  public void park(Connection c, JobId id, Long dueInMillis, Dialect dialect)
      throws SQLException {
    Database.update(c, "UPDATE provisioning_jobs SET lease_owner = NULL, lease_until = NULL, next_run_at = "
            + (dueInMillis == null ? "NULL" : dialect.nowPlusMillis()) + " WHERE id = ?",
        dueInMillis == null ? new Object[] {id.value()} : new Object[] {dueInMillis, id.value()});
  }

  /** Puts the job back in the queue: due after {@code delayMillis} by the database clock, unleased. */
  public void schedule(Connection c, JobId id, long delayMillis, Dialect dialect) throws SQLException {
    Database.execute(c, scheduled(id, delayMillis, dialect));
  }

  /** {@link #schedule} as a row write, to run in a batch with others under the job's fence. */
  RowWrite scheduled(JobId id, long delayMillis, Dialect dialect) {
    return new RowWrite("UPDATE provisioning_jobs SET next_run_at = " + dialect.nowPlusMillis()
        + ", lease_owner = NULL, lease_until = NULL WHERE id = ?", delayMillis, id.value());
  }

  boolean extendLease(Connection c, Lease lease, long leaseMillis, Dialect dialect) throws SQLException {
    return Database.update(c, "UPDATE provisioning_jobs SET lease_until = " + dialect.nowPlusMillis()
        + ", version = version + 1 WHERE id = ? AND version = ?", leaseMillis, lease.jobId.value(),
        lease.version()) == 1;
  }

  void patch(Connection c, JobId id, String name, Map<String, String> tags) throws SQLException {
    if (name != null) {
      Database.update(c, "UPDATE provisioning_jobs SET name = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?",
          name, id.value());
    }
    if (tags != null) {
      Database.update(c, "UPDATE provisioning_jobs SET tags = ?, updated_at = CURRENT_TIMESTAMP WHERE id = ?",
          Json.write(tags), id.value());
    }
  }

  void recordRetry(Connection c, JobId id, String actor, JobPhase phase, String stepName, Failure previous)
      throws SQLException {
    Database.update(c, "INSERT INTO job_retries (job_id, retried_by, retried_at, phase, step_name,"
        + " previous_failure) VALUES (?, ?, CURRENT_TIMESTAMP, ?, ?, ?)",
        id.value(), actor, phase, stepName, Json.failureJson(previous));
  }

  /**
   * Appends an entry to the job's history outside a fenced write: on its row, as a fence does (see
   * {@link #appended}), then into {@code job_events} with the others held there if that makes {@link #HOLD}.
   */
  public void appendEvent(Connection c, JobId id, JobEventType type, String stepName, JobStatus status, String message)
      throws SQLException {
    Database.execute(c, appended(id, List.of(new NewEvent(type, stepName, status, message))));
    for (RowWrite flush : flushed(id, HOLD)) {
      Database.execute(c, flush);
    }
  }

  /**
   * How many of a job's latest history entries its row holds at most before they are written as one row of
   * {@code job_events}: a step's transition then writes the job's row alone, and the history costs a row every
   * {@code HOLD} entries rather than one or two a step. The bound keeps the job's row, which every write of the job
   * rewrites, small.
   */
  static final int HOLD = 16;

  /** The SET clauses that append entries to a job's row; parameters: their lines, and how many there are, twice. */
  static final String APPEND_SET = "held_events = COALESCE(held_events, '') || ?, held_count = held_count + ?,"
      + " last_event = last_event + ?";

  /**
   * Appends entries to the job's history on its row, numbered on from its last: the database concatenates them,
   * under the row's lock, so writers of one job need not know each other's (see {@link HeldEvents}).
   */
  RowWrite appended(JobId id, List<NewEvent> events) {
    return new RowWrite("UPDATE provisioning_jobs SET " + APPEND_SET + " WHERE id = ?",
        HeldEvents.lines(events, java.time.Instant.now()), events.size(), events.size(), id.value());
  }

  /**
   * The writes that move the entries the job's row holds into one {@code job_events} row, when it holds at least
   * {@code atLeast} (else they touch nothing). Under the lock of an earlier write of the row in the same
   * transaction, the two see the same entries.
   */
  List<RowWrite> flushed(JobId id, int atLeast) {
    return List.of(
        new RowWrite("INSERT INTO job_events (job_id, last_number, events, created_at) SELECT id, last_event,"
            + " held_events, CURRENT_TIMESTAMP FROM provisioning_jobs WHERE id = ? AND held_count >= ?",
            id.value(), atLeast),
        new RowWrite("UPDATE provisioning_jobs SET held_events = NULL, held_count = 0"
            + " WHERE id = ? AND held_count >= ?", id.value(), atLeast));
  }

  /** A text that may be null, bound as text either way so that a batch's rows keep one parameter type. */
  private static Object text(String value) {
    return value == null ? Database.NULL_TEXT : value;
  }

  /** A job from the {@link #JOB_COLUMNS}. */
  private static JobRecord mapJob(ResultSet rs) throws SQLException {
    return stored(rs, 1).parse();
  }

  /**
   * A job's row as it is stored, its JSON columns still text: two reads of a row nobody changed in between are
   * equal. Read by position in the {@link #JOB_COLUMNS}' order: by name, pgjdbc looks each column up in a map for
   * every row, a tenth of reading a page of jobs.
   */
  private static StoredJob stored(ResultSet rs, int first) throws SQLException {
    int i = first;
    return new StoredJob(rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++),
        rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++),
        rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++), rs.getString(i++),
        rs.getString(i++), rs.getString(i++), Database.instant(rs, i++), Database.instant(rs, i++),
        Database.instant(rs, i++), rs.getLong(i++), rs.getString(i));
  }

  /** A new job's row as {@link #inserts} writes it and a read of it gives it back, its JSON columns written once. */
  static StoredJob asWritten(JobRecord job) {
    return new StoredJob(job.id().value(), job.orgId(), job.spaceId() == null ? null : job.spaceId().value(),
        job.jobType().wireName(), job.kind().wireName(), job.name(), Json.write(job.tags()), job.provider(),
        job.accountId().value(), job.region(), job.spec() == null ? "{}" : Json.write(job.spec()),
        job.status().wireName(), job.phase().wireName(), Json.write(job.outputs()), Json.failureJson(job.failure()),
        job.createdBy(), job.createdAt(), job.updatedAt(), job.finishedAt(), job.version(), job.traceParent());
  }

  /** A {@code provisioning_jobs} row as read, before its text is parsed into a {@link JobRecord}. */
  public record StoredJob(String id, String orgId, String spaceId, String jobType, String kind, String name,
      String tags, String provider, String accountId, String region, String spec, String status, String phase,
      String outputs, String failure, String createdBy, java.time.Instant createdAt, java.time.Instant updatedAt,
      java.time.Instant finishedAt, long version, String traceParent) {

    public JobRecord parse() {
      JobKind parsedKind = JobKind.fromWire(kind);
      return new JobRecord(JobId.of(id), orgId, spaceId == null ? null : SpaceId.of(spaceId),
          JobType.fromWire(jobType), parsedKind, name, Json.stringMap(tags), provider, CloudAccountId.of(accountId),
          region, parsedKind == JobKind.REMEDIATION ? null : Json.spec(parsedKind, spec), JobStatus.fromWire(status),
          JobPhase.fromWire(phase), Json.stringMap(outputs), Json.failure(failure), createdBy, createdAt, updatedAt,
          finishedAt, version, traceParent);
    }

    /** The characters of its text columns, to weigh what keeping it costs. */
    int textLength() {
      return length(tags) + length(spec) + length(outputs) + length(failure) + length(name) + id.length();
    }

    private static int length(String text) {
      return text == null ? 0 : text.length();
    }
  }
}
