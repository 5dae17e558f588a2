package dev.zop.provisioner.core.internal.lifecycle;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.JobId;

/**
 * A feature that may hold up a job's teardown while something of its own still depends on the job (databases on
 * a datastore, jobs in the space a cluster became). Asked before the teardown starts; the job engine knows the
 * guards only through this interface.
 */
@FunctionalInterface
public interface TeardownGuard {
  /** Why {@code job} may not be torn down yet, as the conflict to answer with, or null when it may. */
  ConflictException check(JobId job);
}
