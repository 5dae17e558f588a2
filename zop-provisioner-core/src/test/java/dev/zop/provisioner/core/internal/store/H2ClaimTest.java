package dev.zop.provisioner.core.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

/** A claim on H2 reads the due jobs, not the finished ones, however many of those the store holds. */
class H2ClaimTest {
  private static final int FINISHED = 3_000;

  @Test
  void claimReadsOnlyDueRowsHoweverManyJobsFinished() throws Exception {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:claim-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    Database db = Database.open(h2);
    db.tx(c -> {
      List<Database.RowWrite> rows = new java.util.ArrayList<>();
      for (int i = 0; i < FINISHED + 3; i++) {
        boolean finished = i < FINISHED;
        rows.add(new Database.RowWrite("INSERT INTO provisioning_jobs (id, org_id, space_id, job_type, kind, name,"
            + " tags, provider, cloud_account_id, spec, status, phase, outputs, created_by, created_at, updated_at,"
            + " next_run_at, version) VALUES (?, 'acme', 'sp_1', 'provisioning', 'registry', 'r', '{}', 'sim',"
            + " 'ca_1', '{}', ?, 'create', '{}', 'alice', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, "
            + (finished ? "NULL" : "CURRENT_TIMESTAMP") + ", 0)",
            (finished ? "done-" : "due-") + i, finished ? "succeeded" : "pending"));
      }
      Database.executeBatched(c, rows);
      return null;
    });

    long scanned = db.read(c -> {
      try (Statement s = c.createStatement();
          ResultSet plan = s.executeQuery("EXPLAIN ANALYZE " + H2Dialect.CANDIDATES.replace("?", "8"))) {
        plan.next();
        Matcher count = Pattern.compile("scanCount: (\\d+)").matcher(plan.getString(1));
        assertThat(count.find()).as("H2 reports the rows it read: %s", plan.getString(1)).isTrue();
        return Long.parseLong(count.group(1));
      }
    });
    List<Dialect.Claimed> claimed = db.tx(c -> db.dialect().claim(c, "engine-a", 60_000, 8));

    assertThat(claimed).extracting(Dialect.Claimed::jobId)
        .containsExactlyInAnyOrder("due-" + FINISHED, "due-" + (FINISHED + 1), "due-" + (FINISHED + 2));
    assertThat(claimed).allMatch(claim -> claim.version() == 1);
    assertThat(scanned).as("index entries read for 3 due jobs beside %d finished ones", FINISHED).isLessThan(10);
  }
}
