package dev.zop.provisioner.aws;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * moto makes EKS clusters ACTIVE at once; this rewrites the next DescribeCluster answers to say CREATING, as
 * a real cluster does for minutes, so the SDK parses a real in-between state.
 */
final class CreatingStatusInterceptor implements ExecutionInterceptor {
  private final AtomicInteger remaining = new AtomicInteger();
  private final AtomicInteger rewritten = new AtomicInteger();

  void creatingFor(int describeCalls) {
    remaining.set(describeCalls);
  }

  int rewritten() {
    return rewritten.get();
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    if (!"DescribeCluster".equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))
        || context.responseBody().isEmpty() || remaining.get() <= 0) {
      return context.responseBody();
    }
    try {
      String body = new String(context.responseBody().get().readAllBytes(), StandardCharsets.UTF_8);
      String creating = body.replaceAll("\"status\"\\s*:\\s*\"ACTIVE\"", "\"status\": \"CREATING\"");
      if (!creating.equals(body) && remaining.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        rewritten.incrementAndGet();
        body = creating;
      }
      return Optional.of(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
