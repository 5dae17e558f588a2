package dev.zop.provisioner.aws;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Rewrites the next responses to one EC2 operation into the throttling error EC2 sends, which moto cannot
 * produce, so the SDK's own error parsing and retries run on it.
 */
final class ThrottlingInterceptor implements ExecutionInterceptor {
  private static final String BODY = "<Response><Errors><Error><Code>RequestLimitExceeded</Code>"
      + "<Message>Request limit exceeded.</Message></Error></Errors><RequestID>throttled-by-test</RequestID>"
      + "</Response>";

  private final String operation;
  private final AtomicInteger remaining = new AtomicInteger();
  private final AtomicInteger throttled = new AtomicInteger();

  ThrottlingInterceptor(String operation) {
    this.operation = operation;
  }

  /** Throttles the next {@code times} calls of the operation. */
  void throttleNext(int times) {
    remaining.set(times);
  }

  int throttledSoFar() {
    return throttled.get();
  }

  @Override
  public SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    if (!operation.equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
      return context.httpResponse();
    }
    if (remaining.getAndUpdate(n -> Math.max(0, n - 1)) <= 0) {
      return context.httpResponse();
    }
    throttled.incrementAndGet();
    attributes.putAttribute(THROTTLED, Boolean.TRUE);
    return context.httpResponse().toBuilder().statusCode(503).build();
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    if (Boolean.TRUE.equals(attributes.getAttribute(THROTTLED))) {
      attributes.putAttribute(THROTTLED, Boolean.FALSE);
      return Optional.of(new ByteArrayInputStream(BODY.getBytes(StandardCharsets.UTF_8)));
    }
    return context.responseBody();
  }

  private static final software.amazon.awssdk.core.interceptor.ExecutionAttribute<Boolean> THROTTLED =
      new software.amazon.awssdk.core.interceptor.ExecutionAttribute<>("zop.test.throttled");
}
