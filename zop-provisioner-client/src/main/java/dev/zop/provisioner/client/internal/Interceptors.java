package dev.zop.provisioner.client.internal;

import java.io.IOException;
import java.time.Duration;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import okhttp3.Interceptor;
import okhttp3.Request;
import okhttp3.Response;

/** The client's cross-cutting concerns, each an OkHttp interceptor. */
public final class Interceptors {
  private Interceptors() {}

  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger("dev.zop.provisioner.client.http");

  /**
   * Logs each exchange at debug: method, path, status, time and the server's request id. Never headers or bodies,
   * which hold the token and may hold values.
   */
  public static Interceptor logging() {
    return chain -> {
      Request request = chain.request();
      long start = System.nanoTime();
      Response response = chain.proceed(request);
      if (LOG.isDebugEnabled()) {
        LOG.debug("{} {} -> {} in {} ms (request {})", request.method(), request.url().encodedPath(),
            response.code(), (System.nanoTime() - start) / 1_000_000, response.header("X-Request-Id"));
      }
      return response;
    };
  }

  /** Names the client and its version on every request, unless the caller's client already did. */
  public static Interceptor userAgent(String value) {
    return chain -> {
      Request request = chain.request();
      String current = request.header("User-Agent");
      return chain.proceed(current != null && !current.startsWith("okhttp/") ? request
          : request.newBuilder().header("User-Agent", value).build());
    };
  }

  /**
   * The caller's current span as a W3C {@code traceparent} (and {@code tracestate}), so the service's request span
   * and the job's spans join the caller's trace. Runs on the calling thread, where the caller's span is current;
   * sends nothing when no span is (the OpenTelemetry API alone, or no SDK installed).
   */
  public static Interceptor traceContext() {
    return chain -> {
      Request.Builder request = chain.request().newBuilder();
      io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator.getInstance()
          .inject(io.opentelemetry.context.Context.current(), request, (carrier, key, value) -> carrier.header(key,
              value));
      return chain.proceed(request.build());
    };
  }

  /** Sends the bearer token on every request. */
  public static Interceptor bearer(String token) {
    String header = "Bearer " + token;
    return chain -> chain.proceed(chain.request().newBuilder().header("Authorization", header).build());
  }

  /**
   * Gives every POST an {@code Idempotency-Key} unless the caller set one, so a retried submit finds the job the
   * first attempt created instead of creating a second.
   */
  public static Interceptor idempotencyKeys() {
    return chain -> {
      Request request = chain.request();
      if (request.method().equals("POST") && request.header("Idempotency-Key") == null) {
        request = request.newBuilder().header("Idempotency-Key", UUID.randomUUID().toString()).build();
      }
      return chain.proceed(request);
    };
  }

  /**
   * Retries with exponential backoff and full jitter, only where repeating cannot do harm: a 429 or 503, which the
   * server sends before it acts; and an I/O failure or 502/504 for methods that are idempotent by themselves or a
   * POST carrying an idempotency key the server honours (job submission).
   */
  public static Interceptor retries(int maxRetries, Duration baseDelay) {
    return chain -> {
      Request request = chain.request();
      boolean repeatable = isRepeatable(request);
      for (int attempt = 0; ; attempt++) {
        boolean last = attempt >= maxRetries;
        Response response;
        try {
          response = chain.proceed(request);
        } catch (IOException e) {
          if (!repeatable || last || chain.call().isCanceled()) {
            throw e;
          }
          pause(baseDelay, attempt, null);
          continue;
        }
        int code = response.code();
        boolean refusedBeforeActing = code == 429 || code == 503;
        boolean gatewayTrouble = code == 502 || code == 504;
        if (last || !(refusedBeforeActing || (gatewayTrouble && repeatable))) {
          return response;
        }
        String retryAfter = response.header("Retry-After");
        response.close();
        pause(baseDelay, attempt, retryAfter);
      }
    };
  }

  private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "PUT", "DELETE");

  private static boolean isRepeatable(Request request) {
    if (IDEMPOTENT.contains(request.method())) {
      return true;
    }
    var segments = request.url().pathSegments();
    boolean submit = request.method().equals("POST")
        && segments.get(segments.size() - 1).equals(RemoteJobs.JOBS);
    return submit && request.header("Idempotency-Key") != null;
  }

  private static void pause(Duration base, int attempt, String retryAfter) throws IOException {
    long millis;
    if (retryAfter != null && retryAfter.chars().allMatch(Character::isDigit) && !retryAfter.isEmpty()) {
      millis = Math.min(Long.parseLong(retryAfter) * 1000, 30_000);
    } else {
      long cap = base.toMillis() << Math.min(attempt, 10);
      millis = ThreadLocalRandom.current().nextLong(Math.max(1, cap) + 1);
    }
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while backing off", e);
    }
  }
}
