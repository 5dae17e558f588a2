package dev.zop.provisioner.testkit.guardrails;

import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import org.junit.jupiter.api.AfterEach;

/** Guardrails on a real PostgreSQL server, each test in a schema of its own. */
class PostgresGuardrailsTest extends GuardrailBehaviour {
  private PostgresTestDatabase database;

  @Override
  EmbeddedProvisionerBuilder engine(SimCloud simCloud) {
    if (database == null) {
      database = PostgresTestDatabase.create();
    }
    return TestEngines.jdbc(database.url(), database.user(), database.password(), simCloud);
  }

  @AfterEach
  void dropSchema() {
    zop.close();
    zop = null;
    database.close();
  }
}
