package dev.zop.provisioner.core.internal.store;

import dev.zop.provisioner.core.internal.store.Database.RowWrite;
import java.util.List;

/**
 * Row writes of concurrent callers committed in shared transactions ({@link CommitLanes}), each caller returning
 * only once its rows are durable: a batch is one JDBC batch per distinct statement text and one commit. When a
 * shared transaction fails (one caller's row breaks a constraint, say) it is rolled back and each caller's rows run
 * again in a transaction of their own, so every caller gets exactly the outcome its rows would have had alone.
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
  private final CommitLanes<Pending> lanes;

  /** @param lanes how many shared transactions may be under way at once */
  public GroupCommit(Database db, int lanes) {
    this.db = db;
    this.lanes = new CommitLanes<>(lanes, this::run, GroupCommit::settle);
  }

  /**
   * Writes {@code rows} in one transaction, possibly shared with other callers' rows, and returns once they are
   * committed.
   *
   * @throws StoreException as {@link Database#tx} would for these rows alone; nothing of them is written then
   */
  public void write(List<RowWrite> rows) {
    Pending mine = new Pending(List.copyOf(rows));
    lanes.commit(mine);
    if (mine.failure != null) {
      throw mine.failure;
    }
  }

  /** Callers waiting for a lane while every lane is busy, or -1 when a lane is free (for tests). */
  int queued() {
    return lanes.queued();
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
