package dev.zop.provisioner.server;

import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.testkit.contract.ProvisionerContract;
import dev.zop.provisioner.sim.SimCloud;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
    opened.forEach(Provisioner::close);
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

  /** A token holding the system roles among {@code grants}, and a custom role granting the policies. */
  @Override
  protected Provisioner provisionerHolding(String... grants) {
    Set<String> roles = new LinkedHashSet<>();
    Set<String> policies = new LinkedHashSet<>();
    for (String grant : grants) {
      (Policies.isSystemRole(grant) ? roles : policies).add(grant);
    }
    if (!policies.isEmpty() || roles.isEmpty()) {
      String custom = "contract-" + Integer.toHexString(policies.hashCode());
      fixture.access.defineRole("acme", custom, policies);
      roles.add(custom);
    }
    Provisioner held = fixture.client(fixture.token("acme", "rbac@acme.com", roles.toArray(String[]::new)));
    opened.add(held);
    return held;
  }

  private static final List<Provisioner> opened = new ArrayList<>();
}
