package dev.zop.provisioner.azure;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The ARM fake driven by code we did not write: Microsoft's own Node.js clients (the Azure SDK for JavaScript,
 * pinned by {@code vendor-clients/package-lock.json}, installed by {@code scripts/test.sh}) over HTTPS, trusting
 * the fake's certificate. {@code vendor-clients/azure.mjs} takes each resource kind the Azure provider makes, and
 * the resource group, through create, the client's own poller, get in its final state, list, delete, the poller
 * again and a 404.
 */
class AzureNodeClientsTest {
  static final Path CLIENTS = Path.of("../vendor-clients").toAbsolutePath().normalize();
  static ArmFake fake;

  @BeforeAll
  static void start() {
    assertThat(CLIENTS.resolve("node_modules/@azure/arm-resources")).as("the Azure SDK for JavaScript is"
        + " installed: scripts/test.sh runs npm ci in vendor-clients (or run it yourself: npm ci --prefix"
        + " vendor-clients)").exists();
    // operations stay in progress for two reads, so every poller polls
    fake = ArmFakeMain.start(2);
  }

  @AfterAll
  static void stop() {
    if (fake != null) {
      fake.close();
    }
  }

  @Test
  void microsoftsNodeClientsMakeReadListAndDeleteEveryKindTheProviderMakes() throws Exception {
    Path dir = Files.createTempDirectory("arm-node");
    String described = ArmFakeMain.describe(fake, dir);
    dev.zop.provisioner.testkit.fakes.NodeScript run = dev.zop.provisioner.testkit.fakes.NodeScript.run(CLIENTS,
        "azure.mjs", java.util.Map.of("ARM_FAKE", described, "NODE_EXTRA_CA_CERTS", dir.resolve("ca.pem").toString()),
        java.time.Duration.ofSeconds(240));
    String printed = run.output();
    assertThat(run.ended()).as("azure.mjs ended within 240 s:\n" + printed).isTrue();
    assertThat(run.exit()).as(printed).isZero();
    assertThat(printed).contains("virtualNetwork:", "subnet:", "virtualNetworkPeering:", "networkSecurityGroup:",
        "publicIPAddress:", "loadBalancer:", "virtualMachineScaleSet:", "managedCluster:", "registry:",
        "agentPool:", "flexibleServer database:", "vault:", "key vault secret:", "redis:", "mysql flexibleServer:",
        "autoscaleSetting:", "privateDnsZone:", "virtualNetworkLink:", "flexibleServer:",
        "resource group: delete, wait, gone with what it held", "checked 20 kinds");
    // the group's delete took everything with it
    assertThat(fake.resources()).isEmpty();
  }
}
