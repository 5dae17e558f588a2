package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.Job;
import dev.zop.provisioner.Provisioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Long polls and event streams are held open without taking one of the server's request slots. */
class AdmissionThroughTheServiceTest {
  @Test
  void requestsHeldOpenLeaveTheOnlySlotToOrdinaryRequests() throws Exception {
    // one slot, and a wait long enough that a request queued behind a held one would outlast the long polls
    ServerFixture fixture = new ServerFixture(b -> b.maxConcurrentRequests(1)
        .admissionWait(Duration.ofMinutes(10)));
    try (Provisioner client = fixture.client(fixture.adminToken)) {
      Job job = fixture.stuckClusterJob(client, "admission");

      String base = fixture.baseUrl();
      List<CompletableFuture<RawHttp.Reply>> held = new ArrayList<>();
      held.add(CompletableFuture.supplyAsync(() -> RawHttp.json(base, "GET",
          "/provisioning-jobs/" + job.id() + "/await?timeoutMs=25000", fixture.adminToken, null)));
      held.add(CompletableFuture.supplyAsync(() -> RawHttp.json(base, "GET",
          "/provisioning-jobs/" + job.id() + "/events/stream", fixture.adminToken, null)));
      await().atMost(Duration.ofSeconds(10)).until(() -> fixture.server.requestsInFlight() == 2);

      long started = System.nanoTime();
      RawHttp.Reply me = RawHttp.json(base, "GET", "/me", fixture.adminToken, null);
      RawHttp.Reply got = RawHttp.json(base, "GET", "/provisioning-jobs/" + job.id(), fixture.adminToken, null);
      long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      assertThat(me.status()).isEqualTo(200);
      assertThat(got.status()).isEqualTo(200);
      // queued behind a held request they would have waited for its 25 s
      assertThat(tookMillis).isLessThan(15_000);
      assertThat(fixture.server.requestsWaiting()).isZero();
      assertThat(fixture.server.requestsOverran()).isZero();
      assertThat(held).noneMatch(CompletableFuture::isDone);
      fixture.cloud.unstick("kubernetes-cluster"); // the job finishes, and with it the long poll
      assertThat(held.get(0).get(60, TimeUnit.SECONDS).json().at("/data/status").asText()).isEqualTo("succeeded");
      fixture.server.close(); // ends the stream
    } finally {
      fixture.cloud.unstick("kubernetes-cluster");
      fixture.engine.close();
    }
  }
}
