package dev.zop.provisioner.server;

import static dev.zop.provisioner.server.BadInputTest.assertError;
import static dev.zop.provisioner.server.BadInputTest.fields;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Requests an attacker or a broken client sends: each answered with a 4xx naming the field, never a 5xx or an
 * internal class name, and none leaves a row behind.
 */
class HostileInputTest {
  static ServerFixture fixture;
  static Provisioner acme;
  static Space space;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    acme = fixture.client(fixture.adminToken);
    CloudAccount account = acme.accounts().create(CloudAccountRequest.of("sim", "hostile"));
    space = acme.spaces().create(SpaceRequest.of("sim", "hostile", account.id()).region("sim-east-1"));
  }

  @AfterAll
  static void stop() {
    acme.close();
    fixture.close();
  }

  static RawHttp.Reply send(String method, String path, String body) {
    return RawHttp.json(fixture.baseUrl(), method, path, fixture.adminToken, body);
  }

  @Test
  void planWithAnEmptyBodyNamesTheMissingFields() {
    String viewer = fixture.token("acme", "vic@acme.com", Policies.VIEWER);
    RawHttp.Reply reply = RawHttp.json(fixture.baseUrl(), "POST", "/provisioning-jobs/plan", viewer, "{}");
    assertError(reply, 400, "validation_failed");
    assertThat(fields(reply)).containsExactlyInAnyOrder("spaceID", "kind", "config");
  }

  @Test
  void aNulCharacterAnywhereIsRefusedNamingTheFieldAndNothingIsStored() {
    String registry = "\"kind\":\"registry\",\"config\":{\"name\":\"team/nul\"}";
    RawHttp.Reply name = send("POST", "/provisioning-jobs",
        "{\"spaceID\":\"" + space.id() + "\"," + registry + ",\"name\":\"bad\\u0000name\"}");
    assertError(name, 400, "validation_failed");
    assertThat(fields(name)).containsExactly("name");

    RawHttp.Reply tag = send("POST", "/provisioning-jobs",
        "{\"spaceID\":\"" + space.id() + "\"," + registry + ",\"tags\":{\"team\":\"a\\u0000b\"}}");
    assertError(tag, 400, "validation_failed");
    assertThat(fields(tag)).containsExactly("tags.team");

    RawHttp.Reply account = send("POST", "/cloud-accounts", "{\"provider\":\"sim\",\"name\":\"x\\u0000\"}");
    assertError(account, 400, "validation_failed");
    assertThat(fields(account)).containsExactly("name");

    RawHttp.Reply recommendation = send("PUT", "/recommendations/rec-nul", "{\"id\":\"rec-nul\",\"provider\":\"sim\","
        + "\"accountID\":\"" + acme.accounts().list().get(0).id() + "\",\"region\":\"sim-east-1\","
        + "\"resourceType\":\"vm\",\"resourceID\":\"i-\\u0000\",\"action\":\"stop\"}");
    assertError(recommendation, 400, "validation_failed");
    assertThat(fields(recommendation)).hasSize(1).allMatch(f -> f.startsWith("resourceI"));

    Job job = acme.jobs().await(acme.jobs().submit(space.id(), RegistrySpec.named("team/patched")).id(),
        Duration.ofSeconds(30));
    RawHttp.Reply patch = send("PATCH", "/provisioning-jobs/" + job.id(), "{\"name\":\"a\\u0000\"}");
    assertError(patch, 400, "validation_failed");
    assertThat(fields(patch)).containsExactly("name");

    assertThat(acme.jobs().list(JobQuery.inSpace(space.id())).items()).extracting(Job::name)
        .noneMatch(n -> n.indexOf('\0') >= 0);
    assertThat(acme.jobs().get(job.id()).name()).isEqualTo(job.name());
    assertThat(acme.accounts().list()).hasSize(1);
    assertThat(send("GET", "/provisioning-jobs?spaceID=spc%00x", null).status()).isEqualTo(400);
  }

  @Test
  void anUnknownEnumValueListsTheValidOnesInTheApisWords() {
    RawHttp.Reply reply = send("POST", "/provisioning-jobs", "{\"spaceID\":\"" + space.id() + "\",\"kind\":"
        + "\"datastore\",\"config\":{\"name\":\"orders\",\"engine\":\"oracle\",\"version\":\"16\","
        + "\"instanceClass\":\"db.t3.medium\",\"allocatedStorageGb\":20}}");
    assertError(reply, 400, "invalid_value");
    assertThat(fields(reply)).containsExactly("config.engine");
    assertThat(reply.json().at("/error/fields/0/message").asText() + reply.json().at("/error/message").asText())
        .contains("postgres", "mysql", "redis")
        .doesNotContain("dev.zop", "DatastoreEngine", "No enum constant");

    RawHttp.Reply status = send("PATCH", "/spaces/" + space.id() + "/status", "{\"status\":\"sideways\"}");
    assertThat(status.status()).isEqualTo(400);
    assertThat(status.body()).contains("active", "inactive").doesNotContain("dev.zop", "SpaceStatus");
  }

  @Test
  void routesWithoutABodyRefuseOneThatIsPresent() {
    fixture.cloud.backDatastores(DatastoreEngine.POSTGRES, TestDatabaseServers.postgres());
    Job datastore = acme.jobs().await(acme.jobs().submit(space.id(), DatastoreSpec.postgres().name("conn")
        .version("16.3").instanceClass("db.t3.medium").allocatedStorageGb(20).build()).id(), Duration.ofSeconds(30));
    assertThat(datastore.status()).isEqualTo(JobStatus.SUCCEEDED);
    String path = "/provisioning-jobs/" + datastore.id() + "/connections";
    for (String body : List.of("{not json", "{\"unexpected\":true}", "[]", "\"x\"", "[".repeat(100_000))) {
      RawHttp.Reply reply = send("POST", path, body);
      assertThat(reply.status()).as(body.length() > 40 ? body.substring(0, 40) : body).isEqualTo(400);
      assertThat(reply.json().at("/error/code").asText()).isIn("malformed_json", "unexpected_body");
    }
    byte[] invalidUtf8 = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
    assertError(RawHttp.send(fixture.baseUrl(), "POST", path, fixture.adminToken, "application/json", invalidUtf8),
        400, "malformed_json");
    assertThat(acme.jobs().connections(datastore.id()).list()).isEmpty();

    assertThat(send("POST", path, "{}").status()).isEqualTo(201);
    assertThat(send("POST", path, null).status()).isEqualTo(201);
    assertThat(acme.jobs().connections(datastore.id()).list()).hasSize(2);
    assertThat(acme.jobs().await(acme.jobs().delete(datastore.id()).id(), Duration.ofSeconds(30)).status())
        .isEqualTo(JobStatus.DELETED);
  }

  @Test
  void aPostWithNeitherContentLengthNorABodyIsABodylessPost() throws Exception {
    // no Content-Length, no Content-Type, no body: read as "{}" would be, so the route answers (here: no such job)
    String status = statusLine("POST /provisioning-jobs/job_none/retry HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + "Authorization: Bearer " + fixture.adminToken + "\r\nConnection: close\r\n\r\n");
    assertThat(status).startsWith("HTTP/1.1 404");
  }

  @Test
  void aProtocolVersionTheServiceDoesNotSpeakHasItsOwnCode() throws Exception {
    try (Socket socket = new Socket("127.0.0.1", fixture.server.port())) {
      socket.getOutputStream().write("GET /healthz HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n"
          .getBytes(StandardCharsets.US_ASCII));
      socket.setSoTimeout(10_000);
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 505").contains("\"code\":\"http_version_not_supported\"")
          .contains("\"category\":\"user_action\"");
    }
  }

  private String statusLine(String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", fixture.server.port())) {
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      socket.setSoTimeout(10_000);
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return answer.substring(0, answer.indexOf('\r'));
    }
  }

  @Test
  void aRefusedRequestWithAnOverlongIdIsStillAudited() {
    String id = "x".repeat(300);
    RawHttp.Reply reply = send("DELETE", "/provisioning-jobs/" + id, null);
    assertThat(reply.status()).isBetween(400, 499);
    String requestId = reply.header("X-Request-Id");
    assertThat(fixture.access.auditLog("acme", 50)).filteredOn(r -> r.requestId().equals(requestId))
        .singleElement().satisfies(r -> {
          assertThat(r.status()).isEqualTo(reply.status());
          assertThat(r.resourceId()).isEqualTo(id.substring(0, 200));
        });
  }

  @Test
  void aBodyCutShortIsAClientErrorLoggedWithoutATrace() throws Exception {
    PrintStream originalErr = System.err;
    ByteArrayOutputStream log = new ByteArrayOutputStream();
    System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    try (Socket socket = new Socket("127.0.0.1", fixture.server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(("POST /cloud-accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + fixture.adminToken
          + "\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"provider\":\"sim\",")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      socket.shutdownOutput(); // the client goes away with 180 bytes unsent
      await().atMost(Duration.ofSeconds(30)).until(() -> fixture.access.auditLog("acme", 50).stream()
          .anyMatch(r -> r.path().equals("/cloud-accounts") && r.status() == 400));
    } catch (ConditionTimeoutException e) {
      throw new AssertionError("no 400 audited; audit " + fixture.access.auditLog("acme", 50) + "; log:\n" + log, e);
    } finally {
      System.setErr(originalErr);
    }
    assertThat(fixture.access.auditLog("acme", 50)).noneMatch(r -> r.status() >= 500);
    String logged = log.toString(StandardCharsets.UTF_8);
    assertThat(logged).contains("WARN").contains("could not be read in full").doesNotContain("\tat ", "ERROR");
    assertThat(acme.accounts().list()).hasSize(1);
  }
}
