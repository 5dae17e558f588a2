package dev.zop.provisioner.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.notify.WebhookNotifier;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.spi.Notifier;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Notifications leave the engine for real: a remediation that waits for approval reaches a webhook receiver on
 * loopback, signed, through the notifier {@code zop serve} builds from its flags and environment.
 */
class NotificationsTest {
  private static final String SECRET = "webhook-secret-for-tests";

  /** The notifier zop serve builds from these flags and this environment. */
  private static Notifier notifier(List<String> flags, Map<String, String> env) {
    NotifyOptions options = new NotifyOptions();
    new CommandLine(options).parseArgs(flags.toArray(String[]::new));
    return options.build(env);
  }

  @Test
  void anApprovalRequestReachesTheWebhookZopServeConfigures() throws Exception {
    List<byte[]> bodies = new CopyOnWriteArrayList<>();
    List<String> signatures = new CopyOnWriteArrayList<>();
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/zop", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      bodies.add(body);
      signatures.add(exchange.getRequestHeaders().getFirst(WebhookNotifier.SIGNATURE));
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    receiver.start();
    Notifier notifier = notifier(List.of("--notify-webhook-url",
        "http://127.0.0.1:" + receiver.getAddress().getPort() + "/zop"), Map.of("ZOP_NOTIFY_WEBHOOK_SECRET", SECRET));
    SimCloud cloud = SimCloud.create();
    try (EmbeddedProvisioner engine = TestEngines.h2(Files.createTempDirectory("zop-notify"), cloud)
        .notifier(notifier).notifyTerminal(false).build()) {
      CloudAccount account = engine.accounts().create(CloudAccountRequest.of("sim", "notify"));
      cloud.workload("i-notify", "running");
      engine.remediations().putRecommendation(new Recommendation("rec-notify", "sim", account.id(), "sim-east-1",
          "vm", "i-notify", "stop"));
      RemediationJob started = engine.remediations().start("rec-notify", SubjectType.RESOURCE, "i-notify");
      await().atMost(Duration.ofSeconds(30))
          .until(() -> engine.remediations().get(started.id()).status() == JobStatus.AWAITING_USER);
      await().atMost(Duration.ofSeconds(30)).until(() -> !bodies.isEmpty());
      JsonNode body = new ObjectMapper().readTree(bodies.get(0));
      assertThat(body.get("template").asText()).isEqualTo("remediation.approval_required");
      assertThat(body.get("recipients").asText()).isEqualTo("org-admins");
      assertThat(body.get("jobId").asText()).isEqualTo(started.id().value());
      assertThat(signatures.get(0)).isEqualTo(WebhookNotifier.signature(SECRET, bodies.get(0)));
    } finally {
      if (notifier instanceof AutoCloseable closeable) {
        closeable.close();
      }
      receiver.stop(0);
    }
  }

  @Test
  void aWebhookWithoutItsSecretOrMailWithoutAddressesIsRefusedAtStart() {
    assertThatThrownBy(() -> notifier(List.of("--notify-webhook-url", "https://hooks.example/zop"), Map.of()))
        .hasMessageContaining("ZOP_NOTIFY_WEBHOOK_SECRET");
    assertThatThrownBy(() -> notifier(List.of("--notify-smtp-host", "smtp.example"), Map.of()))
        .hasMessageContaining("--notify-admins");
    assertThat(notifier(List.of(), Map.of())).isNull();
  }
}
