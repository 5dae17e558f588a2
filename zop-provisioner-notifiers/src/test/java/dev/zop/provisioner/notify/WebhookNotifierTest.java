package dev.zop.provisioner.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.spi.Notification;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The webhook against a real HTTP receiver on loopback that answers as it is told. */
class WebhookNotifierTest {
  private static final String SECRET = "a-shared-secret-of-some-length";
  private static final ObjectMapper JSON = new ObjectMapper();

  record Received(byte[] body, String signature, String delivery) {}

  HttpServer receiver;
  final List<Received> received = new CopyOnWriteArrayList<>();
  final List<Integer> answers = new CopyOnWriteArrayList<>();
  final AtomicInteger calls = new AtomicInteger();

  @BeforeEach
  void start() throws Exception {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/hook", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      received.add(new Received(body, exchange.getRequestHeaders().getFirst(WebhookNotifier.SIGNATURE),
          exchange.getRequestHeaders().getFirst(WebhookNotifier.DELIVERY)));
      int call = calls.getAndIncrement();
      int status = call < answers.size() ? answers.get(call) : 204;
      exchange.sendResponseHeaders(status, -1);
      exchange.close();
    });
    receiver.start();
  }

  @AfterEach
  void stop() {
    receiver.stop(0);
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook");
  }

  static Notification approvalRequired() {
    return new Notification("remediation.approval_required", "acme", "org-admins", JobId.of("job_webhook1"),
        Map.of("resourceId", "i-123", "action", "stop"));
  }

  @Test
  void aSignedDeliveryIsRetriedThroughServerErrorsAndRecorded() throws Exception {
    answers.addAll(List.of(503, 500));
    try (WebhookNotifier webhook = WebhookNotifier.to(url(), SECRET).firstBackoff(Duration.ofMillis(20)).build()) {
      webhook.send(approvalRequired());
      await().atMost(Duration.ofSeconds(30)).until(() -> !webhook.deliveries().isEmpty());
      Delivery delivery = webhook.deliveries().get(0);
      assertThat(delivery.delivered()).as(delivery.detail()).isTrue();
      assertThat(delivery.attempts()).isEqualTo(3);
      assertThat(received).hasSize(3).extracting(Received::delivery).containsOnly(delivery.id());
      for (Received r : received) {
        assertThat(r.signature()).isEqualTo(WebhookNotifier.signature(SECRET, r.body()));
      }
      JsonNode body = JSON.readTree(received.get(2).body());
      assertThat(body.get("template").asText()).isEqualTo("remediation.approval_required");
      assertThat(body.get("orgId").asText()).isEqualTo("acme");
      assertThat(body.get("jobId").asText()).isEqualTo("job_webhook1");
      assertThat(body.at("/data/resourceId").asText()).isEqualTo("i-123");
      assertThat(body.get("id").asText()).isEqualTo(delivery.id());
    }
  }

  @Test
  void aRefusalIsFinalAndNoAnswerGivesUpAfterTheBound() throws Exception {
    answers.add(400);
    try (WebhookNotifier webhook = WebhookNotifier.to(url(), SECRET).firstBackoff(Duration.ofMillis(20)).build()) {
      webhook.send(approvalRequired());
      await().atMost(Duration.ofSeconds(30)).until(() -> !webhook.deliveries().isEmpty());
      assertThat(webhook.deliveries().get(0).delivered()).isFalse();
      assertThat(webhook.deliveries().get(0).attempts()).isEqualTo(1);
      assertThat(webhook.deliveries().get(0).detail()).contains("400");
    }
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    try (WebhookNotifier nowhere = WebhookNotifier.to(URI.create("http://127.0.0.1:" + closed + "/hook"), SECRET)
        .maxAttempts(3).firstBackoff(Duration.ofMillis(20)).build()) {
      nowhere.send(approvalRequired());
      await().atMost(Duration.ofSeconds(30)).until(() -> !nowhere.deliveries().isEmpty());
      assertThat(nowhere.deliveries().get(0).delivered()).isFalse();
      assertThat(nowhere.deliveries().get(0).attempts()).isEqualTo(3);
    }
  }

  @Test
  void theSignatureIsTheHmacOfTheExactBody() {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
    assertThat(WebhookNotifier.signature("Jefe", "what do ya want for nothing?".getBytes()))
        .isEqualTo("sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  }
}
