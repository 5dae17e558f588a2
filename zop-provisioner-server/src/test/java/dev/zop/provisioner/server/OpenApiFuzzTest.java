package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.spec.DatastoreEngine;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.testkit.TestDatabaseServers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Walks every route the service publishes in {@code /openapi.json} with generated bad input: wrong JSON types,
 * missing and unknown fields, NUL characters, invalid UTF-8, deep nesting, huge values, hostile path and query
 * values. Every answer must be a 4xx (or the route's success where the input is merely odd), never a 5xx; no body
 * may name an internal class; and a refused request must not add a row anywhere but the audit log.
 */
class OpenApiFuzzTest {
  private static final Pattern PARAM = Pattern.compile("\\{([A-Za-z]+)}");
  private static final Pattern INTERNAL = Pattern.compile(
      "dev\\.zop|java\\.(lang|util|io|sql)|com\\.fasterxml|org\\.eclipse|io\\.javalin|org\\.h2|Exception\\b|\\tat ");

  static ServerFixture fixture;
  static Provisioner acme;
  static final Map<String, String> IDS = new LinkedHashMap<>();
  static Job datastore;
  static final List<String> findings = new ArrayList<>();
  static int requests;

  @BeforeAll
  static void start() throws Exception {
    fixture = new ServerFixture(b -> b.maxBodyBytes(256 * 1024).requestsPerSecond(100_000));
    fixture.cloud.backDatastores(DatastoreEngine.POSTGRES, TestDatabaseServers.postgres());
    acme = fixture.client(fixture.adminToken);
    CloudAccount account = acme.accounts().create(CloudAccountRequest.of("sim", "fuzz"));
    Space space = acme.spaces().create(SpaceRequest.of("sim", "fuzz", account.id()).region("sim-east-1"));
    datastore = acme.jobs().await(acme.jobs().submit(space.id(), DatastoreSpec.postgres().name("fuzzdb")
        .version("16.3").instanceClass("db.t3.medium").allocatedStorageGb(20).build()).id(), Duration.ofSeconds(60));
    assertThat(datastore.status()).isEqualTo(JobStatus.SUCCEEDED);
    // unique names: the PostgreSQL server outlives a run that died before cleaning up
    String unique = Long.toString(System.nanoTime(), 36);
    var database = acme.jobs().databases(datastore.id()).create("fuzz_" + unique, "fuzz_owner_" + unique);
    var connection = acme.jobs().connections(datastore.id()).create();
    acme.remediations().putRecommendation(new Recommendation("rec-fuzz", "sim", account.id(), "sim-east-1", "vm",
        "i-fuzz", "stop"));
    fixture.cloud.workload("i-fuzz", "running");
    RemediationJob remediation = acme.remediations().start("rec-fuzz", SubjectType.RESOURCE, "i-fuzz");
    RemediationJob parked = await().atMost(Duration.ofSeconds(30))
        .until(() -> acme.remediations().get(remediation.id()), j -> j.status() == JobStatus.AWAITING_USER);

    IDS.put("accountID", account.id().value());
    IDS.put("spaceID", space.id().value());
    IDS.put("provisioning-jobs:id", datastore.id().value());
    IDS.put("jobID", datastore.id().value());
    IDS.put("remediation-jobs:id", parked.id().value());
    IDS.put("remediation-jobs:jobID", parked.id().value());
    IDS.put("recommendations:id", "rec-fuzz");
    IDS.put("dbID", database.id().value());
    IDS.put("connID", connection.id().value());
    IDS.put("stepID", parked.pendingApproval().id().toString());
    IDS.put("stepName", parked.pendingApproval().name());
    IDS.put("region", "sim-east-1");
    IDS.put("clusterName", "fuzz-cluster");
  }

  @AfterAll
  static void stop() {
    if (datastore != null) { // the databases first: a datastore that has some is not torn down
      acme.jobs().databases(datastore.id()).list().forEach(d -> acme.jobs().databases(datastore.id()).delete(d.id()));
      acme.jobs().await(acme.jobs().delete(datastore.id()).id(), Duration.ofSeconds(60));
    }
    acme.close();
    fixture.close();
  }

  @Test
  void everyRouteAnswersBadInputWithAFourHundredAndWritesNothing() throws Exception {
    JsonNode paths = RawHttp.json(fixture.baseUrl(), "GET", "/openapi.json", null, null).json().get("paths");
    assertThat(paths.size()).isGreaterThan(40);
    int routes = 0;
    for (Iterator<Map.Entry<String, JsonNode>> it = paths.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> path = it.next();
      for (Iterator<String> methods = path.getValue().fieldNames(); methods.hasNext(); ) {
        String method = methods.next().toUpperCase(java.util.Locale.ROOT);
        routes++;
        fuzz(method, path.getKey());
      }
    }
    System.out.println("openapi fuzz: " + requests + " requests over " + routes + " routes");
    assertThat(findings).as("findings over " + requests + " requests").isEmpty();
    assertThat(requests).isGreaterThan(routes * 5);
  }

  private void fuzz(String method, String template) throws Exception {
    boolean stream = template.endsWith("/events/stream");
    // hostile values in each path parameter, the others real
    Matcher params = PARAM.matcher(template);
    while (params.find()) {
      for (String hostile : List.of("%00", "a%00b", "..%2F..%2Fetc", "x".repeat(300), "%C3%28", "'%20OR%201=1--")) {
        send(method, substitute(template, params.group(1), hostile), null, null);
      }
    }
    if (stream || method.equals("DELETE")) {
      // a real id keeps a stream open, and deletes what the other routes are fuzzed against; both are
      // covered by the hostile ids above
      return;
    }
    String real = substitute(template, null, null);
    // hostile query values; a read with them must still answer 2xx or 4xx
    if (method.equals("GET")) {
      for (String query : List.of("?limit=-1", "?limit=99999999999", "?cursor=%00", "?status=%00", "?after=x",
          "?timeoutMs=-5", "?spaceID=" + "s".repeat(500), "?status=exploded&limit=abc")) {
        // a long poll on a parked workflow would hold each request for the full wait
        send(method, real + query + (template.endsWith("/await") ? "&timeoutMs=1" : ""), null, null);
      }
      return;
    }
    List<byte[]> bodies = new ArrayList<>();
    for (String body : List.of("{}", "[]", "null", "\"text\"", "42", "true", "{\"zzUnknown\":1}",
        "{\"name\":\"a\\u0000b\",\"spaceID\":\"\\u0000\",\"tags\":{\"k\\u0000\":\"v\"}}",
        "{\"name\":1e999999,\"kind\":{},\"config\":[]}", "{\"name\":" + "9".repeat(5000) + "}",
        "{\"name\":\"" + "x".repeat(100_000) + "\"}", "{".repeat(1) + "\"a\":" + "[".repeat(5000),
        "[".repeat(2000) + "]".repeat(2000), "{\"reason\":\"" + "r".repeat(5000) + "\"}", "{\"status\":\"\\u0000\"}",
        "{\"a\":1,\"a\":2}", "{\"spaceID\":\"" + IDS.get("spaceID") + "\",\"kind\":\"datastore\",\"config\":"
            + "{\"name\":\"x\",\"engine\":\"oracle\"}}")) {
      bodies.add(body.getBytes(StandardCharsets.UTF_8));
    }
    bodies.add(new byte[] {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'});
    bodies.add(new byte[] {(byte) 0xFF, (byte) 0xFE, '{', '}'});
    for (byte[] body : bodies) {
      send(method, real, "application/json", body);
    }
    send(method, real, "text/plain", "{}".getBytes(StandardCharsets.UTF_8));
  }

  private static String substitute(String template, String hostileParam, String hostile) {
    String prefix = template.split("/")[1];
    Matcher m = PARAM.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String value = name.equals(hostileParam) ? hostile
          : IDS.getOrDefault(prefix + ":" + name, IDS.getOrDefault(name, "unknown"));
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  private void send(String method, String path, String contentType, byte[] body) throws Exception {
    Map<String, Long> before = rows();
    RawHttp.Reply reply = RawHttp.send(fixture.baseUrl(), method, path, fixture.adminToken, contentType, body);
    requests++;
    String what = method + " " + (path.length() > 80 ? path.substring(0, 80) + "…" : path) + " "
        + (body == null ? "" : new String(body, 0, Math.min(body.length, 60), StandardCharsets.UTF_8));
    if (reply.status() >= 500) {
      findings.add(reply.status() + " for " + what + ": " + reply.body());
    }
    if (INTERNAL.matcher(reply.body()).find()) {
      findings.add("internal name in the answer to " + what + ": " + reply.body());
    }
    if (reply.status() >= 400) {
      Map<String, Long> after = rows();
      if (!after.equals(before)) {
        findings.add("refused " + what + " (" + reply.status() + ") changed rows: " + before + " -> " + after);
      }
    } else if (reply.status() < 300 && !method.equals("GET")) {
      // an odd input that was accepted (a cancel, a connection): what it set going in the engine, a job or a
      // queued command, writes a moment later; the next request is judged only once the store is quiet
      awaitQuiet();
    }
  }

  /** Until the row counts stay the same over three looks 150 ms apart. */
  private static void awaitQuiet() {
    AtomicReference<Map<String, Long>> last = new AtomicReference<>(Map.of());
    AtomicInteger unchanged = new AtomicInteger();
    await().atMost(Duration.ofSeconds(30)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(150)).until(() -> {
      Map<String, Long> now = rows();
      if (now.equals(last.getAndSet(now))) {
        return unchanged.incrementAndGet() >= 3;
      }
      unchanged.set(0);
      return false;
    });
  }

  /** Rows per table but the audit log, which records refused mutating calls too. */
  private static Map<String, Long> rows() throws Exception {
    return StoreRows.count(fixture.engine.dataSource());
  }
}
