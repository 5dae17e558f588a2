package dev.zop.provisioner.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.zop.provisioner.Provisioner;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The client names itself and its version, and builds on an OkHttpClient the caller hands in. */
class HttpClientHooksTest {
  final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
  HttpServer server;
  String base;

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      seen.add(Map.of("User-Agent", String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent")),
          "X-Corp", String.valueOf(exchange.getRequestHeaders().getFirst("X-Corp")),
          "Authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization"))));
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
  }

  @Test
  void everyRequestCarriesTheClientsNameAndVersion() {
    try (Provisioner zop = ProvisionerClient.builder().baseUrl(base).bearerToken("zop_t").build()) {
      zop.spaces().list();
    }
    assertThat(ProvisionerClient.VERSION).matches("\\d+\\.\\d+\\.\\d+.*");
    assertThat(seen).singleElement().satisfies(headers -> assertThat(headers.get("User-Agent"))
        .startsWith("zop-provisioner-client/" + ProvisionerClient.VERSION + " (Java "));
  }

  @Test
  void aCallersOkHttpClientIsBuiltOnAndStaysTheirs() throws Exception {
    AtomicInteger events = new AtomicInteger();
    OkHttpClient corporate = new OkHttpClient.Builder()
        .addInterceptor(chain -> chain.proceed(chain.request().newBuilder().header("X-Corp", "yes").build()))
        .build();
    try (Provisioner zop = ProvisionerClient.builder().baseUrl(base).bearerToken("zop_t").httpClient(corporate)
        .customizeHttpClient(b -> b.eventListener(new okhttp3.EventListener() {
          @Override
          public void callStart(okhttp3.Call call) {
            events.incrementAndGet();
          }
        })).build()) {
      zop.spaces().list();
    }
    assertThat(seen).singleElement().satisfies(headers -> {
      assertThat(headers.get("X-Corp")).isEqualTo("yes");
      assertThat(headers.get("Authorization")).isEqualTo("Bearer zop_t");
    });
    assertThat(events.get()).isEqualTo(1);
    // closing the provisioner client left the caller's client able to work
    try (Response response = corporate.newCall(new Request.Builder().url(base + "/ping").build()).execute()) {
      assertThat(response.code()).isEqualTo(200);
    }
    assertThat(seen).hasSize(2);
  }
}
