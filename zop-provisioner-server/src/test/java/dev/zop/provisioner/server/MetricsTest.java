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
import java.time.Duration;
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
          .containsPattern("zop_jobs\\{status=\"succeeded\"\\} 3")
          .contains("zop_claims_total", "hikaricp_connections")
          .containsPattern("http_server_requests_seconds_count\\{method=\"POST\",status=\"201\","
              + "uri=\"/provisioning-jobs\"\\} 3")
          // histograms aggregate across instances: buckets, not client-side quantiles
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
}
