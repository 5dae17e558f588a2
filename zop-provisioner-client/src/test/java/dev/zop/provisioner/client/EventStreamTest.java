package dev.zop.provisioner.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Subscription;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A job's event stream as the server writes it: comments, multi-line data, a dropped connection resumed. */
class EventStreamTest {
  HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static String event(long seq, String message) {
    return "{\"jobId\":\"job_sse\",\"seq\":" + seq + ",\"type\":\"step_succeeded\",\"stepName\":\"s" + seq
        + "\",\"status\":\"running\",\"message\":\"" + message + "\",\"at\":\"2026-12-01T00:00:00Z\"}";
  }

  @Test
  void eventsArriveOnceAndInOrderAcrossADroppedConnection() throws Exception {
    List<String> lastEventIds = new CopyOnWriteArrayList<>();
    AtomicInteger connections = new AtomicInteger();
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      lastEventIds.add(String.valueOf(exchange.getRequestHeaders().getFirst("Last-Event-ID")));
      exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
      exchange.sendResponseHeaders(200, 0);
      String body;
      if (connections.incrementAndGet() == 1) {
        // a keep-alive comment, an event whose JSON spans two data lines, then the connection drops
        String first = event(1, "first");
        int cut = first.indexOf(",\"type\"");
        body = ": keep-alive\n\nid: 1\nevent: job\ndata: " + first.substring(0, cut) + "\ndata: "
            + first.substring(cut) + "\n\n";
      } else {
        // the resumed stream repeats event 1 (the client skips it) and carries on
        body = "id: 1\ndata: " + event(1, "first") + "\n\nid: 2\ndata: " + event(2, "second") + "\n\n";
      }
      exchange.getResponseBody().write(body.getBytes(StandardCharsets.UTF_8));
      exchange.close();
    });
    server.start();

    BlockingQueue<JobEvent> received = new LinkedBlockingQueue<>();
    try (Provisioner zop = ProvisionerClient.builder().baseUrl("http://127.0.0.1:" + server.getAddress().getPort())
        .bearerToken("zop_t").readTimeout(Duration.ofSeconds(5)).build();
        Subscription ignored = zop.jobs().watch(JobId.of("job_sse"), received::add)) {
      JobEvent first = received.poll(30, TimeUnit.SECONDS);
      JobEvent second = received.poll(30, TimeUnit.SECONDS);
      assertThat(first).isNotNull();
      assertThat(first.seq()).isEqualTo(1);
      assertThat(first.message()).isEqualTo("first");
      assertThat(second).isNotNull();
      assertThat(second.seq()).isEqualTo(2);
      assertThat(received.poll(200, TimeUnit.MILLISECONDS)).as("event 1 delivered once").isNull();
    }
    assertThat(lastEventIds.subList(0, 2)).containsExactly("0", "1");
  }
}
