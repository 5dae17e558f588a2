package dev.zop.provisioner.core.internal.jobs;

/**
 * Wakes local waiters (await, watch, the poller) when this engine changes a job, so they need not poll fast.
 * Changes made by other engines are still seen by their periodic reads.
 */
final class JobSignals {
  private final Object monitor = new Object();
  private long generation;

  void changed() {
    synchronized (monitor) {
      generation++;
      monitor.notifyAll();
    }
  }

  /** Waits until a change after {@code seen} or until {@code millis} pass; returns the generation now. */
  long awaitChange(long seen, long millis) throws InterruptedException {
    long deadline = System.nanoTime() + millis * 1_000_000;
    synchronized (monitor) {
      while (generation == seen) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          break;
        }
        monitor.wait(left);
      }
      return generation;
    }
  }

  long generation() {
    synchronized (monitor) {
      return generation;
    }
  }
}
