package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Policies;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.client.ProvisionerClient;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.PostgresTestDatabase;
import dev.zop.provisioner.testkit.TestEngines;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The service on PostgreSQL through a proxy the test cuts: the database restarts, then stays away for a minute,
 * while 50 jobs run and 20 callers submit. While it is away every answer is a 503 with {@code Retry-After} (never
 * a 500) and {@code /readyz} says not ready; once it is back every job ends succeeded, each submit's idempotency key
 * names exactly one job (nothing half-written, nothing twice), and each job's resource exists exactly once in the
 * (simulated) cloud, so no step that had recorded its intent ran again.
 */
class DatabaseOutageTest {
  private static final int JOBS = 50;
  private static final int CALLERS = 20;
  private static final Duration STOPPED = Duration.ofSeconds(60);

  @Test
  void aRestartAndAMinuteAwayAreSurvived() throws Exception {
    try (PostgresTestDatabase db = PostgresTestDatabase.create()) {
      URI server = URI.create(db.url().substring("jdbc:".length()));
      try (TcpProxy proxy = new TcpProxy(server.getHost(), server.getPort())) {
        String url = db.url().replaceFirst("//[^/]+/", "//127.0.0.1:" + proxy.port() + "/");
        // each job's one resource takes a while to create, so jobs are parked and running when the store goes
        SimCloud cloud = SimCloud.create().creatingTime("registry", Duration.ofMillis(1500));
        EmbeddedProvisioner engine = TestEngines.jdbc(url, db.user(), db.password(), cloud)
            .connectionTimeout(Duration.ofSeconds(1)).build();
        AccessStore access = AccessStore.open(engine.dataSource());
        ProvisionerServer service = ProvisionerServer.builder(engine, access).host("127.0.0.1").port(0)
            .requestsPerSecond(100_000).start();
        String base = "http://127.0.0.1:" + service.port();
        String token = access.createToken("acme", "ops@acme.com", Set.of(Policies.ADMIN), null).token();
        ScheduledExecutorService callers = Executors.newScheduledThreadPool(CALLERS);
        try (Provisioner client = ProvisionerClient.builder().baseUrl(base).bearerToken(token).build()) {
          CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "outage"));
          Space space = client.spaces().create(SpaceRequest.of("sim", "outage", account.id()).region("sim-east-1"));
          Map<String, List<Integer>> answers = new ConcurrentHashMap<>();
          Map<String, String> jobOfKey = new ConcurrentHashMap<>();
          List<String> wrong = new CopyOnWriteArrayList<>();
          AtomicInteger submitted = new AtomicInteger();
          for (int i = 0; i < JOBS; i++) {
            submit(base, token, space.id().value(), "first-" + i, answers, jobOfKey, wrong);
          }
          // 20 callers, each submitting once a second with a key of its own, through the restart and the stop
          for (int c = 0; c < CALLERS; c++) {
            int caller = c;
            callers.scheduleWithFixedDelay(() -> submit(base, token, space.id().value(),
                "caller-" + caller + "-" + submitted.incrementAndGet(), answers, jobOfKey, wrong),
                0, 1, TimeUnit.SECONDS);
          }
          await().atMost(Duration.ofSeconds(30)).until(() -> answers.size() >= JOBS + CALLERS);

          // a restart: every connection dropped, back as soon as the service has noticed
          proxy.cut();
          await().atMost(Duration.ofSeconds(30)).until(() -> ready(base) == 503);
          proxy.restore();
          await().atMost(Duration.ofSeconds(30)).until(() -> ready(base) == 200);

          // a minute away: not ready all along, and every answer meanwhile a 503 with Retry-After
          proxy.cut();
          await().atMost(Duration.ofSeconds(30)).until(() -> ready(base) == 503);
          int before = answers.size();
          await().during(STOPPED).atMost(STOPPED.plusSeconds(30)).until(() -> ready(base) == 503);
          assertThat(answers.size()).as("callers kept calling while the store was away").isGreaterThan(before);
          proxy.restore();
          await().atMost(Duration.ofSeconds(60)).until(() -> ready(base) == 200);
          callers.shutdown();
          assertThat(callers.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
          assertThat(wrong).as("answers other than 201, or 503 with Retry-After").isEmpty();
          assertThat(answers.values().stream().flatMap(List::stream)).contains(503);
          long refused = answers.values().stream().flatMap(List::stream).filter(s -> s == 503).count();
          System.out.printf("outage: %d keys, %d answered 201 and %d answered 503 while the store was away%n",
              answers.size(), jobOfKey.size(), refused);

          // every key refused while the store was away, sent again: each names exactly one job
          for (Map.Entry<String, List<Integer>> key : answers.entrySet()) {
            if (!jobOfKey.containsKey(key.getKey())) {
              submit(base, token, space.id().value(), key.getKey(), answers, jobOfKey, wrong);
            }
          }
          assertThat(wrong).isEmpty();
          assertThat(jobOfKey).hasSameSizeAs(answers);
          assertThat(Set.copyOf(jobOfKey.values())).hasSize(jobOfKey.size());
          assertThat(client.jobs().list(dev.zop.provisioner.JobQuery.inSpace(space.id()).limit(500)).items().size()
              + pagesAfterTheFirst(client, space)).as("jobs in the store: one per key").isEqualTo(jobOfKey.size());

          // every job ends as it would have, and its resource exists once
          for (String job : jobOfKey.values()) {
            assertThat(client.jobs().await(dev.zop.provisioner.JobId.of(job), Duration.ofMinutes(3)).status())
                .as(job).isEqualTo(JobStatus.SUCCEEDED);
            assertThat(cloud.resourcesOf(job)).as("the resources of " + job).hasSize(1);
          }
        } finally {
          callers.shutdownNow();
          service.close();
          engine.close();
        }
      }
    }
  }

  /** POSTs a registry job under {@code key}; records the answer, and the job it names when it made one. */
  private static void submit(String base, String token, String space, String key, Map<String, List<Integer>> answers,
      Map<String, String> jobOfKey, List<String> wrong) {
    String body = "{\"spaceID\":\"" + space + "\",\"kind\":\"registry\",\"config\":{\"name\":\"outage/" + key
        + "\"}}";
    RawHttp.Reply reply;
    try {
      reply = RawHttp.send(base, "POST", "/provisioning-jobs", token, "application/json",
          body.getBytes(java.nio.charset.StandardCharsets.UTF_8), Map.of("Idempotency-Key", key));
    } catch (AssertionError | RuntimeException e) {
      wrong.add(key + ": no answer (" + e.getMessage() + ")");
      return;
    }
    answers.computeIfAbsent(key, k -> new CopyOnWriteArrayList<>()).add(reply.status());
    if (reply.status() == 201) {
      JsonNode job = reply.json().at("/data/id");
      String before = jobOfKey.putIfAbsent(key, job.asText());
      if (before != null && !before.equals(job.asText())) {
        wrong.add(key + ": a second job " + job.asText() + " beside " + before);
      }
    } else if (reply.status() != 503 || reply.header("Retry-After") == null) {
      wrong.add(key + ": " + reply.status() + " " + reply.body());
    }
  }

  private static int ready(String base) {
    try {
      return RawHttp.json(base, "GET", "/readyz", null, null).status();
    } catch (AssertionError | RuntimeException e) {
      return -1;
    }
  }

  private static int pagesAfterTheFirst(Provisioner client, Space space) {
    int count = 0;
    dev.zop.provisioner.JobQuery query = dev.zop.provisioner.JobQuery.inSpace(space.id()).limit(500);
    dev.zop.provisioner.Page<dev.zop.provisioner.Job> page = client.jobs().list(query);
    while (page.hasMore()) {
      page = client.jobs().list(query.after(page.nextCursor()));
      count += page.items().size();
    }
    return count;
  }
}
