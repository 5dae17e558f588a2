package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.JobId;

/**
 * A claim on one job. {@code version} is the fencing token: every write checks the row still has it and bumps
 * it, so a worker whose lease was taken over can no longer change the job. Writes synchronise on the lease.
 */
public final class Lease {
  final JobId jobId;
  final String owner;
  private long version;
  private boolean lost;
  private boolean released;
  /** A write queued without its caller waiting (the fenced writer's {@code writeThen}) is not yet settled. */
  private boolean writing;
  /**
   * How many history entries the job's row holds, as far as this lease knows: what its run read, and its writes'
   * since (see {@link JobRepository#HOLD}). Writes outside the lease may add some; never fewer.
   */
  private int heldEvents;
  /** The job and its steps as read in the claim's own transaction; taken once by the run. */
  private LoadedJob claimed;

  Lease(JobId jobId, String owner, long version) {
    this.jobId = jobId;
    this.owner = owner;
    this.version = version;
  }

  Lease withClaimed(LoadedJob loaded) {
    this.claimed = loaded;
    return this;
  }

  /** What the claim read, or null when it read nothing (then the run reads the job itself). */
  LoadedJob takeClaimed() {
    LoadedJob loaded = claimed;
    claimed = null;
    return loaded;
  }

  int heldEvents() {
    return heldEvents;
  }

  /** Called holding this lease's monitor, or before any write of it. */
  void heldEvents(int count) {
    heldEvents = count;
  }

  long version() {
    return version;
  }

  void advanced() {
    version++;
  }

  boolean lost() {
    return lost;
  }

  void markLost() {
    lost = true;
  }

  /** The job was finished, failed or parked by this worker: no more writes, and nothing to extend. */
  boolean released() {
    return released;
  }

  public void markReleased() {
    released = true;
  }

  /** Called holding this lease's monitor, as every change of its state is. */
  void startWrite() {
    writing = true;
  }

  /** Called holding this lease's monitor. */
  void endWrite() {
    writing = false;
    notifyAll();
  }

  /**
   * Waits, holding this lease's monitor, until no queued write of it is unsettled: the version a queued write's
   * fence will check must not move under it. False when interrupted.
   */
  boolean awaitWrites() {
    while (writing) {
      try {
        wait();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    return true;
  }

  /** Whether this worker may still write to the job. */
  boolean held() {
    return !lost && !released;
  }
}
