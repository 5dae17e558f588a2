package dev.zop.provisioner.core.internal.store;

import java.util.ArrayList;
import java.util.List;

/**
 * Group commit: writes of concurrent callers carried by shared transactions on a bounded number of lanes. A caller
 * that finds a lane free leads: it takes everything queued, its own write among it, and has the carrier commit it
 * as one transaction. Then it hands the lane, with everything queued meanwhile, to the first caller still waiting
 * for its write; while only writes whose callers went on are queued ({@link CommitTurn#callerWaits}), it carries
 * those itself, since nobody else would. A caller alone pays nothing: it finds a lane free and commits at once.
 *
 * <p>A lane is handed on with its batch already taken from the queue, so a caller handed a lane always finds its
 * own write in the batch it leads: no other leader can have taken it, and it returns only once it is settled.
 *
 * @param <P> a caller's write and its place in the queue
 */
public final class CommitLanes<P extends CommitTurn> {
  /** Commits a batch and settles each of its writes with its outcome. */
  @FunctionalInterface
  public interface Carrier<P> {
    void carry(List<P> batch);
  }

  /** Settles a write with a failure. */
  @FunctionalInterface
  public interface Settler<P> {
    void settle(P write, RuntimeException failure);
  }

  private final Carrier<P> carrier;
  private final Settler<P> settler;
  private final int lanes;
  private final Object queue = new Object();
  private List<P> waiting = new ArrayList<>();
  /** Lanes with a transaction under way, or handed to a caller about to start one. */
  private int busy;

  /**
   * @param lanes how many shared transactions may be under way at once
   * @param carrier what commits a batch
   * @param settler what settles a write the carrier left unsettled (it threw), so its caller is not left waiting
   */
  public CommitLanes(int lanes, Carrier<P> carrier, Settler<P> settler) {
    if (lanes < 1) {
      throw new IllegalArgumentException("at least one lane");
    }
    this.lanes = lanes;
    this.carrier = carrier;
    this.settler = settler;
  }

  /**
   * Queues {@code mine} and returns once a transaction carried it (or failed it); a write whose caller does not
   * wait returns at once when every lane is busy, and a lane under way carries it with its next batch.
   */
  public void commit(P mine) {
    synchronized (queue) {
      waiting.add(mine);
      if (busy < lanes) {
        busy++;
        mine.batch = takeWaiting();
        mine.lead();
      } else if (!mine.callerWaits()) {
        return;
      }
    }
    if (mine.leads() || !mine.awaitSettledOrTurn()) {
      lead(batchOf(mine));
    }
  }

  @SuppressWarnings("unchecked")
  private List<P> batchOf(P turn) {
    return (List<P>) turn.batch;
  }

  /** Everything queued; the caller holds the queue's monitor. */
  private List<P> takeWaiting() {
    List<P> taken = waiting;
    waiting = new ArrayList<>();
    return taken;
  }

  private void lead(List<P> batch) {
    while (true) {
      try {
        carrier.carry(batch);
      } finally {
        for (P p : batch) {
          if (!p.settled()) {
            settler.settle(p, new IllegalStateException("the write was not carried by a transaction"));
          }
        }
      }
      P next = null;
      synchronized (queue) {
        if (waiting.isEmpty()) {
          busy--;
          return;
        }
        batch = takeWaiting();
        for (P p : batch) {
          if (p.callerWaits()) {
            next = p;
            next.batch = batch;
            break;
          }
        }
      }
      if (next != null) {
        next.lead();
        return;
      }
    }
  }

  /** Writes waiting for a lane while every lane is busy, or -1 when a lane is free (for tests). */
  public int queued() {
    synchronized (queue) {
      return busy == lanes ? waiting.size() : -1;
    }
  }
}
