package dev.zop.provisioner.core.internal.jobs;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.HashMap;
import java.util.Map;

/**
 * The engine's spans, on the OpenTelemetry API alone (the host brings the SDK and its exporter, or nothing: then
 * every span is a no-op). A job's span covers its submission, as a child of whatever the caller was doing (a
 * request span the service extracted from {@code traceparent}); its W3C {@code traceparent} is kept with the job,
 * so each run of a step, on whichever engine and however much later, is a child span in the same trace.
 */
public final class EngineTracing {
  static final AttributeKey<String> JOB = AttributeKey.stringKey("zop.job.id");
  static final AttributeKey<String> KIND = AttributeKey.stringKey("zop.job.kind");
  static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("zop.provider");
  static final AttributeKey<String> STEP = AttributeKey.stringKey("zop.step");
  static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("zop.step.attempt");
  static final AttributeKey<String> STATUS = AttributeKey.stringKey("zop.job.status");
  static final AttributeKey<String> FAILURE_CATEGORY = AttributeKey.stringKey("zop.failure.category");
  static final AttributeKey<String> FAILURE_CODE = AttributeKey.stringKey("zop.failure.code");

  private static final TextMapGetter<Map<String, String>> FROM_MAP = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Map<String, String> carrier) {
      return carrier.keySet();
    }

    @Override
    public String get(Map<String, String> carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };

  private final Tracer tracer;

  public EngineTracing(OpenTelemetry openTelemetry) {
    this.tracer = openTelemetry.getTracer("dev.zop.provisioner.engine");
  }

  /** The span of a job's submission, a child of the caller's current span; end it once the job is stored. */
  Span submitted(String jobId, String kind) {
    return tracer.spanBuilder("zop.job " + kind).setSpanKind(SpanKind.INTERNAL).setAttribute(JOB, jobId)
        .setAttribute(KIND, kind).startSpan();
  }

  /** The span's W3C traceparent, to keep with the job; null when nothing records spans. */
  static String traceParent(Span span) {
    if (!span.getSpanContext().isValid()) {
      return null;
    }
    Map<String, String> carrier = new HashMap<>();
    W3CTraceContextPropagator.getInstance().inject(Context.root().with(span), carrier, Map::put);
    return carrier.get("traceparent");
  }

  /** A run of one step, a child of the job's span when the job kept its traceparent. */
  Span step(JobRecord job, String step, int attempt) {
    return tracer.spanBuilder("zop.step " + step).setParent(parent(job)).setAttribute(JOB, job.id().value())
        .setAttribute(KIND, job.kind().wireName()).setAttribute(PROVIDER, job.provider()).setAttribute(STEP, step)
        .setAttribute(ATTEMPT, (long) attempt).startSpan();
  }

  /**
   * The end of a job's phase, a child of the job's span: the submission's span ends once the job is stored, so
   * this is the span a trace shows the job's outcome on, ERROR with the failure's category and code when it
   * failed.
   */
  void ended(JobRecord job, dev.zop.provisioner.JobStatus status, dev.zop.provisioner.Failure failure) {
    Span span = tracer.spanBuilder("zop.job.ended " + job.kind().wireName()).setParent(parent(job))
        .setAttribute(JOB, job.id().value()).setAttribute(KIND, job.kind().wireName())
        .setAttribute(PROVIDER, job.provider()).setAttribute(STATUS, status.wireName()).startSpan();
    if (failure != null) {
      failed(span, failure);
    }
    span.end();
  }

  private static Context parent(JobRecord job) {
    return job.traceParent() == null ? Context.root()
        : W3CTraceContextPropagator.getInstance().extract(Context.root(), Map.of("traceparent", job.traceParent()),
            FROM_MAP);
  }

  /** A step or job that failed: ERROR, with the failure's category and code as attributes a query can group by. */
  static void failed(Span span, dev.zop.provisioner.Failure failure) {
    span.setAttribute(FAILURE_CATEGORY, failure.category().wireName()).setAttribute(FAILURE_CODE, failure.code());
    span.setStatus(StatusCode.ERROR, failure.category().wireName() + " " + failure.code());
  }

  /** A step whose run threw. */
  static void failed(Span span, Throwable error) {
    span.setAttribute(FAILURE_CATEGORY, "system").setAttribute(FAILURE_CODE, error.getClass().getSimpleName());
    span.setStatus(StatusCode.ERROR, String.valueOf(error));
  }
}
