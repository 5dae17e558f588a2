package dev.zop.provisioner.server;

import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.testkit.contract.ProvisionerContract;
import dev.zop.provisioner.testkit.sim.SimCloud;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The same contract through the HTTP client, talking to a real server over loopback. */
class RemoteContractTest extends ProvisionerContract {
  static ServerFixture fixture;
  static Provisioner client;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    client = fixture.client(fixture.adminToken);
  }

  @AfterAll
  static void stop() {
    client.close();
    fixture.close();
  }

  @Override
  protected Provisioner provisioner() {
    return client;
  }

  @Override
  protected SimCloud cloud() {
    return fixture.cloud;
  }
}
