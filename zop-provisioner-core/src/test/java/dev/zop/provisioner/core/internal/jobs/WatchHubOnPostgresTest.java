package dev.zop.provisioner.core.internal.jobs;

import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;

/**
 * Every watch hub test on PostgreSQL, where a sequence number is given at insert and transactions commit in their
 * own order, in a schema of its own ({@link PostgresTestSchema}).
 */
class WatchHubOnPostgresTest extends WatchHubTest {
  private PostgresTestSchema schema;

  @Override
  DataSource store() {
    schema = new PostgresTestSchema("zop_watch_");
    return schema.dataSource();
  }

  @AfterEach
  void dropSchema() {
    schema.drop();
  }
}
