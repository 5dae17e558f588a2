package dev.zop.provisioner.server;

import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.testkit.contract.ProvisionerContract;
import dev.zop.provisioner.sim.SimCloud;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The contract against the engine called directly. */
class EmbeddedContractTest extends ProvisionerContract {
  static ServerFixture fixture;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Override
  protected Provisioner provisioner() {
    return fixture.engine.as(new Principal("acme", "alice@acme.com", java.util.Set.of(Principal.ADMIN)));
  }

  @Override
  protected Provisioner provisionerHolding(String... grants) {
    return fixture.engine.as(new Principal("acme", "rbac@acme.com", java.util.Set.of(grants)));
  }

  @Override
  protected SimCloud cloud() {
    return fixture.cloud;
  }
}
