package dev.zop.provisioner.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.Provisioner;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Threads calling at once keep their connections: in every round all of them are in flight together (the server
 * answers none until it holds them all), so each round needs as many connections as there are threads, and a
 * client that kept them opens no more after the first round.
 */
class ConnectionReuseTest {
  static final int THREADS = 12;
  static final int ROUNDS = 8;

  HttpServer server;
  ExecutorService serverThreads;
  CyclicBarrier allInFlight;
  String base;

  @BeforeEach
  void start() throws Exception {
    allInFlight = new CyclicBarrier(THREADS);
    serverThreads = Executors.newFixedThreadPool(THREADS);
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(serverThreads);
    server.createContext("/", exchange -> {
      try {
        allInFlight.await(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        exchange.sendResponseHeaders(503, -1);
        exchange.close();
        return;
      }
      byte[] body = "{\"data\":[]}".getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
    serverThreads.shutdownNow();
  }

  @Test
  void concurrentCallersReuseTheirConnectionsByDefault() throws Exception {
    assertThat(connectionsOpened(ProvisionerClient.builder())).isEqualTo(THREADS);
  }

  @Test
  void aPoolSmallerThanTheCallersOpensConnectionsAgain() throws Exception {
    // the same rounds with room for 4 idle connections: the rest are closed after each round and opened anew
    assertThat(connectionsOpened(ProvisionerClient.builder().maxIdleConnections(4)))
        .isGreaterThan(THREADS + ROUNDS);
  }

  private int connectionsOpened(ProvisionerClient.Builder builder) throws Exception {
    AtomicInteger connects = new AtomicInteger();
    ExecutorService callers = Executors.newFixedThreadPool(THREADS);
    try (Provisioner zop = builder.baseUrl(base).bearerToken("zop_t").maxRetries(0)
        .customizeHttpClient(b -> b.eventListener(new okhttp3.EventListener() {
          @Override
          public void connectStart(okhttp3.Call call, InetSocketAddress address, java.net.Proxy proxy) {
            connects.incrementAndGet();
          }
        })).build()) {
      for (int round = 0; round < ROUNDS; round++) {
        List<Future<?>> calls = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          calls.add(callers.submit(() -> zop.spaces().list()));
        }
        for (Future<?> call : calls) {
          call.get(30, TimeUnit.SECONDS);
        }
      }
    } finally {
      callers.shutdownNow();
    }
    return connects.get();
  }
}
