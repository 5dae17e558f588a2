package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.internal.store.CommitLanes;
import dev.zop.provisioner.core.internal.store.CommitTurn;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The only way a worker writes to a claimed job: a transaction that first proves, by the fencing version, that
 * the job is still its own, then bumps the version. A lost lease, or a halted engine, writes nothing.
 *
 * <p>Writes of different jobs that arrive while commits are under way share the next transaction (group commit,
 * {@link CommitLanes}): no caller learns its write is done before it is durable. Each lane is a transaction on a
 * connection of its own, so with two lanes one transaction's statements run while the other waits for its commit; a
 * job has at most one write under way, so two lanes never write the same job. In a shared transaction the fences go
 * first, as one batch, and a job whose fence fails has nothing of its write run; then the row writes of all the
 * writes as one JDBC batch per distinct statement; then, for each write, the move of its job's held history entries
 * into {@code job_events} when it is time, and its {@link Write#after} work. When anything in a shared transaction
 * fails (a {@linkplain Write#checkedRow checked row write} that touched no row among it), it is rolled back and each
 * write runs again alone, so every caller gets the outcome its write would have had by itself.
 *
 * <p>A caller that has nothing to do until its write is durable waits ({@link #write}); one that can hand the
 * rest of its work to whatever settles the write queues it ({@link #writeThen}) and is free at once (unless it
 * finds no commit under way and so commits it itself), so a thread need not sit out a commit. Either way nothing
 * that depends on a write runs before it is durable.
 */
public final class FencedWriter {
  private static final Logger LOG = LoggerFactory.getLogger(FencedWriter.class);

  /** Statements of one fenced transaction. */
  @FunctionalInterface
  public interface Writes {
    void run(Connection c) throws SQLException;
  }

  private static final Writes NOTHING = c -> { };

  /** What a checked row write that did not touch exactly one row fails with. */
  @FunctionalInterface
  public interface Mismatch {
    RuntimeException failure(Connection c) throws SQLException;
  }

  /**
   * A status move carried by the job's fence: the SET clauses and their parameters, the status the job's row must
   * still have, the same move as an update of its own (for a write with several), and what the write fails with
   * when the status is not the one expected.
   */
  public record JobMove(String set, List<Object> args, JobStatus from, RowWrite alone, Mismatch mismatch) {}

  /**
   * What one fenced transaction writes to a job. Its row writes may run in any order relative to row writes with
   * a different statement text (they touch different rows, or are inserts whose order only matters among
   * themselves); writes with the same text keep their order.
   */
  public static final class Write {
    private String jobOutputs;
    private final List<RowWrite> rows = new ArrayList<>();
    /** Row writes that must touch exactly one row, and what the write fails with when one does not. */
    private final Map<RowWrite, Mismatch> checked = new IdentityHashMap<>();
    /** Status moves, in order: one rides in the fence; more each write the row again (see {@link #fenced}). */
    private final List<JobMove> moves = new ArrayList<>(1);
    /** The job's history entries, in order, appended to those its row holds by the fence. */
    private final List<NewEvent> events = new ArrayList<>(2);
    /** {@link #events} as the lines the fence appends, once {@link #prepared}. */
    private String eventLines;
    /** The job's steps as the write leaves them, written by the fence; or null when it changes none. */
    private List<StepRecord> steps;
    /** {@link #steps} as JSON, once {@link #prepared}. */
    private String stepsJson;
    /** Milliseconds from now (by the database's clock) when the write leaves the job due again, unleased; or null. */
    private Long dueInMillis;
    private Writes after = NOTHING;

    public static Write rows(RowWrite... writes) {
      Write write = new Write();
      write.rows.addAll(List.of(writes));
      return write;
    }

    public static Write of(Writes work) {
      return new Write().after(work);
    }

    /** Sets the job's outputs (as JSON) with the fence itself. */
    public Write jobOutputs(String json) {
      this.jobOutputs = json;
      return this;
    }

    public Write row(RowWrite write) {
      rows.add(write);
      return this;
    }

    /**
     * A row write that must touch exactly one row (a status update guarded by the status it expects); when it
     * touches none, the write fails with what {@code mismatch} makes, and nothing of it is kept.
     */
    public Write checkedRow(RowWrite write, Mismatch mismatch) {
      rows.add(write);
      checked.put(write, mismatch);
      return this;
    }

    /** A status move of the job, to ride in the fence (see {@link StatusTransitions#move}). */
    Write move(JobMove move) {
      moves.add(move);
      checked.put(move.alone(), move.mismatch());
      return this;
    }

    /** Appends an entry to the job's history. */
    public Write event(JobEventType type, String stepName, JobStatus status, String message) {
      events.add(new NewEvent(type, stepName, status, message));
      return this;
    }

    /**
     * Sets the job's steps, all of them as the write leaves them (see {@link StepBook}): the fence writes them on
     * the job's row, so a step's change writes no row of its own. A later call, or a later write's, wins.
     */
    Write steps(List<StepRecord> all) {
      steps = all;
      return this;
    }

    /**
     * Puts the job back in the queue, due in {@code millis} by the database's clock and unleased (a wait, a retry's
     * backoff): in the fence's own update of the job's row when no status move rides there, else as a row write.
     */
    Write dueIn(long millis) {
      dueInMillis = millis;
      return this;
    }

    /** Whether the fence sets the job's due time, rather than a row write of its own. */
    private boolean dueInFence() {
      return dueInMillis != null && moves.isEmpty();
    }

    /**
     * Turns the write's steps into the JSON its fence writes: once, on the caller's thread, rather than by the
     * thread that commits a shared transaction (or once for each step the write changes).
     */
    private Write prepared() {
      if (steps != null && stepsJson == null) {
        stepsJson = StoredSteps.write(steps);
      }
      if (!events.isEmpty() && eventLines == null) {
        eventLines = HeldEvents.lines(events, java.time.Instant.now());
      }
      return this;
    }

    /** The move the fence carries: the only one, or null when there is none or several. */
    JobMove fenced() {
      return moves.size() == 1 ? moves.get(0) : null;
    }

    /** This write followed by everything of {@code next}: its rows after these, its work after this work. */
    public Write then(Write next) {
      rows.addAll(next.rows);
      checked.putAll(next.checked);
      moves.addAll(next.moves);
      events.addAll(next.events);
      if (next.steps != null) {
        steps = next.steps;
      }
      if (next.dueInMillis != null) {
        dueInMillis = next.dueInMillis;
      }
      after = then(after, next.after);
      if (next.jobOutputs != null) {
        jobOutputs = next.jobOutputs;
      }
      return this;
    }

    /** Work that runs after the row writes; its statements run as it issues them. */
    public Write after(Writes work) {
      after = then(after, work);
      return this;
    }

    private static Writes then(Writes first, Writes second) {
      return first == NOTHING ? second : c -> {
        first.run(c);
        second.run(c);
      };
    }
  }

  /** What is told, holding the lease's monitor, that a queued write is settled. */
  @FunctionalInterface
  public interface Settled {
    /** @param failure null once the write is durable, else why nothing of it was written */
    void settled(RuntimeException failure);
  }

  /** One caller's write, waiting for a transaction to carry it. */
  private static final class Pending extends CommitTurn {
    final Lease lease;
    final Write write;
    /** Null while the caller waits for the write itself. */
    final Settled then;
    /**
     * Whether the write also moves the entries its job's row holds into {@code job_events}: when, with its own,
     * the lease counts {@link JobRepository#HOLD} of them.
     */
    final boolean flushesEvents;
    RuntimeException failure;

    /** Made holding the lease's monitor, with no other write of it unsettled. */
    Pending(Lease lease, Write write, Settled then) {
      this.lease = lease;
      this.write = write;
      this.then = then;
      this.flushesEvents = lease.heldEvents() + write.events.size() >= JobRepository.HOLD;
    }

    /** Called holding the lease's monitor once the write is durable. */
    void written() {
      lease.heldEvents(flushesEvents ? 0 : lease.heldEvents() + write.events.size());
      lease.advanced();
    }

    @Override
    public boolean callerWaits() {
      return then == null;
    }
  }

  private final Database db;
  private final JobRepository jobs;
  private final JobSignals signals;
  private final BooleanSupplier halted;
  private final CommitLanes<Pending> lanes;

  /** @param lanes how many shared transactions may be under way at once */
  FencedWriter(Database db, JobRepository jobs, JobSignals signals, BooleanSupplier halted, int lanes) {
    this.db = db;
    this.jobs = jobs;
    this.signals = signals;
    this.halted = halted;
    this.lanes = new CommitLanes<>(lanes, this::run, this::settle);
  }

  public void write(Lease lease, Writes work) {
    write(lease, Write.of(work));
  }

  public void write(Lease lease, Write write) {
    synchronized (lease) {
      lease.awaitWrites();
      if (!lease.held() || halted.getAsBoolean()) {
        throw new LeaseLostException(lease.jobId);
      }
      Pending mine = new Pending(lease, write.prepared(), null);
      lanes.commit(mine);
      if (mine.failure != null) {
        throw mine.failure;
      }
      mine.written();
    }
    signals.changed(lease.jobId);
  }

  /**
   * Queues the write and returns, usually before it is written; {@code then} is told its outcome once it is
   * settled, on whichever thread commits it, holding the lease's monitor, so it must only hand work on. Until
   * then the lease's version stays as the write's fence expects: heartbeats and other writes of the job wait.
   * When this thread finds no commit under way it commits the write itself before returning.
   *
   * @throws LeaseLostException at once, and {@code then} is never told, when the lease is no longer held
   */
  public void writeThen(Lease lease, Write write, Settled then) {
    Pending pending;
    synchronized (lease) {
      lease.awaitWrites();
      if (!lease.held() || halted.getAsBoolean()) {
        throw new LeaseLostException(lease.jobId);
      }
      lease.startWrite();
      pending = new Pending(lease, write.prepared(), then);
    }
    lanes.commit(pending);
  }

  public boolean halted() {
    return halted.getAsBoolean();
  }

  /**
   * Writes waiting for a lane while every lane is busy, or -1 when a lane is free (for tests that line writes up
   * behind commits).
   */
  int queued() {
    return lanes.queued();
  }

  private void run(List<Pending> batch) {
    if (halted.getAsBoolean()) {
      // as a crashed process: nothing queued is written
      for (Pending p : batch) {
        settle(p, new LeaseLostException(p.lease.jobId));
      }
      return;
    }
    if (batch.size() > 1 && runTogether(batch)) {
      return;
    }
    for (Pending p : batch) {
      try {
        db.tx(c -> {
          if (Database.execute(c, fence(p)) != 1) {
            throw fenceFailed(c, p);
          }
          for (RowWrite row : rows(p)) {
            int count = Database.execute(c, row);
            Mismatch mismatch = p.write.checked.get(row);
            if (mismatch != null && count != 1) {
              throw mismatch.failure(c);
            }
          }
          moveHeldEvents(c, p);
          p.write.after.run(c);
          return null;
        });
        settle(p, null);
      } catch (RuntimeException e) {
        settle(p, e);
      }
    }
  }

  /** The writes in one transaction; false (and nothing written) when any part of it failed. */
  private boolean runTogether(List<Pending> batch) {
    List<Pending> fenced = new ArrayList<>();
    try {
      db.tx(c -> {
        int[] fences = Database.executeBatched(c, batch.stream().map(this::fence).toList());
        for (int i = 0; i < batch.size(); i++) {
          if (fences[i] == 1) {
            fenced.add(batch.get(i));
          } else if (batch.get(i).write.fenced() != null) {
            // a lost lease or a status changed underneath: only a write of its own can tell which
            throw new SQLException("a fence carrying a status move did not touch its job's row");
          }
        }
        List<List<RowWrite>> writes = fenced.stream().map(this::rows).toList();
        int[] counts = Database.executeBatched(c, writes.stream().flatMap(List::stream).toList());
        int at = 0;
        for (int w = 0; w < fenced.size(); w++) {
          Pending p = fenced.get(w);
          for (RowWrite row : writes.get(w)) {
            // a batch may also report a count as unknown: then each write runs alone, where counts are exact
            if (counts[at++] != 1 && p.write.checked.containsKey(row)) {
              throw new SQLException("a checked row write of a shared transaction did not touch one row");
            }
          }
        }
        for (Pending p : fenced) {
          moveHeldEvents(c, p);
          p.write.after.run(c);
        }
        return null;
      });
    } catch (RuntimeException e) {
      return false;
    }
    for (Pending p : batch) {
      settle(p, fenced.contains(p) ? null : new LeaseLostException(p.lease.jobId));
    }
    return true;
  }

  private RowWrite fence(Pending p) {
    JobMove move = p.write.fenced();
    Long dueIn = p.write.dueInFence() ? p.write.dueInMillis : null;
    Write w = p.write;
    return move == null
        ? jobs.fence(p.lease, w.jobOutputs, null, List.of(), null, w.stepsJson, w.eventLines, w.events.size(), dueIn,
            db.dialect())
        : jobs.fence(p.lease, w.jobOutputs, move.set(), move.args(), move.from(), w.stepsJson, w.eventLines,
            w.events.size(), dueIn, db.dialect());
  }

  /**
   * What a write's fence that touched no row means: the job's status was not the one its move expected (the
   * version is still the lease's), or the lease is lost.
   */
  private RuntimeException fenceFailed(Connection c, Pending p) throws SQLException {
    JobMove move = p.write.fenced();
    if (move != null && jobs.version(c, p.lease.jobId) == p.lease.version()) {
      return move.mismatch().failure(c);
    }
    return new LeaseLostException(p.lease.jobId);
  }

  /**
   * A write's row writes after its fence: the moves that did not ride in the fence (each checked, in order), its
   * rows, then its due time when the fence could not carry it.
   */
  private List<RowWrite> rows(Pending p) {
    Write write = p.write;
    boolean dueAlone = write.dueInMillis != null && !write.dueInFence();
    if (write.moves.size() <= 1 && !dueAlone) {
      return write.rows;
    }
    List<RowWrite> rows = new ArrayList<>(write.rows.size() + write.moves.size() + 1);
    if (write.moves.size() > 1) {
      write.moves.forEach(move -> rows.add(move.alone()));
    }
    rows.addAll(write.rows);
    if (dueAlone) {
      rows.add(jobs.scheduled(p.lease.jobId, write.dueInMillis, db.dialect()));
    }
    return rows;
  }

  /**
   * When it is time, moves the history entries the write's job holds (its own among them: the fence appended them)
   * into {@code job_events}: after the write's row writes, which a shared transaction runs in batches by statement
   * rather than in each write's order, so that every entry they appended is among those moved.
   */
  private void moveHeldEvents(Connection c, Pending p) throws SQLException {
    if (p.flushesEvents) {
      for (RowWrite write : jobs.flushed(p.lease.jobId, 1)) {
        Database.execute(c, write);
      }
    }
  }

  private void settle(Pending p, RuntimeException failure) {
    p.failure = failure;
    p.settle();
    if (p.then == null) {
      return; // its caller advances the lease and signals
    }
    synchronized (p.lease) {
      if (failure == null) {
        p.written();
      }
      p.lease.endWrite();
      try {
        p.then.settled(failure);
      } catch (RuntimeException e) {
        LOG.error("handing on after a write of {} failed", p.lease.jobId, e);
      }
    }
    if (failure == null) {
      signals.changed(p.lease.jobId);
    }
  }
}
