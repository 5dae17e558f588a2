package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.DriftReport;
import dev.zop.provisioner.ImportPlan;
import dev.zop.provisioner.ImportRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.spec.Subnet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Drift and import over REST and through the typed client, on the simulated cloud (a test double): the document's
 * kubernetes body changed by hand, checked, reconciled; a network made by hand imported.
 */
class DriftThroughTheServiceTest {
  static final Duration WAIT = Duration.ofSeconds(60);

  static ServerFixture fixture;
  static Provisioner client;
  static Space space;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "drift"));
    space = client.spaces().create(SpaceRequest.of("sim", "drift", account.id()).region("sim-east-1"));
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  private static RawHttp.Reply call(String method, String path, String body) {
    return RawHttp.json(fixture.baseUrl(), method, path, fixture.adminToken, body);
  }

  @Test
  void theDocumentsClusterChangedByHandIsReportedOverRestAndReconciled() throws Exception {
    fixture.cloud.existingNetwork("platform-net", "10.0.0.0/16",
        Map.of("platform-net-a", "10.0.1.0/24", "platform-net-b", "10.0.2.0/24"));
    Job job = ProvisioningDocument.submit(fixture, client, space.id(), ProvisioningDocument.KUBERNETES, WAIT);
    assertThat(job.status()).as(String.valueOf(job.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    String jobPath = "/provisioning-jobs/" + job.id().value();
    RawHttp.Reply never = call("GET", jobPath + "/drift", null);
    assertThat(never.status()).as(never.body()).isEqualTo(404);

    fixture.cloud.changeByHand("node-group", "platform-prod-default", Map.of("max", "12"));
    RawHttp.Reply check = call("POST", jobPath + "/drift-checks", null);
    assertThat(check.status()).as(check.body()).isEqualTo(200);
    JsonNode report = check.json().get("data");
    assertThat(report.get("status").asText()).isEqualTo("drifted");
    assertThat(report.at("/drifts/0/resource").asText()).isEqualTo("node-group platform-prod-default");
    assertThat(report.at("/drifts/0/field").asText()).isEqualTo("max");
    assertThat(report.at("/drifts/0/expected").asText()).isEqualTo("6");
    assertThat(report.at("/drifts/0/actual").asText()).isEqualTo("12");
    assertThat(report.get("cloudCalls").asInt()).isEqualTo(3);
    assertThat(client.jobs().drift(job.id()).drifts()).extracting(Drift::field, Drift::expected, Drift::actual)
        .containsExactly(tuple("max", "6", "12"));

    RevisionPlan plan = client.jobs().planReconcile(job.id());
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::from, RevisionChange::to)
        .containsExactly(tuple("max", "12", "6"));
    RawHttp.Reply reconcile = call("POST", jobPath + "/reconcile", null);
    assertThat(reconcile.status()).as(reconcile.body()).isEqualTo(200);
    assertThat(reconcile.json().at("/data/phase").asText()).isEqualTo("update");
    Job done = client.jobs().await(job.id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(fixture.cloud.find("node-group", "platform-prod-default").attributes()).containsEntry("max", "6");
    assertThat(client.jobs().checkDrift(job.id()).status()).isEqualTo(DriftReport.Status.IN_SYNC);

    // nothing to put back is a typed refusal
    RawHttp.Reply nothing = call("POST", jobPath + "/reconcile/plan", null);
    assertThat(nothing.status()).as(nothing.body()).isEqualTo(409);
    assertThat(nothing.json().at("/error/code").asText()).isEqualTo("in_sync");
  }

  @Test
  void aNetworkMadeByHandIsImportedOverRestAndThroughTheClient() throws Exception {
    fixture.cloud.existingNetwork("vpc-by-hand", "10.9.0.0/16", Map.of("vpc-by-hand-a", "10.9.1.0/24"));
    String body = """
        { "spaceID": "%s", "kind": "network", "externalID": "vpc-by-hand", "config": { "name": "vpc-by-hand",
          "cidr": "10.9.0.0/16", "subnets": [ { "name": "a", "cidr": "10.9.1.0/24" } ] } }"""
        .formatted(space.id().value());
    RawHttp.Reply plan = call("POST", "/provisioning-jobs/import/plan", body);
    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    assertThat(plan.json().at("/data/adopted/0").asText()).isEqualTo("vpc vpc-by-hand");
    assertThat(plan.json().at("/data/observedConfig/subnets/0/name").asText()).isEqualTo("a");
    assertThat(plan.json().at("/data/changes").size()).isZero();
    RawHttp.Reply missing = call("POST", "/provisioning-jobs/import/plan", body.replace("\"externalID\": \"vpc-by-hand\",", ""));
    assertThat(missing.status()).as(missing.body()).isEqualTo(400);
    assertThat(missing.json().at("/error/fields/0/field").asText()).isEqualTo("externalID");

    NetworkSpec grown = NetworkSpec.named("vpc-by-hand").cidr("10.9.0.0/16")
        .subnets(List.of(Subnet.of("a", "10.9.1.0/24"), Subnet.of("b", "10.9.2.0/24"))).build();
    ImportPlan typed = client.jobs().planImport(space.id(), ImportRequest.of(grown, "vpc-by-hand"));
    assertThat(typed.changes()).extracting(RevisionChange::field).contains("subnets[1].name");
    Job imported = client.jobs().await(client.jobs().importExisting(space.id(),
        ImportRequest.of(grown, "vpc-by-hand")).id(), WAIT);
    assertThat(imported.status()).as(String.valueOf(imported.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(fixture.cloud.find("vpc", "vpc-by-hand").tags()).containsEntry("zop:job", imported.id().value());

    RawHttp.Reply again = call("POST", "/provisioning-jobs/import", body);
    assertThat(again.status()).as(again.body()).isEqualTo(409);
    assertThat(again.json().at("/error/code").asText()).isEqualTo("owned_by_another_job");

    Job revised = client.jobs().await(client.jobs().revise(imported.id(), grown).id(), WAIT);
    assertThat(revised.status()).as(String.valueOf(revised.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(client.jobs().await(client.jobs().delete(imported.id()).id(), WAIT).status())
        .isEqualTo(JobStatus.DELETED);
    assertThat(fixture.cloud.find("vpc", "vpc-by-hand")).isNull();
    assertThat(fixture.cloud.find("subnet", "vpc-by-hand-a")).isNull();
    assertThat(fixture.cloud.find("subnet", "vpc-by-hand-b")).isNull();
  }
}
