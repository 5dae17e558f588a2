package dev.zop.provisioner.gcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The fake driven by code we did not write: Google's own Node.js clients ({@code vendor-clients/package-lock.json}
 * pins them; {@code scripts/test.sh} installs them), over their REST transport and HTTPS, trusting the fake's
 * certificate, with a service-account key the fake trusts. {@code vendor-clients/gcp.mjs} takes every resource
 * kind the GCP provider creates through create, the client's own wait, get in its final state, list, delete, the
 * wait, and a 404; nothing in it knows it talks to a fake.
 */
class GcpNodeClientsTest {
  static final Path CLIENTS = Path.of("../vendor-clients").toAbsolutePath().normalize();
  static GcpFake fake;

  @BeforeAll
  static void start() {
    assertThat(CLIENTS.resolve("node_modules/@google-cloud/compute")).as("Google's Node.js clients are installed:"
        + " scripts/test.sh runs npm ci in vendor-clients (or run it yourself: npm ci --prefix vendor-clients)")
        .exists();
    // operations stay running for two reads, so every client's own wait loop runs
    fake = GcpFakeMain.start(2);
  }

  @AfterAll
  static void stop() {
    if (fake != null) {
      fake.close();
    }
  }

  @Test
  void googlesNodeClientsMakeReadListAndDeleteEveryKindTheProviderMakes() throws Exception {
    Path dir = Files.createTempDirectory("gcp-node");
    String described = GcpFakeMain.describe(fake, "node-project", dir);
    dev.zop.provisioner.testkit.fakes.NodeScript run = dev.zop.provisioner.testkit.fakes.NodeScript.run(CLIENTS,
        "gcp.mjs", java.util.Map.of("GCP_FAKE", described, "NODE_EXTRA_CA_CERTS", dir.resolve("ca.pem").toString()),
        java.time.Duration.ofSeconds(240));
    String printed = run.output();
    assertThat(run.ended()).as("gcp.mjs ended within 240 s:\n" + printed).isTrue();
    assertThat(run.exit()).as(printed).isZero();
    assertThat(printed).contains(
        "compute subnetwork:", "compute firewall:", "compute healthCheck:", "compute instanceTemplate:",
        "compute instanceGroupManager:", "compute autoscaler:", "compute backendService:", "compute urlMap:",
        "compute targetHttpProxy:", "compute targetHttpsProxy:", "compute forwardingRule:", "compute network:",
        "container cluster: create, wait, get RUNNING", "redis instance: create, wait, get READY",
        "artifactregistry repository:", "secretmanager secret:", "sqladmin database:", "sqladmin user:",
        "sqladmin instance: insert, wait, get RUNNABLE, list, delete, PENDING_DELETE", "dns managedZone:",
        "checked 23 kinds");
    // and what they made is gone, as their 404s said
    for (String api : new String[] {"compute", "container", "redis", "artifactregistry", "secretmanager"}) {
      assertThat(fake.resources(api)).as(api).isEmpty();
    }
    assertThat(fake.cloudSql().instances()).isEmpty();
    assertThat(fake.cloudDns().zones()).isEmpty();
  }
}
