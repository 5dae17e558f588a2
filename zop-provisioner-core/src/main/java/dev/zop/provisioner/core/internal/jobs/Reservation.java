package dev.zop.provisioner.core.internal.jobs;

/**
 * A thread of this engine held for a job while it is submitted, so its row is written already leased here and the
 * job runs once that row is committed, with no claim between. What a submit sees of the worker: how the row is
 * leased, then either that it was committed or that it was not.
 */
interface Reservation {

  /** Where a submit asks for a reservation: this engine's worker. */
  @FunctionalInterface
  interface Source {
    /** A reservation for job {@code id}, or null when no thread is free now (the job then waits for a claim). */
    Reservation reserve(dev.zop.provisioner.JobId id);
  }

  /** How the job's row is leased as it is written. */
  JobRepository.LeaseAtSubmit leaseAtSubmit();

  /**
   * The row is committed: run the job from {@code loaded}, the job and its steps as a read of those rows gives
   * them. From here on its lease is heartbeated as a claimed one's.
   */
  void committed(LoadedJob loaded);

  /** The row was not written, or is not known to be: the thread is given back, and any lease runs out. */
  void abandoned();
}
