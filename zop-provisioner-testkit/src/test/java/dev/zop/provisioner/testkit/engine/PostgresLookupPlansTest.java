package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.JobId;
import dev.zop.provisioner.core.internal.jobs.JobRecord;
import dev.zop.provisioner.core.internal.jobs.JobRepository;
import dev.zop.provisioner.core.internal.jobs.StepRecord;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The service's reads of one job and of a page of jobs' steps go through their keys on PostgreSQL even when the
 * table has never been analysed (a new deployment, or a machine without autovacuum), where the planner would
 * otherwise walk the organisation's jobs for one of them, or read every job for a page.
 */
class PostgresLookupPlansTest {
  private static final int JOBS = 3_000;
  private static final int STEPS_PER_JOB = 3;

  static PostgresTestDatabase pg;
  static Database db;
  final JobRepository jobs = new JobRepository();

  @BeforeAll
  static void fill() {
    pg = PostgresTestDatabase.create();
    PGSimpleDataSource source = new PGSimpleDataSource();
    source.setURL(pg.url());
    source.setUser(pg.user());
    source.setPassword(pg.password());
    db = Database.open(source);
    db.tx(c -> {
      List<Database.RowWrite> rows = new ArrayList<>();
      for (int i = 0; i < JOBS; i++) {
        String id = jobId(i);
        rows.add(new Database.RowWrite("INSERT INTO provisioning_jobs (id, org_id, space_id, job_type, kind,"
            + " name, tags, provider, cloud_account_id, spec, status, phase, outputs, created_by, created_at,"
            + " updated_at, version, steps) VALUES (?, 'acme', 'sp_1', 'provisioning', 'registry', 'r', '{}',"
            + " 'sim', 'ca_1', '{\"name\":\"r\"}', 'succeeded', 'create', '{}', 'alice', CURRENT_TIMESTAMP,"
            + " CURRENT_TIMESTAMP, 3, ?)", id, steps()));
      }
      Database.executeBatched(c, rows);
      return null;
    });
  }

  @AfterAll
  static void drop() {
    pg.close();
  }

  private static String steps() {
    List<String> steps = new ArrayList<>();
    for (int s = 0; s < STEPS_PER_JOB; s++) {
      steps.add("{\"id\":\"" + UUID.randomUUID() + "\",\"phase\":\"create\",\"index\":" + s
          + ",\"name\":\"step-" + s + "\",\"status\":\"succeeded\",\"attempts\":1,\"permissions\":[],"
          + "\"outputs\":{}}");
    }
    return "[" + String.join(",", steps) + "]";
  }

  private static String jobId(int i) {
    return String.format("job-%05d", i);
  }

  /** Rows this transaction fetched from {@code table} through indexes, and read by sequential scans. */
  private record Reads<T>(T result, long fetched, long scanned) {}

  private <T> Reads<T> reading(String table, Database.Work<T> work) {
    return db.tx(c -> {
      T result = work.run(c);
      return Database.queryOne(c, "SELECT idx_tup_fetch, seq_tup_read FROM pg_stat_xact_user_tables"
              + " WHERE relname = ? AND schemaname = current_schema()",
          rs -> new Reads<>(result, rs.getLong(1), rs.getLong(2)), table);
    });
  }

  @Test
  void oneJobIsReadByItsKey() {
    Reads<JobRecord> found = reading("provisioning_jobs", c -> jobs.find(c, "acme", JobId.of(jobId(JOBS - 1))));
    assertThat(found.result().id().value()).isEqualTo(jobId(JOBS - 1));
    assertThat(found.scanned()).as("rows read by sequential scans").isZero();
    assertThat(found.fetched()).as("rows fetched to find one job of %d", JOBS).isEqualTo(1);

    assertThat(reading("provisioning_jobs", c -> jobs.find(c, "globex", JobId.of(jobId(1)))).result())
        .as("another organisation's job").isNull();
  }

  @Test
  void aPagesStepsAreReadByTheirJobs() {
    List<String> page = IntStream.range(JOBS - 50, JOBS).mapToObj(PostgresLookupPlansTest::jobId).toList();
    Reads<Map<String, List<StepRecord>>> steps = reading("provisioning_jobs", c -> jobs.steps(c, page));
    assertThat(steps.result()).containsOnlyKeys(page);
    assertThat(steps.result().values()).allSatisfy(each -> assertThat(each).extracting(StepRecord::name)
        .containsExactly("step-0", "step-1", "step-2"));
    assertThat(steps.scanned()).as("rows read by sequential scans").isZero();
    assertThat(steps.fetched()).as("rows fetched for 50 jobs' steps, of %d jobs", JOBS).isEqualTo(50);

    assertThat(db.read(c -> jobs.steps(c, List.of(jobId(7), jobId(7)))).get(jobId(7)))
        .as("a job named twice").hasSize(STEPS_PER_JOB);
  }
}
