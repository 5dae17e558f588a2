package dev.zop.provisioner.core.internal.lifecycle;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;

/**
 * A feature that acts when a provisioning job ends (spaces registers a cluster that came up as a space). The job
 * engine calls every listener inside the transaction that records the end, so what they write commits with it or
 * not at all; the engine knows the listeners only through this interface.
 */
@FunctionalInterface
public interface JobCompletionListener {
  /** Returns outputs to add to the job's (empty for none). */
  Map<String, String> completed(Connection c, CompletedJob job) throws SQLException;
}
