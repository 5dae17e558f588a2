package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import dev.zop.provisioner.core.internal.store.Dialect;
import dev.zop.provisioner.core.internal.store.Json;
import dev.zop.provisioner.core.internal.store.Timestamps;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The one door every status change passes through; nothing else in the engine writes the {@code status} column of
 * {@code provisioning_jobs} or makes a step with another status.
 *
 * <p>A job moves by {@link #move}: the transition table ({@link JobStatus#canTransitionTo}) is checked, the row
 * is updated only if it still has the status the caller saw ({@code WHERE id = ? AND status = ?}), the row count
 * is checked, and the move's event is appended to the job's history in the same transaction. Callers that hold
 * a claim run inside a fenced transaction (the version guard); callers that do not (retry, delete) bump the
 * version first. A move the table forbids, or one whose job changed underneath, is a {@link ConflictException}
 * and writes nothing.
 *
 * <p>A job's steps are stored on its row (see {@link StoredSteps}) and written only under its fence, which
 * serialises them; a step's changed status is made here too, so that one file holds every status change.
 */
public final class StatusTransitions {

  /** When the job is due to run again after the move. */
  public enum Due {
    /** {@code next_run_at} unchanged. */
    KEEP,
    /** Due now: a worker picks it up. */
    NOW,
    /** Not due: finished, or waiting for a person with no deadline. */
    NEVER
  }

  /**
   * One job status change and everything that changes with it.
   *
   * @param failure the failure to record, or null to clear it
   * @param finished whether {@code finished_at} is set (true) or cleared (false)
   * @param due when the job runs next; with {@code dueInMillis} set, that many milliseconds from now
   * @param releaseLease whether the lease ends with the move
   * @param phase the job's new phase, or null to keep it
   * @param event the history entry the move appends; its status is the new one
   */
  public record Move(JobStatus from, JobStatus to, Failure failure, boolean finished, Due due, Long dueInMillis,
      boolean releaseLease, JobPhase phase, JobEventType event, String stepName, String message) {
    public Move {
      Objects.requireNonNull(from, "from");
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(due, "due");
      Objects.requireNonNull(event, "event");
    }

    /** {@code from → running} (or {@code deleting}): a worker starts or resumes the job. */
    public static Move start(JobStatus from, JobStatus to, String message) {
      return new Move(from, to, null, false, Due.KEEP, null, false, null, JobEventType.STATUS, null, message);
    }

    /** To a status where no work is scheduled: succeeded, failed, cancelled, deleted. */
    public static Move finish(JobStatus from, JobStatus to, Failure failure, String message) {
      return new Move(from, to, failure, true, Due.NEVER, null, true, null, JobEventType.STATUS, null, message);
    }

    /** Parks a job for a person's decision, due again at its deadline (or never, until a command nudges it). */
    public static Move awaitUser(JobStatus from, Long dueInMillis, String stepName, String message) {
      return new Move(from, JobStatus.AWAITING_USER, null, false, dueInMillis == null ? Due.NEVER : Due.NOW,
          dueInMillis, true, null, JobEventType.STEP_WAITING, stepName, message);
    }

    /**
     * Holds a change guardrails ask a person to approve: not due, {@code failure} (the job's, if it failed) kept so
     * that a rejection can put the job back as it was.
     */
    public static Move hold(JobStatus from, Failure failure, JobPhase phase, String message) {
      return new Move(from, JobStatus.AWAITING_APPROVAL, failure, false, Due.NEVER, null, true, phase,
          JobEventType.STATUS, null, message);
    }

    /** Puts a finished job back in the queue (retry, teardown): failure cleared, due now. */
    public static Move requeue(JobStatus from, JobStatus to, JobPhase phase, JobEventType event, String stepName,
        String message) {
      return new Move(from, to, null, false, Due.NOW, null, false, phase, event, stepName, message);
    }
  }

  private final JobRepository jobs;
  private final Dialect dialect;
  /** Each shape's SET clause once made (see {@link #moveSet(int)}); a race makes an equal one twice, no harm. */
  private final String[] moveSets = new String[32];

  public StatusTransitions(JobRepository jobs, Dialect dialect) {
    this.jobs = jobs;
    this.dialect = dialect;
  }

  /** Moves a job from one status to another, or refuses and writes nothing. */
  public void move(Connection c, JobId id, Move move) throws SQLException {
    RowWrite update = moveUpdate(id, move);
    if (Database.execute(c, update) != 1) {
      throw changedMeanwhile(c, id, move);
    }
    jobs.appendEvent(c, id, move.event(), move.stepName(), move.to(), move.message());
  }

  /**
   * Adds a move to a fenced write: it rides in the write's fence (one new version of the job's row), guarded by
   * the status it expects, and its history entry joins the write's events. A move the table forbids is refused
   * here, before anything is written; one whose job changed underneath fails the write with the same conflict as
   * {@link #move}.
   */
  public FencedWriter.Write move(FencedWriter.Write write, JobId id, Move move) {
    List<Object> args = new ArrayList<>();
    String set = moveSet(id, move, args);
    return write.move(new FencedWriter.JobMove(set, args, move.from(), moveUpdate(id, move),
            c -> changedMeanwhile(c, id, move)))
        .event(move.event(), move.stepName(), move.to(), move.message());
  }

  private RowWrite moveUpdate(JobId id, Move move) {
    List<Object> args = new ArrayList<>();
    String set = moveSet(id, move, args);
    args.add(id.value());
    args.add(move.from());
    return new RowWrite("UPDATE provisioning_jobs SET " + set + " WHERE id = ? AND status = ?", args.toArray());
  }

  /** The SET clauses of a move, their parameters added to {@code args}; refuses a move the table forbids. */
  private String moveSet(JobId id, Move move, List<Object> args) {
    if (!move.from().canTransitionTo(move.to())) {
      throw illegal(id, move.from(), move.to());
    }
    args.add(move.to());
    String failure = Json.failureJson(move.failure());
    args.add(failure == null ? Database.NULL_TEXT : failure);
    int due = switch (move.due()) {
      case NEVER -> 0;
      case NOW -> move.dueInMillis() == null ? 1 : 2;
      case KEEP -> 3;
    };
    if (due == 2) {
      args.add(move.dueInMillis());
    }
    if (move.phase() != null) {
      args.add(move.phase());
    }
    int shape = (move.finished() ? 1 : 0) | due << 1 | (move.releaseLease() ? 8 : 0) | (move.phase() != null ? 16 : 0);
    String set = moveSets[shape];
    if (set == null) {
      set = moveSet(shape);
      moveSets[shape] = set;
    }
    return set;
  }

  /**
   * The SET clause of a move of {@code shape} (bits: finished, due in two, releases the lease, sets the phase): one
   * text a shape, made once, so the fences that carry it are one text too and their statement's text is not
   * built and hashed again for every write.
   */
  private String moveSet(int shape) {
    StringBuilder sql = new StringBuilder("status = ?, failure = ?");
    sql.append((shape & 1) != 0 ? ", finished_at = CURRENT_TIMESTAMP" : ", finished_at = NULL");
    switch ((shape >> 1) & 3) {
      case 0 -> sql.append(", next_run_at = NULL");
      case 1 -> sql.append(", next_run_at = CURRENT_TIMESTAMP");
      case 2 -> sql.append(", next_run_at = ").append(dialect.nowPlusMillis());
      default -> { }
    }
    if ((shape & 8) != 0) {
      sql.append(", lease_owner = NULL, lease_until = NULL");
    }
    if ((shape & 16) != 0) {
      sql.append(", phase = ?");
    }
    return sql.toString();
  }

  private static ConflictException changedMeanwhile(Connection c, JobId id, Move move) throws SQLException {
    JobStatus now = currentStatus(c, id);
    return new ConflictException("concurrent_change", "job " + id + " is "
        + (now == null ? "gone" : now.wireName()) + ", not " + move.from().wireName() + "; it changed meanwhile,"
        + " try again");
  }

  /**
   * A step as an update leaves it, to go into its job's stored steps (see {@link StepBook}): its status, outputs and
   * failure, in attempt {@code attempt}, begun at {@code startedAt} (null: an attempt that never ran). The step's
   * first start is kept; it is finished now, by the engine's clock, when {@code finished}.
   */
  public StepRecord stepUpdated(StepRecord step, StepStatus status, Map<String, String> outputs, Failure failure,
      boolean finished, int attempt, Instant startedAt) {
    return new StepRecord(step.id(), step.jobId(), step.phase(), step.index(), step.name(), status, attempt,
        step.permissions(), java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(outputs)), failure,
        step.startedAt() != null ? step.startedAt() : startedAt, finished ? Timestamps.now() : null,
        step.templateStepId(), step.kind());
  }

  /** A retried step starts over: its attempts, failure and times are cleared, its outputs kept. */
  StepRecord reset(StepRecord step) {
    return new StepRecord(step.id(), step.jobId(), step.phase(), step.index(), step.name(), StepStatus.PENDING, 0,
        step.permissions(), step.outputs(), null, null, null, step.templateStepId(), step.kind());
  }

  static ConflictException illegal(JobId id, JobStatus from, JobStatus to) {
    return new ConflictException("illegal_transition", "job " + id + " cannot go from " + from.wireName() + " to "
        + to.wireName());
  }

  private static JobStatus currentStatus(Connection c, JobId id) throws SQLException {
    return Database.queryOne(c, "SELECT status FROM provisioning_jobs WHERE id = ?",
        rs -> JobStatus.fromWire(rs.getString(1)), id.value());
  }
}
