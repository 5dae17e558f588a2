package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.core.internal.store.Dialect;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A claim on PostgreSQL reads the due index in order and stops once it has its jobs, even when the table's
 * statistics predate a burst of submits (the case in which the planner would rather read and sort the whole
 * backlog).
 */
class PostgresClaimTest {
  private static final int QUEUED = 3_000;

  @Test
  void claimReadsTheEarliestDueJobsNotTheWholeBacklog() throws Exception {
    try (PostgresTestDatabase pg = PostgresTestDatabase.create()) {
      PGSimpleDataSource source = new PGSimpleDataSource();
      source.setURL(pg.url());
      source.setUser(pg.user());
      source.setPassword(pg.password());
      Database db = Database.open(source);
      db.tx(c -> {
        List<Database.RowWrite> rows = new ArrayList<>();
        for (int i = 0; i < QUEUED; i++) {
          // job-00000 has been due longest
          rows.add(new Database.RowWrite("INSERT INTO provisioning_jobs (id, org_id, space_id, job_type, kind,"
              + " name, tags, provider, cloud_account_id, spec, status, phase, outputs, created_by, created_at,"
              + " updated_at, next_run_at, version) VALUES (?, 'acme', 'sp_1', 'provisioning', 'registry', 'r',"
              + " '{}', 'sim', 'ca_1', '{}', 'pending', 'create', '{}', 'alice', CURRENT_TIMESTAMP,"
              + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP - CAST(? AS BIGINT) * INTERVAL '1 millisecond', 0)",
              String.format("job-%05d", i), (long) (QUEUED - i)));
        }
        Database.executeBatched(c, rows);
        return null;
      });

      record Outcome(List<Dialect.Claimed> claimed, long fetched, long scanned) {}
      Outcome outcome = db.tx(c -> {
        List<Dialect.Claimed> claimed = db.dialect().claim(c, "engine-a", 60_000, 8);
        // this transaction's own reads of the table: rows fetched through indexes, rows read by sequential scans
        return Database.queryOne(c, "SELECT idx_tup_fetch, seq_tup_read FROM pg_stat_xact_user_tables"
                + " WHERE relname = 'provisioning_jobs' AND schemaname = current_schema()",
            rs -> new Outcome(claimed, rs.getLong(1), rs.getLong(2)));
      });

      assertThat(outcome.claimed()).extracting(Dialect.Claimed::jobId)
          .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 8).mapToObj(i -> String.format("job-%05d", i))
              .toList());
      assertThat(outcome.scanned()).as("rows read by sequential scans").isZero();
      assertThat(outcome.fetched()).as("rows fetched to claim 8 of %d queued jobs", QUEUED).isLessThan(100);
    }
  }
}
