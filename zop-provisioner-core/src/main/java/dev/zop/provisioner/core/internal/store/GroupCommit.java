package dev.zop.provisioner.core.internal.store;

import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import java.util.ArrayList;
import java.util.List;

/**
 * Row writes of concurrent callers committed in shared transactions (group commit), each caller returning only once
 * its rows are durable. The first caller that finds no commit under way leads: it takes everything queued, its own
 * rows among it, and writes it as one JDBC batch per distinct statement text and one commit; then it hands the next
 * turn to a caller still waiting. When a shared transaction fails (one caller's row breaks a constraint, say) it is
 * rolled back and each caller's rows run again in a transaction of their own, so every caller gets exactly the outcome
 * its rows would have had alone. A caller alone pays nothing for this: it finds no commit under way and commits at
 * once.
 *
 * <p>Only for writes that need nothing read inside their transaction, and whose rows within one caller are ordered
 * as {@link Database#executeBatched} orders them (by the first appearance of each statement text).
 */
public final class GroupCommit {
  private static final class Pending extends CommitTurn {
    final List<RowWrite> rows;
    RuntimeException failure;

    Pending(List<RowWrite> rows) {
      this.rows = rows;
    }
  }

  private final Database db;
  private final Object queue = new Object();
  private List<Pending> waiting = new ArrayList<>();
  private boolean committing;

  public GroupCommit(Database db) {
    this.db = db;
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
      if (!committing) {
        committing = true;
        mine.lead();
      }
    }
    if (mine.leads() || !mine.awaitSettledOrTurn()) {
      lead();
    }
    if (mine.failure != null) {
      throw mine.failure;
    }
  }

  private void lead() {
    List<Pending> batch;
    synchronized (queue) {
      batch = waiting;
      waiting = new ArrayList<>();
    }
    try {
      run(batch);
    } finally {
      for (Pending p : batch) {
        if (!p.settled()) {
          settle(p, new IllegalStateException("the write was not carried by a transaction"));
        }
      }
      Pending next;
      synchronized (queue) {
        next = waiting.isEmpty() ? null : waiting.get(0);
        committing = next != null;
      }
      if (next != null) {
        next.lead();
      }
    }
  }

  /** Callers waiting for the next transaction while one is under way, or -1 when none is (for tests). */
  int queued() {
    synchronized (queue) {
      return committing ? waiting.size() : -1;
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
