package dev.zop.provisioner.core.internal.store;

import java.util.List;

/**
 * A caller's place in a group commit: settled once a transaction carried its write (or failed it), or handed the
 * turn to lead the next transaction.
 */
public class CommitTurn {
  private boolean settled;
  private boolean leads;
  /** What this caller leads, set (holding the lanes' queue monitor) before it is told to lead. */
  List<? extends CommitTurn> batch;

  /** Whether the caller waits for this write; one that went on is told its outcome some other way. */
  public boolean callerWaits() {
    return true;
  }

  /** This caller leads the next transaction. */
  public final synchronized void lead() {
    leads = true;
    notifyAll();
  }

  public final synchronized boolean leads() {
    return leads;
  }

  /** The write is settled; what its outcome was the subclass holds, set before this call. */
  public final synchronized void settle() {
    settled = true;
    notifyAll();
  }

  public final synchronized boolean settled() {
    return settled;
  }

  /**
   * Sleeps until the write is settled (true) or it is this caller's turn to lead (false). An interrupt does not end
   * the wait: the write may be in a transaction under way, and its outcome must be known before returning; the
   * thread's interrupt status is restored after.
   */
  public final boolean awaitSettledOrTurn() {
    boolean interrupted = false;
    synchronized (this) {
      while (!settled && !leads) {
        try {
          wait();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return settled;
  }
}
