package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.Provisioner;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Closing the server lets a request in flight finish, then refuses new connections. */
class GracefulShutdownTest {
  @Test
  void aRequestInFlightFinishesAndNewOnesAreRefused() throws Exception {
    ServerFixture fixture = new ServerFixture();
    try {
      Provisioner client = fixture.client(fixture.adminToken);
      Job job = fixture.stuckClusterJob(client, "shutdown");

      String base = fixture.baseUrl();
      long started = System.nanoTime();
      CompletableFuture<RawHttp.Reply> inFlight = CompletableFuture.supplyAsync(() -> RawHttp.json(base, "GET",
          "/provisioning-jobs/" + job.id() + "/await?timeoutMs=1500", fixture.adminToken, null));
      await().atMost(Duration.ofSeconds(10)).until(() -> fixture.server.requestsInFlight() == 1);
      fixture.server.close();

      RawHttp.Reply reply = inFlight.get(10, TimeUnit.SECONDS);
      assertThat(reply.status()).isEqualTo(200);
      assertThat(reply.json().at("/data/id").asText()).isEqualTo(job.id().value());
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isGreaterThanOrEqualTo(1500);
      assertThatThrownBy(() -> RawHttp.json(base, "GET", "/healthz", null, null)).isInstanceOf(AssertionError.class);
      client.close();
    } finally {
      fixture.cloud.unstick("kubernetes-cluster");
      fixture.engine.close();
    }
  }
}
