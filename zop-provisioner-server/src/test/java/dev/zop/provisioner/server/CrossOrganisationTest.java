package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.spec.KubernetesSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An admin of another organisation aims every endpoint at acme's real ids: every read and write is refused as if
 * the object did not exist, no list shows acme's rows, and acme's objects are unchanged afterwards.
 */
class CrossOrganisationTest {
  static ServerFixture fixture;
  static Provisioner acme;
  static CloudAccount account;
  static Space space;
  static Job job;
  static RemediationJob remediation;
  static String acmeToken;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    acme = fixture.client(fixture.adminToken);
    account = acme.accounts().create(CloudAccountRequest.of("sim", "acme-prod"));
    space = acme.spaces().create(SpaceRequest.of("sim", "acme-space", account.id()).region("sim-east-1"));
    job = acme.jobs().await(acme.jobs().submit(space.id(),
        KubernetesSpec.named("acme-cluster").version("1.30").nodeGroup("default", "m5.large", 1, 2).build()).id(),
        Duration.ofSeconds(30));
    fixture.cloud.workload("i-acme", "running");
    acme.remediations().putRecommendation(
        new Recommendation("rec_acme", "sim", account.id(), "sim-east-1", "vm", "i-acme", "stop"));
    remediation = acme.remediations().start("rec_acme", SubjectType.RESOURCE, "i-acme");
    acmeToken = fixture.access.createToken("acme", "ann@acme.com", java.util.Set.of(Policies.VIEWER), null).id();
  }

  @AfterAll
  static void stop() {
    acme.close();
    fixture.close();
  }

  static String aimedAtAcme(ApiRoute endpoint) {
    String jobId = endpoint.path().startsWith("/remediation-jobs") ? remediation.id().value() : job.id().value();
    Map<String, String> values = new java.util.HashMap<>(Map.of("accountID", account.id().value(), "spaceID", space.id().value(),
        "id", jobId, "jobID", jobId, "dbID", "db_acme", "connID", "conn_acme",
        "stepID", remediation.steps().get(1).id().toString(), "stepName", "approval", "region", "sim-east-1",
        "clusterName", "acme-cluster"));
    values.put("tokenID", acmeToken);
    values.put("version", "1");
    String path = endpoint.path();
    for (Map.Entry<String, String> value : values.entrySet()) {
      path = path.replace("{" + value.getKey() + "}", value.getValue());
    }
    return path.endsWith("/await") ? path + "?timeoutMs=0" : path;
  }

  @Test
  void anotherOrganisationCanNeitherSeeNorTouchAcmesObjects() {
    String globex = fixture.token("globex", "mallory@globex.com", Policies.ADMIN);
    String acmeIds = String.join("|", account.id().value(), space.id().value(), job.id().value(),
        remediation.id().value(), acmeToken);
    List<String> leaks = new ArrayList<>();
    for (ApiRoute endpoint : fixture.server.routes()) {
      if (endpoint.isPublic()) {
        continue;
      }
      String path = aimedAtAcme(endpoint);
      String body = endpoint.method().equals("GET") || endpoint.method().equals("DELETE") ? null
          : endpoint.path().equals("/provisioning-jobs") || endpoint.path().equals("/provisioning-jobs/plan")
              ? "{\"spaceID\":\"" + space.id() + "\",\"kind\":\"registry\",\"config\":{\"name\":\"stolen\"}}"
              : endpoint.path().equals("/remediation-jobs")
                  ? "{\"recommendationID\":\"rec_acme\",\"subjectType\":\"resource\",\"subjectID\":\"i-acme\"}"
                  : "{\"name\":\"stolen\",\"reason\":\"mine\",\"status\":\"inactive\"}";
      RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), endpoint.method(), path, globex, body);
      boolean hasPathIds = endpoint.path().contains("{");
      if (hasPathIds && (reply.status() < 400 || reply.status() >= 500)) {
        leaks.add(endpoint.describe() + " -> " + reply.status() + " " + reply.body());
      }
      if (reply.body().matches("(?s).*(" + acmeIds + ").*") && reply.status() < 400) {
        leaks.add(endpoint.describe() + " showed acme's ids: " + reply.body());
      }
    }
    assertThat(leaks).isEmpty();

    assertThat(acme.spaces().get(space.id())).isEqualTo(space);
    Job after = acme.jobs().get(job.id());
    assertThat(after.status()).isEqualTo(JobStatus.SUCCEEDED);
    assertThat(after.name()).isEqualTo(job.name());
    assertThat(acme.accounts().list()).containsExactly(account);
    assertThat(acme.remediations().get(remediation.id()).status()).isNotEqualTo(JobStatus.CANCELLED);
    assertThat(acme.spaces().list()).extracting(Space::name).doesNotContain("stolen");
  }
}
