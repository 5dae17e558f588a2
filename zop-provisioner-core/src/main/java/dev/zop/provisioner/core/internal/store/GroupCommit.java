package dev.zop.provisioner.core.internal.store;

import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import java.util.ArrayList;
import java.util.List;

/**
 * Row writes of concurrent callers committed in shared transactions (group commit), each caller returning only once
 * its rows are durable. A caller that finds a lane free leads: it takes everything queued, its own rows among it, and
 * writes it as one JDBC batch per distinct statement text and one commit; then it hands the lane, with everything
 * queued meanwhile, to the first caller still waiting. When a shared transaction fails (one caller's row breaks a
 * constraint, say) it is rolled back and each caller's rows run again in a transaction of their own, so every caller
 * gets exactly the outcome its rows would have had alone. A caller alone pays nothing for this: it finds a lane free
 * and commits at once.
 *
 * <p>A lane is handed on with its batch already taken from the queue, so a caller handed a lane always finds its
 * own rows in the batch it leads: no other leader can have taken them, and it returns only once they are settled.
 *
 * <p>Only for writes that need nothing read inside their transaction, and whose rows within one caller are ordered
 * as {@link Database#executeBatched} orders them (by the first appearance of each statement text).
 */
public final class GroupCommit {
  private static final class Pending extends CommitTurn {
    final List<RowWrite> rows;
    /** What this caller leads, set (holding the queue's monitor) before it is told to lead. */
    List<Pending> batch;
    RuntimeException failure;

    Pending(List<RowWrite> rows) {
      this.rows = rows;
    }
  }

  private final Database db;
  private final int lanes;
  private final Object queue = new Object();
  private List<Pending> waiting = new ArrayList<>();
  /** Lanes with a transaction under way, or handed to a caller about to start one. */
  private int busy;

  /** @param lanes how many shared transactions may be under way at once */
  public GroupCommit(Database db, int lanes) {
    if (lanes < 1) {
      throw new IllegalArgumentException("at least one lane");
    }
    this.db = db;
    this.lanes = lanes;
  }

  /**
   * Writes {@code rows} in one transaction, possibly shared with other callers' rows, and returns once they are
   * committed.
   *
   * @throws StoreException as {@link Database#tx} would for these rows alone; nothing of them is written then
   */
  public void write(List<RowWrite> rows) {
    Pending mine = new Pending(List.copyOf(rows));
    synchronized (queue) {
      waiting.add(mine);
      if (busy < lanes) {
        busy++;
        mine.batch = takeWaiting();
        mine.lead();
      }
    }
    if (mine.leads() || !mine.awaitSettledOrTurn()) {
      lead(mine.batch);
    }
    if (mine.failure != null) {
      throw mine.failure;
    }
  }

  /** Everything queued; the caller holds the queue's monitor. */
  private List<Pending> takeWaiting() {
    List<Pending> taken = waiting;
    waiting = new ArrayList<>();
    return taken;
  }

  private void lead(List<Pending> batch) {
    try {
      run(batch);
    } finally {
      for (Pending p : batch) {
        if (!p.settled()) {
          settle(p, new IllegalStateException("the write was not carried by a transaction"));
        }
      }
      Pending next = null;
      synchronized (queue) {
        if (waiting.isEmpty()) {
          busy--;
        } else {
          next = waiting.get(0);
          next.batch = takeWaiting();
        }
      }
      if (next != null) {
        next.lead();
      }
    }
  }

  /** Callers waiting for a lane while every lane is busy, or -1 when a lane is free (for tests). */
  int queued() {
    synchronized (queue) {
      return busy == lanes ? waiting.size() : -1;
    }
  }

  private void run(List<Pending> batch) {
    if (batch.size() > 1) {
      try {
        db.tx(c -> Database.executeBatched(c, batch.stream().flatMap(p -> p.rows.stream()).toList()));
        batch.forEach(p -> settle(p, null));
        return;
      } catch (RuntimeException e) {
        // whose rows failed is not known: each runs alone and learns its own outcome
      }
    }
    for (Pending p : batch) {
      try {
        db.tx(c -> Database.executeBatched(c, p.rows));
        settle(p, null);
      } catch (RuntimeException e) {
        settle(p, e);
      }
    }
  }

  private static void settle(Pending p, RuntimeException failure) {
    p.failure = failure;
    p.settle();
  }
}
