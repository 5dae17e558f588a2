package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.spec.RegistrySpec;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import dev.zop.provisioner.spec.KubernetesSpec;
import dev.zop.provisioner.spec.NetworkSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code /metrics} after a few jobs: the engine's step timers and job gauges, the pool's, the HTTP server's. */
class MetricsTest {
  @Test
  void aScrapeAfterAFewJobsShowsStepsJobsPoolAndRequests() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (ServerFixture fixture = ServerFixture.with(e -> e.meterRegistry(registry), s -> s.metrics(registry));
        Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "metrics"));
      Space space = client.spaces().create(SpaceRequest.of("sim", "metrics", account.id()).region("sim-east-1"));
      for (String name : new String[] {"team/a", "team/b", "team/c"}) {
        assertThat(client.jobs().await(client.jobs().submit(space.id(), RegistrySpec.named(name)).id(),
            Duration.ofSeconds(60)).status()).isEqualTo(JobStatus.SUCCEEDED);
      }

      RawHttp.Reply refused = RawHttp.json(fixture.baseUrl(), "GET", "/metrics", null, null);
      assertThat(refused.status()).isEqualTo(401);

      RawHttp.Reply scrape = RawHttp.json(fixture.baseUrl(), "GET", "/metrics", fixture.adminToken, null);
      assertThat(scrape.status()).isEqualTo(200);
      assertThat(scrape.body())
          .containsPattern("zop_steps_seconds_count\\{[^}]*kind=\"registry\"[^}]*outcome=\"succeeded\"[^}]*\\} [1-9]")
          .containsPattern("zop_jobs\\{kind=\"registry\",status=\"succeeded\"\\} 3")
          .contains("zop_claims_total", "hikaricp_connections")
          .containsPattern("http_server_requests_seconds_count\\{method=\"POST\",status=\"201\","
              + "uri=\"/provisioning-jobs\"\\} 3")
          // histograms aggregate across instances: buckets, not client-side quantiles, for HTTP as well
          .containsPattern("http_server_requests_seconds_bucket\\{method=\"POST\",status=\"201\","
              + "uri=\"/provisioning-jobs\",le=\"0\\.05\"\\} [0-9]")
          .containsPattern("zop_steps_seconds_bucket\\{[^}]*kind=\"registry\"[^}]*le=\"[0-9.]+\"")
          .containsPattern("zop_jobs_duration_seconds_bucket\\{[^}]*status=\"succeeded\"")
          .containsPattern("zop_jobs_duration_seconds_count\\{[^}]*kind=\"registry\"[^}]*\\} 3")
          // every counter there from the start, with its help: no retry or failure happened in this run
          .containsPattern("# HELP zop_step_failures_total \\S")
          .containsPattern("zop_step_failures_total\\{category=\"system\",provider=\"sim\"\\} 0")
          .containsPattern("# HELP zop_step_retries_total \\S")
          .containsPattern("zop_step_retries_total\\{kind=\"registry\",provider=\"sim\"\\} 0");
    }
  }

  @Test
  void seriesStayWithinABudgetHoweverTheSpecsAreNamed() throws Exception {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try (ServerFixture fixture = ServerFixture.with(e -> e.meterRegistry(registry), s -> s.metrics(registry));
        Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "series"));
      Space space = client.spaces().create(SpaceRequest.of("sim", "series", account.id()).region("sim-east-1"));
      java.util.Random random = new java.util.Random(73);
      List<String> names = new ArrayList<>();

      runJobs(client, space, 40, random, names);
      Series early = series(fixture, "prometheus");
      runJobs(client, space, 960, random, names);
      Series late = series(fixture, "prometheus");

      // every step label is a kind of step, never a name a spec chose
      assertThat(late.steps()).contains("create-nodegroup", "await-nodegroup", "create-subnet", "create-cluster")
          .allSatisfy(step -> assertThat(names).noneMatch(step::contains));
      // 960 more jobs, each naming its node groups and subnets afresh, add no series but those of an outcome or a
      // status first seen later (a fixed list each), and stay within a budget
      assertThat(late.shapes()).as("series after 40 jobs: %s, after 1,000: %s", early, late)
          .isEqualTo(early.shapes());
      assertThat(late.series()).isLessThan(1_500);
      // each histogram series has its fixed buckets (and +Inf), not a percentile histogram's dozens
      assertThat(late.maxBuckets()).isLessThanOrEqualTo(16);
      // the same scrape as OpenMetrics, to a scraper that asks for it, read by the strict OpenMetrics parser
      Series open = series(fixture, "openmetrics");
      assertThat(open.steps()).isEqualTo(late.steps());
    }
  }

  private static void runJobs(Provisioner client, Space space, int count, java.util.Random random,
      List<String> names) {
    List<dev.zop.provisioner.JobId> submitted = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String a = name(random, names);
      String b = name(random, names);
      submitted.add(client.jobs().submit(space.id(), i % 2 == 0
          ? KubernetesSpec.named("c-" + name(random, names)).version("1.30").nodeGroup(a, "m5.large", 1, 2)
              .nodeGroup(b, "m5.large", 1, 2).build()
          : NetworkSpec.named("n-" + name(random, names)).cidr("10.1.0.0/16").subnet(a, "10.1.0.0/20")
              .subnet(b, "10.1.16.0/20").build()).id());
    }
    for (dev.zop.provisioner.JobId id : submitted) {
      assertThat(client.jobs().await(id, Duration.ofMinutes(2)).status()).isEqualTo(JobStatus.SUCCEEDED);
    }
  }

  private static String name(java.util.Random random, List<String> names) {
    String name = "x" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36);
    names.add(name);
    return name;
  }

  record Series(int families, int series, int shapes, int maxBuckets, List<String> steps) {}

  /** A scrape in {@code format}, as the Prometheus project's own Python parser reads it. */
  private static Series series(ServerFixture fixture, String format) throws Exception {
    java.net.http.HttpResponse<String> scrape = java.net.http.HttpClient.newHttpClient().send(
        java.net.http.HttpRequest.newBuilder(java.net.URI.create(fixture.baseUrl() + "/metrics"))
            .header("Authorization", "Bearer " + fixture.adminToken)
            .header("Accept", format.equals("openmetrics")
                ? "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5" : "text/plain")
            .build(), java.net.http.HttpResponse.BodyHandlers.ofString());
    assertThat(scrape.statusCode()).isEqualTo(200);
    assertThat(scrape.headers().firstValue("Content-Type")).hasValueSatisfying(type -> assertThat(type)
        .startsWith(format.equals("openmetrics") ? "application/openmetrics-text" : "text/plain"));
    Process parser = new ProcessBuilder("python3", PARSER.toString(), format).redirectErrorStream(true).start();
    try (var in = parser.getOutputStream()) {
      in.write(scrape.body().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
    String out = new String(parser.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(parser.waitFor(1, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
    assertThat(parser.exitValue()).as(out).isZero();
    return new com.fasterxml.jackson.databind.ObjectMapper().readValue(out, Series.class);
  }

  private static final java.nio.file.Path PARSER = java.nio.file.Path.of("..", "contract-clients", "python",
      "prometheus_series.py").toAbsolutePath().normalize();
}
