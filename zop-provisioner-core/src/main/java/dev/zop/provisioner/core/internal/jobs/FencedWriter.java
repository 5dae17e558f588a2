package dev.zop.provisioner.core.internal.jobs;

import dev.zop.provisioner.core.internal.store.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.BooleanSupplier;

/**
 * The only way a worker writes to a claimed job: a transaction that first proves, by the fencing version, that
 * the job is still its own, then bumps the version. A lost lease, or a halted engine, writes nothing.
 */
public final class FencedWriter {
  /** Statements of one fenced transaction. */
  @FunctionalInterface
  public interface Writes {
    void run(Connection c) throws SQLException;
  }

  private final Database db;
  private final JobRepository jobs;
  private final JobSignals signals;
  private final BooleanSupplier halted;

  FencedWriter(Database db, JobRepository jobs, JobSignals signals, BooleanSupplier halted) {
    this.db = db;
    this.jobs = jobs;
    this.signals = signals;
    this.halted = halted;
  }

  public void write(Lease lease, Writes work) {
    synchronized (lease) {
      if (!lease.held() || halted.getAsBoolean()) {
        throw new LeaseLostException(lease.jobId);
      }
      db.tx(c -> {
        jobs.fence(c, lease);
        work.run(c);
        return null;
      });
      lease.advanced();
    }
    signals.changed(lease.jobId);
  }

  public boolean halted() {
    return halted.getAsBoolean();
  }
}
