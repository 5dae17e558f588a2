package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.SpaceRequest;
import dev.zop.provisioner.SubmitOptions;
import dev.zop.provisioner.spec.RegistrySpec;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** One trace from a client's call, through the service's request and the job's submission, to each step run. */
class TracingTest {
  @Test
  void aClientCallsTraceReachesEveryStepOfTheJobItSubmitted() {
    InMemorySpanExporter exported = InMemorySpanExporter.create();
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build();
    try (ServerFixture fixture = ServerFixture.with(e -> e.openTelemetry(otel), s -> s.openTelemetry(otel));
        Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "traced"));
      Space space = client.spaces().create(SpaceRequest.of("sim", "traced", account.id()).region("sim-east-1"));

      Span deploy = otel.getTracer("a host").spanBuilder("deploy the registry").startSpan();
      Job job;
      try (Scope ignored = deploy.makeCurrent()) {
        job = client.jobs().submit(space.id(), RegistrySpec.named("traced"), SubmitOptions.none());
      } finally {
        deploy.end();
      }
      Awaitility.await().atMost(Duration.ofSeconds(30))
          .until(() -> client.jobs().get(job.id()).status() == JobStatus.SUCCEEDED);
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> exported.getFinishedSpanItems().stream()
          .filter(s -> s.getName().startsWith("zop.step ")).count() == client.jobs().get(job.id()).steps().size());

      List<SpanData> spans = exported.getFinishedSpanItems();
      String trace = deploy.getSpanContext().getTraceId();
      SpanData request = one(spans, "POST /provisioning-jobs");
      SpanData submitted = one(spans, "zop.job registry");
      List<SpanData> steps = spans.stream().filter(s -> s.getName().startsWith("zop.step ")).toList();
      // the chain: the host's span -> the service's request -> the job's submission -> each step run
      assertThat(request.getTraceId()).isEqualTo(trace);
      assertThat(request.getParentSpanId()).isEqualTo(deploy.getSpanContext().getSpanId());
      assertThat(submitted.getParentSpanId()).isEqualTo(request.getSpanId());
      assertThat(submitted.getAttributes().asMap().toString()).contains(job.id().value());
      assertThat(steps).isNotEmpty().allSatisfy(step -> {
        assertThat(step.getTraceId()).isEqualTo(trace);
        assertThat(step.getParentSpanId()).isEqualTo(submitted.getSpanId());
        assertThat(step.getAttributes().asMap().toString()).contains(job.id().value(), "sim");
      });
    }
  }

  @Test
  void aFailedStepAndItsJobEndInErrorSpansThatNameTheFailure() {
    InMemorySpanExporter exported = InMemorySpanExporter.create();
    OpenTelemetrySdk otel = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(exported)).build()).build();
    try (ServerFixture fixture = ServerFixture.with(e -> e.openTelemetry(otel), s -> s.openTelemetry(otel));
        Provisioner client = fixture.client(fixture.adminToken)) {
      CloudAccount account = client.accounts().create(CloudAccountRequest.of("sim", "refused"));
      Space space = client.spaces().create(SpaceRequest.of("sim", "refused", account.id()).region("sim-east-1"));
      fixture.cloud.deny("registry:CreateRepository");

      Job job = client.jobs().await(client.jobs().submit(space.id(), RegistrySpec.named("refused")).id(),
          Duration.ofSeconds(30));
      assertThat(job.status()).isEqualTo(JobStatus.FAILED);
      Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> exported.getFinishedSpanItems().stream()
          .anyMatch(s -> s.getName().equals("zop.job.ended registry")));

      List<SpanData> spans = exported.getFinishedSpanItems();
      SpanData submitted = one(spans, "zop.job registry");
      SpanData ended = one(spans, "zop.job.ended registry");
      SpanData failedStep = spans.stream().filter(s -> s.getName().startsWith("zop.step ")
          && s.getStatus().getStatusCode() == StatusCode.ERROR).findFirst().orElseThrow();
      String code = job.lastFailure().code();
      for (SpanData span : List.of(failedStep, ended)) {
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("zop.failure.code"))).isEqualTo(code);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("zop.failure.category")))
            .isEqualTo(job.lastFailure().category().wireName());
      }
      assertThat(ended.getParentSpanId()).isEqualTo(submitted.getSpanId());
      assertThat(ended.getAttributes().get(AttributeKey.stringKey("zop.job.status"))).isEqualTo("failed");
    }
  }

  private static SpanData one(List<SpanData> spans, String name) {
    List<SpanData> named = spans.stream().filter(s -> s.getName().equals(name)).toList();
    assertThat(named).as(name + " among " + spans.stream().map(SpanData::getName).toList()).hasSize(1);
    return named.get(0);
  }
}
