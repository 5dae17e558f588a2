package dev.zop.provisioner.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.spec.RegistrySpec;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the client sends and when it tries again, against a scripted HTTP server on loopback. */
class RetriesAndHeadersTest {
  record Seen(String method, String path, String authorization, String idempotencyKey) {}

  final List<Seen> seen = new CopyOnWriteArrayList<>();
  HttpServer server;

  Provisioner client(Script script) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    AtomicInteger calls = new AtomicInteger();
    server.createContext("/", exchange -> {
      seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
          exchange.getRequestHeaders().getFirst("Authorization"),
          exchange.getRequestHeaders().getFirst("Idempotency-Key")));
      exchange.getRequestBody().readAllBytes();
      script.answer(calls.incrementAndGet(), exchange);
    });
    server.start();
    return ProvisionerClient.builder().baseUrl("http://127.0.0.1:" + server.getAddress().getPort())
        .bearerToken("zop_test").retryBaseDelay(Duration.ofMillis(1)).maxRetries(3).build();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  interface Script {
    void answer(int call, HttpExchange exchange) throws IOException;
  }

  static void reply(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  static final String JOB = "{\"data\":{\"id\":\"job_1\",\"spaceId\":\"spc_1\",\"jobType\":\"provisioning\","
      + "\"kind\":\"registry\",\"name\":\"r\",\"tags\":{},\"status\":\"pending\",\"phase\":\"create\","
      + "\"config\":{\"name\":\"r\"},\"outputs\":{},\"steps\":[],\"createdBy\":\"a\","
      + "\"createdAt\":\"2026-12-03T10:15:30Z\",\"updatedAt\":\"2026-12-03T10:15:30Z\"}}";

  @Test
  void aRefusalBeforeActingIsRetriedAndEveryCallCarriesTheToken() throws IOException {
    try (Provisioner zop = client((call, ex) -> {
      if (call <= 2) {
        reply(ex, 503, "{\"error\":{\"code\":\"busy\",\"message\":\"busy\",\"category\":\"transient\"}}");
      } else {
        reply(ex, 200, JOB);
      }
    })) {
      assertThat(zop.jobs().get(JobId.of("job_1")).id().value()).isEqualTo("job_1");
    }
    assertThat(seen).hasSize(3).allSatisfy(s -> assertThat(s.authorization()).isEqualTo("Bearer zop_test"));
  }

  @Test
  void submitsCarryOneIdempotencyKeyAcrossTheirRetries() throws IOException {
    try (Provisioner zop = client((call, ex) -> {
      if (call == 1) {
        reply(ex, 502, "");
      } else {
        reply(ex, 201, JOB);
      }
    })) {
      zop.jobs().submit(SpaceId.of("spc_1"), RegistrySpec.named("r"));
    }
    assertThat(seen).hasSize(2);
    assertThat(seen.get(0).idempotencyKey()).isNotBlank().isEqualTo(seen.get(1).idempotencyKey());
  }

  @Test
  void aPostThatIsNotSafeToRepeatIsNotRetriedAfterAGatewayError() throws IOException {
    try (Provisioner zop = client((call, ex) -> reply(ex, 502, ""))) {
      assertThatThrownBy(() -> zop.jobs().retry(JobId.of("job_1"))).isInstanceOfSatisfying(
          ProviderException.class, e -> assertThat(e.failure().category()).isEqualTo(FailureCategory.SYSTEM));
    }
    assertThat(seen).hasSize(1);
  }

  @Test
  void theServersErrorComesBackTyped() throws IOException {
    try (Provisioner zop = client((call, ex) -> reply(ex, 400, "{\"error\":{\"code\":\"validation_failed\","
        + "\"message\":\"bad\",\"fields\":[{\"field\":\"config.name\",\"code\":\"required\",\"message\":\"m\"}]}}"))) {
      assertThatThrownBy(() -> zop.jobs().get(JobId.of("job_1"))).isInstanceOfSatisfying(ValidationException.class,
          e -> assertThat(e.fieldErrors()).extracting(f -> f.field()).containsExactly("config.name"));
    }
    assertThat(seen).hasSize(1); // a 400 is not retried
  }
}
