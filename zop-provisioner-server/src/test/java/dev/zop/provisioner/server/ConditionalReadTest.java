package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobPatch;
import dev.zop.provisioner.JobQuery;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.spec.RegistrySpec;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A finished job, and a page of them, come with a validator: a GET that sends it back in {@code If-None-Match} is
 * answered {@code 304} with no body while nothing changed, and in full once the job has; the client uses this to
 * keep what it read.
 */
class ConditionalReadTest {
  static ServerFixture fixture;
  static Provisioner client;
  static Space space;
  static Job finished;

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    client = fixture.client(fixture.adminToken);
    CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "conditional"));
    space = client.spaces().create(SpaceRequest.of("sim", "conditional", account.id()).region("sim-east-1"));
    finished = client.jobs().await(client.jobs().submit(space.id(), RegistrySpec.named("kept")).id(),
        Duration.ofSeconds(60));
    assertThat(finished.status()).isEqualTo(JobStatus.SUCCEEDED);
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  private static RawHttp.Reply get(String path, String ifNoneMatch) {
    java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
        java.net.URI.create(fixture.baseUrl() + path)).header("Authorization", "Bearer " + fixture.adminToken);
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    try {
      java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient()
          .send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofString());
      return new RawHttp.Reply(response.statusCode(), response.body(), response.headers());
    } catch (Exception e) {
      throw new AssertionError("GET " + path, e);
    }
  }

  @Test
  void anUnchangedFinishedJobIsNotSentAgainAndAChangedOneIs() {
    String path = "/provisioning-jobs/" + finished.id().value();
    RawHttp.Reply first = get(path, null);
    assertThat(first.status()).isEqualTo(200);
    String etag = first.header("ETag");
    assertThat(etag).matches("W/\"[A-Za-z0-9_-]{22}\"");

    RawHttp.Reply again = get(path, etag);
    assertThat(again.status()).isEqualTo(304);
    assertThat(again.body()).isEmpty();
    assertThat(again.header("ETag")).isEqualTo(etag);
    // weak comparison, lists and the wildcard, as RFC 9110 has them for GET
    assertThat(get(path, "\"other\", " + etag.substring(2)).status()).isEqualTo(304);
    assertThat(get(path, "*").status()).isEqualTo(304);
    RawHttp.Reply other = get(path, "W/\"AAAAAAAAAAAAAAAAAAAAAA\"");
    assertThat(other.status()).isEqualTo(200);
    assertThat(other.json()).isEqualTo(first.json());
    assertThat(other.header("ETag")).isEqualTo(etag);

    Job renamed = client.jobs().update(finished.id(), JobPatch.name("kept-renamed"));
    RawHttp.Reply changed = get(path, etag);
    assertThat(changed.status()).isEqualTo(200);
    assertThat(changed.json().at("/data/name").asText()).isEqualTo("kept-renamed");
    assertThat(changed.header("ETag")).isNotEqualTo(etag);
    assertThat(client.jobs().get(finished.id())).isEqualTo(renamed);
    client.jobs().update(finished.id(), JobPatch.name("kept"));
  }

  @Test
  void aJobStillRunningHasNoValidator() {
    Job stuck = fixture.stuckClusterJob(client, "conditional-stuck");
    try {
      RawHttp.Reply reply = get("/provisioning-jobs/" + stuck.id().value(), "*");
      assertThat(reply.status()).isEqualTo(200);
      assertThat(reply.header("ETag")).isNull();
      assertThat(reply.json().at("/data/id").asText()).isEqualTo(stuck.id().value());
    } finally {
      fixture.cloud.unstick("kubernetes-cluster");
    }
  }

  @Test
  void theClientKeepsAnUnchangedPageAndReadsAChangedOneAfresh() {
    List<Integer> statuses = new CopyOnWriteArrayList<>();
    try (ProvisionerClient watched = ProvisionerClient.builder().baseUrl(fixture.baseUrl())
        .bearerToken(fixture.adminToken).customizeHttpClient(http -> http.addNetworkInterceptor(chain -> {
          okhttp3.Response response = chain.proceed(chain.request());
          if (chain.request().method().equals("GET")
              && chain.request().url().encodedPath().equals("/provisioning-jobs")) {
            statuses.add(response.code());
          }
          return response;
        })).build()) {
      JobQuery query = JobQuery.inSpace(space.id()).limit(50);
      Page<Job> first = watched.jobs().list(query);
      Page<Job> second = watched.jobs().list(query);
      assertThat(statuses).containsExactly(200, 304);
      assertThat(second).isSameAs(first);
      assertThat(first.items()).extracting(Job::id).contains(finished.id());

      Job added = watched.jobs().await(watched.jobs().submit(space.id(), RegistrySpec.named("added")).id(),
          Duration.ofSeconds(60));
      Page<Job> third = watched.jobs().list(query);
      assertThat(statuses).containsExactly(200, 304, 200);
      assertThat(third.items()).extracting(Job::id).contains(finished.id(), added.id());
      assertThat(third).isEqualTo(client.jobs().list(query));
    }
  }
}
