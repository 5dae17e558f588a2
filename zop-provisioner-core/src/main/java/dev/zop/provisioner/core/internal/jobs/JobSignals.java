package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobId;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Wakes local waiters when this engine changes a job, so they need not poll fast: watchers wake on any change,
 * an {@code await} only on a change of its own job. Changes made by other engines are still seen by the
 * waiters' periodic reads.
 */
final class JobSignals {
  private final Object monitor = new Object();
  private long generation;
  private final Map<JobId, Set<JobWaiter>> waiters = new ConcurrentHashMap<>();
  /** Told of every job this engine changes, before the generation waiters wake; one at most (the watch hub). */
  private volatile java.util.function.Consumer<JobId> jobChanges = job -> { };

  void onJobChanged(java.util.function.Consumer<JobId> listener) {
    jobChanges = listener;
  }

  /** Something changed; wakes the generation waiters only. */
  void changed() {
    synchronized (monitor) {
      generation++;
      monitor.notifyAll();
    }
  }

  void changed(JobId job) {
    jobChanges.accept(job);
    changed();
    Set<JobWaiter> forJob = waiters.get(job);
    if (forJob != null) {
      forJob.forEach(JobWaiter::signal);
    }
  }

  /** Waits until any change after {@code seen} or until {@code millis} pass; returns the generation now. */
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

  /** Starts listening for changes of one job; close the waiter when done. */
  JobWaiter waiter(JobId job) {
    JobWaiter waiter = new JobWaiter(job);
    waiters.computeIfAbsent(job, k -> ConcurrentHashMap.newKeySet()).add(waiter);
    return waiter;
  }

  /** Counts the changes of one job since it was created, so none is missed between a read and a wait. */
  final class JobWaiter implements AutoCloseable {
    private final JobId job;
    private long signals;
    private long consumed;

    private JobWaiter(JobId job) {
      this.job = job;
    }

    private synchronized void signal() {
      signals++;
      notifyAll();
    }

    /** Returns at the next change not yet waited for, or after {@code millis}. */
    synchronized void await(long millis) throws InterruptedException {
      long deadline = System.nanoTime() + millis * 1_000_000;
      while (signals == consumed) {
        long left = (deadline - System.nanoTime()) / 1_000_000;
        if (left <= 0) {
          return;
        }
        wait(left);
      }
      consumed = signals;
    }

    @Override
    public void close() {
      waiters.computeIfPresent(job, (k, set) -> {
        set.remove(this);
        return set.isEmpty() ? null : set;
      });
    }
  }
}
