package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.SpaceId;
import java.time.Duration;

/** The provisioning document's three job bodies, verbatim but for the space id they invent ({@code spc_abc123}). */
final class ProvisioningDocument {
  static final String KUBERNETES = """
      { "spaceID": "spc_abc123", "kind": "kubernetes", "config": { "name": "platform-prod", "version": "1.30",
        "nodeGroups": [ { "name": "default", "instanceType": "m5.large", "min": 2, "max": 6 } ],
        "vpcID": "platform-net", "subnetIDs": ["platform-net-a", "platform-net-b"] } }""";
  static final String DATASTORE = """
      { "spaceID": "spc_abc123", "kind": "datastore", "config": { "engine": "postgres", "version": "16.3",
        "instanceClass": "db.t3.medium", "allocatedStorageGB": 50, "multiAZ": true, "backupRetentionDays": 7 } }""";
  static final String VM_POOL = """
      { "spaceID": "spc_abc123", "kind": "vm_pool", "config": { "name": "checkout-edge", "instanceType": "m5.large",
        "min": 2, "max": 6, "createLoadBalancer": true, "listenerPorts": [80, 443] } }""";

  private ProvisioningDocument() {}

  /** Posts a body as the document's curl example does, and waits for the job through the typed client. */
  static Job submit(ServerFixture fixture, Provisioner client, SpaceId space, String body, Duration wait)
      throws Exception {
    RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs", fixture.adminToken,
        body.replace("spc_abc123", space.value()));
    assertThat(reply.status()).as(reply.body()).isEqualTo(201);
    String id = RawHttp.JSON.readTree(reply.body()).at("/data/id").asText();
    return client.jobs().await(JobId.of(id), wait);
  }
}
