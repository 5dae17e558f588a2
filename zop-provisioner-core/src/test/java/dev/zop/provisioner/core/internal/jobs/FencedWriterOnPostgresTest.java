package dev.zop.provisioner.core.internal.jobs;

import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;

/**
 * Every fenced-writer test on PostgreSQL, the store a service runs on, whose driver reports a batch's row counts
 * and waits on a held row lock in its own way, in a schema of its own ({@link PostgresTestSchema}).
 */
class FencedWriterOnPostgresTest extends FencedWriterTest {
  private PostgresTestSchema schema;

  @Override
  DataSource store() {
    schema = new PostgresTestSchema("zop_fenced_");
    return schema.dataSource();
  }

  @Override
  String blockedSessions() {
    // the schema's sessions carry its name as their application name
    return "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = '" + schema.name + "'"
        + " AND cardinality(pg_blocking_pids(pid)) > 0";
  }

  @AfterEach
  void dropSchema() {
    schema.drop();
  }
}
