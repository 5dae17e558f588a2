package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * {@code zop serve} started as an operator starts it, with the standard {@code OTEL_*} variables pointing at an
 * OTLP/HTTP receiver of the test's (the OpenTelemetry protocol's own messages decode what arrives): a job's trace
 * arrives whole — the request's span, the job's under it, each step's under that — with no database spans, and so
 * do the engine's meters.
 */
class OtlpExportTest {
  private final List<Span> spans = new CopyOnWriteArrayList<>();
  private final Map<String, Metric> metrics = new ConcurrentHashMap<>();

  @Test
  void aJobsTraceAndTheEnginesMetersReachAnOtlpReceiver() throws Exception {
    HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext("/v1/traces", exchange -> answer(exchange, body ->
        ExportTraceServiceRequest.parseFrom(body).getResourceSpansList().forEach(r ->
            r.getScopeSpansList().forEach(s -> spans.addAll(s.getSpansList())))));
    receiver.createContext("/v1/metrics", exchange -> answer(exchange, body ->
        ExportMetricsServiceRequest.parseFrom(body).getResourceMetricsList().forEach(r ->
            r.getScopeMetricsList().forEach(s -> s.getMetricsList().forEach(m -> metrics.put(m.getName(), m))))));
    receiver.start();
    Path dir = Files.createTempDirectory("zop-otel");
    ZopServeProcess serve = null;
    try {
      String token = zop("tokens", "create", "--data-dir", dir.toString(), "--org", "demo", "--actor",
          "otel@example.com", "--role", "admin").trim();
      serve = ZopServeProcess.start(dir, Map.of(
          "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + receiver.getAddress().getPort(),
          "OTEL_SERVICE_NAME", "zop-under-test", "OTEL_BSP_SCHEDULE_DELAY", "100",
          "OTEL_METRIC_EXPORT_INTERVAL", "500"), "--demo");
      String base = serve.base();
      String space = RawHttp.json(base, "GET", "/spaces", token, null).json().at("/data/0/id").asText();
      String job = RawHttp.json(base, "POST", "/provisioning-jobs", token, "{\"spaceID\":\"" + space
          + "\",\"kind\":\"registry\",\"config\":{\"name\":\"traced/app\"}}").json().at("/data/id").asText();
      assertThat(RawHttp.json(base, "GET", "/provisioning-jobs/" + job + "/await?timeoutMs=20000", token, null)
          .json().at("/data/status").asText()).isEqualTo("succeeded");
      int steps = RawHttp.json(base, "GET", "/provisioning-jobs/" + job, token, null).json().at("/data/steps").size();

      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(stepSpans(job))
          .as("spans received: %s; receiver errors: %s; zop serve's log: %s", spans.stream().map(Span::getName)
              .toList(), receiverErrors, logOf(dir)).hasSize(steps));
      Span request = spans.stream().filter(s -> s.getName().equals("POST /provisioning-jobs")).findFirst()
          .orElseThrow();
      Span submitted = spans.stream().filter(s -> s.getName().equals("zop.job registry")
          && attribute(s, "zop.job.id").equals(job)).findFirst().orElseThrow();
      assertThat(request.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_SERVER);
      assertThat(submitted.getTraceId()).isEqualTo(request.getTraceId());
      assertThat(hex(submitted.getParentSpanId().toByteArray())).isEqualTo(hex(request.getSpanId().toByteArray()));
      assertThat(stepSpans(job)).hasSize(steps).allSatisfy(step -> {
        assertThat(step.getTraceId()).isEqualTo(request.getTraceId());
        assertThat(hex(step.getParentSpanId().toByteArray())).isEqualTo(hex(submitted.getSpanId().toByteArray()));
      });
      // no database spans: the service instruments no driver
      assertThat(spans).noneSatisfy(s -> assertThat(s.getAttributesList()).anySatisfy(a ->
          assertThat(a.getKey()).startsWith("db.")));

      await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(metrics.keySet())
          .as("receiver errors: %s", receiverErrors).contains("zop.steps", "zop.jobs.duration", "zop.step.failures"));
      assertThat(metrics.get("zop.steps").hasHistogram()).isTrue();
      assertThat(metrics.get("zop.jobs.duration").getHistogram().getDataPointsList())
          .anySatisfy(p -> assertThat(p.getCount()).isPositive());
    } finally {
      if (serve != null) {
        serve.close();
      }
      receiver.stop(0);
    }
  }

  private final List<String> receiverErrors = new CopyOnWriteArrayList<>();

  interface Decoder {
    void decode(byte[] body) throws Exception;
  }

  /** Decodes an export and answers 200, as a collector does; what cannot be decoded is a 400, and kept. */
  private void answer(com.sun.net.httpserver.HttpExchange exchange, Decoder decoder) throws java.io.IOException {
    int status = 200;
    try {
      decoder.decode(body(exchange));
    } catch (Exception | LinkageError e) {
      receiverErrors.add(e.toString());
      status = 400;
    }
    exchange.getResponseHeaders().set("Content-Type", "application/x-protobuf");
    exchange.sendResponseHeaders(status, -1);
    exchange.close();
  }

  private List<Span> stepSpans(String job) {
    return spans.stream().filter(s -> s.getName().startsWith("zop.step ") && attribute(s, "zop.job.id").equals(job))
        .toList();
  }

  private static String attribute(Span span, String key) {
    return span.getAttributesList().stream().filter(a -> a.getKey().equals(key)).map(KeyValue::getValue)
        .map(v -> v.getStringValue()).findFirst().orElse("");
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  private static byte[] body(com.sun.net.httpserver.HttpExchange exchange) throws java.io.IOException {
    InputStream in = exchange.getRequestBody();
    if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
      in = new GZIPInputStream(in);
    }
    return in.readAllBytes();
  }

  private static String zop(String... args) {
    return ZopServeProcess.zop(args);
  }

  private static String logOf(Path dir) throws java.io.IOException {
    return Files.readString(dir.resolve("serve.log"));
  }
}
