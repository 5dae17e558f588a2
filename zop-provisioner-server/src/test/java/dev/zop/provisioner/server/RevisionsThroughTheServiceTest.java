package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobRevision;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.RevisionChange;
import dev.zop.provisioner.RevisionPlan;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.spec.DatastoreSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provisioning document's datastore body, created and then revised over REST: its plan's diff and cost
 * delta, a refusal by field, the revision applied and its history; and the same through the typed client.
 */
class RevisionsThroughTheServiceTest {
  static final Duration WAIT = Duration.ofSeconds(60);
  static final String REVISED = """
      { "kind": "datastore", "config": { "engine": "postgres", "version": "16.3", "instanceClass": "db.m5.large",
        "allocatedStorageGB": 100, "multiAZ": true, "backupRetentionDays": 14 } }""";

  static ServerFixture fixture;
  static Provisioner client;
  static Space space;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "revisions"));
    space = client.spaces().create(SpaceRequest.of("sim", "revisions", account.id()).region("sim-east-1"));
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  private static RawHttp.Reply call(String method, String path, String body) {
    return RawHttp.json(fixture.baseUrl(), method, path, fixture.adminToken, body);
  }

  @Test
  void theDocumentsDatastoreIsRevisedToALargerClassMoreStorageAndLongerBackups() throws Exception {
    Job job = ProvisioningDocument.submit(fixture, client, space.id(), ProvisioningDocument.DATASTORE, WAIT);
    String jobPath = "/provisioning-jobs/" + job.id().value();

    RawHttp.Reply plan = call("POST", jobPath + "/revisions/plan", REVISED);
    assertThat(plan.status()).as(plan.body()).isEqualTo(200);
    JsonNode data = plan.json().get("data");
    List<String> changes = new ArrayList<>();
    data.get("changes").forEach(c -> changes.add(c.get("field").asText() + ":" + c.get("from").asText() + "->"
        + c.get("to").asText() + ":" + c.get("effect").asText()));
    assertThat(changes).containsExactlyInAnyOrder("instanceClass:db.t3.medium->db.m5.large:in_place",
        "allocatedStorageGB:50->100:in_place", "backupRetentionDays:7->14:in_place");
    assertThat(data.get("revision").asInt()).isEqualTo(2);
    assertThat(data.at("/steps/0/name").asText()).isEqualTo("update-db");
    assertThat(data.at("/after/monthlyTotal").decimalValue())
        .isGreaterThan(data.at("/before/monthlyTotal").decimalValue());

    // storage never shrinks: refused at plan time, the field named
    RawHttp.Reply shrink = call("POST", jobPath + "/revisions/plan", REVISED.replace("100", "20"));
    assertThat(shrink.status()).as(shrink.body()).isEqualTo(400);
    assertThat(shrink.json().at("/error/code").asText()).isEqualTo("validation_failed");
    assertThat(shrink.json().at("/error/fields/0/field").asText()).isEqualTo("config.allocatedStorageGB");
    assertThat(shrink.json().at("/error/fields/0/code").asText()).isEqualTo("storage_shrink");
    // the body names the job's kind, which says which spec config is: left out, or another, it is refused
    RawHttp.Reply kindless = call("POST", jobPath + "/revisions/plan", REVISED.replace("\"kind\": \"datastore\",", ""));
    assertThat(kindless.status()).as(kindless.body()).isEqualTo(400);
    assertThat(kindless.json().at("/error/fields/0/field").asText()).isEqualTo("kind");
    assertThat(kindless.json().at("/error/fields/0/code").asText()).isEqualTo("required");
    RawHttp.Reply otherKind = call("POST", jobPath + "/revisions",
        "{\"kind\":\"registry\",\"config\":{\"name\":\"r\"}}");
    assertThat(otherKind.status()).as(otherKind.body()).isEqualTo(400);
    assertThat(otherKind.json().at("/error/code").asText()).isEqualTo("kind_mismatch");
    assertThat(otherKind.json().at("/error/fields/0/field").asText()).isEqualTo("kind");
    // a wrong type is a typed error, not a stack trace
    RawHttp.Reply wrong = call("POST", jobPath + "/revisions", REVISED.replace("100", "\"lots\""));
    assertThat(wrong.status()).as(wrong.body()).isEqualTo(400);
    assertThat(wrong.json().at("/error/fields/0/code").asText()).isEqualTo("wrong_type");

    RawHttp.Reply applied = call("POST", jobPath + "/revisions", REVISED);
    assertThat(applied.status()).as(applied.body()).isEqualTo(200);
    assertThat(applied.json().at("/data/phase").asText()).isEqualTo("update");
    Job done = client.jobs().await(job.id(), WAIT);
    assertThat(done.status()).as(String.valueOf(done.lastFailure())).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.phase()).isEqualTo(JobPhase.UPDATE);

    RawHttp.Reply history = call("GET", jobPath + "/revisions", null);
    assertThat(history.status()).isEqualTo(200);
    assertThat(history.json().at("/data/1/config/allocatedStorageGB").asInt()).isEqualTo(100);
    assertThat(history.json().at("/data/0/status").asText()).isEqualTo("applied");
    assertThat(history.json().at("/data/1/status").asText()).isEqualTo("applied");
    assertThat(client.jobs().revisions(job.id())).extracting(JobRevision::number).containsExactly(1, 2);
  }

  @Test
  void theTypedClientPlansAndAppliesARevision() {
    Job job = client.jobs().await(client.jobs().submit(space.id(), DatastoreSpec.postgres().name("typed")
        .version("16.3").instanceClass("db.t3.medium").allocatedStorageGb(50).build()).id(), WAIT);
    DatastoreSpec larger = DatastoreSpec.postgres().name("typed").version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(80).build();
    RevisionPlan plan = client.jobs().planRevision(job.id(), larger);
    assertThat(plan.changes()).extracting(RevisionChange::field, RevisionChange::effect)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("allocatedStorageGB", RevisionChange.Effect.IN_PLACE));
    assertThat(plan.monthlyDelta().signum()).isPositive();
    JobId id = client.jobs().revise(job.id(), larger).id();
    Job done = client.jobs().await(id, WAIT);
    assertThat(done.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(done.spec()).isEqualTo(larger);
  }

  @Test
  void aFailedRevisionStandsBesideTheConfigLastAppliedNeverInItsPlace() throws Exception {
    DatastoreSpec first = DatastoreSpec.postgres().name("kept").version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(50).build();
    Job job = client.jobs().await(client.jobs().submit(space.id(), first).id(), WAIT);
    DatastoreSpec larger = DatastoreSpec.postgres().name("kept").version("16.3").instanceClass("db.t3.medium")
        .allocatedStorageGb(90).build();
    fixture.cloud.deny("database:ModifyDBInstance");
    try {
      Job failed = client.jobs().await(client.jobs().revise(job.id(), larger).id(), WAIT);
      assertThat(failed.status()).isEqualTo(JobStatus.FAILED);
      assertThat(failed.spec()).as("the typed client's job").isEqualTo(first);
      assertThat(failed.revision()).extracting(JobRevision::number, JobRevision::status, JobRevision::spec)
          .containsExactly(2, JobRevision.Status.FAILED, larger);
    } finally {
      fixture.cloud.allow("database:ModifyDBInstance");
    }

    RawHttp.Reply reply = call("GET", "/provisioning-jobs/" + job.id().value(), null);
    assertThat(reply.status()).as(reply.body()).isEqualTo(200);
    assertThat(reply.json().at("/data/config/allocatedStorageGB").asInt()).isEqualTo(50);
    assertThat(reply.json().at("/data/revision/status").asText()).isEqualTo("failed");
    assertThat(reply.json().at("/data/revision/config/allocatedStorageGB").asInt()).isEqualTo(90);
    JsonNode document = RawHttp.json(fixture.baseUrl(), "GET", "/openapi.json", null, null).json();
    com.fasterxml.jackson.databind.node.ObjectNode schema = (com.fasterxml.jackson.databind.node.ObjectNode) document
        .at("/paths/~1provisioning-jobs~1{id}/get/responses/200/content/application~1json/schema").deepCopy();
    schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
    schema.set("components", document.get("components"));
    assertThat(com.networknt.schema.JsonSchemaFactory.getInstance(com.networknt.schema.SpecVersion.VersionFlag.V202012)
        .getSchema(schema).validate(reply.json())).as("the answer as the document says it").isEmpty();

    Job retried = client.jobs().await(client.jobs().retry(job.id()).id(), WAIT);
    assertThat(retried.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(retried.spec()).isEqualTo(larger);
    assertThat(retried.revision()).isNull();
  }
}
