package dev.zop.provisioner.aws;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * An SDK interceptor standing in for an operation moto lacks: the request still goes to moto, and the answer a
 * subclass chose in {@code beforeExecution} ({@link #answer}) replaces moto's, so the SDK parses the shape the
 * service sends. Calls given no answer get moto's as it is.
 */
abstract class MotoStandIn implements ExecutionInterceptor {
  private static final ExecutionAttribute<Answer> ANSWER = new ExecutionAttribute<>("zop.motoStandInAnswer");

  /** An answer as the service sends it; {@code errorType} is the {@code x-amzn-ErrorType} of a JSON error. */
  record Answer(int status, String contentType, String errorType, String body) {
    static Answer json(String body) {
      return new Answer(200, "application/json", null, body);
    }

    static Answer jsonError(int status, String errorType, String body) {
      return new Answer(status, "application/json", errorType, body);
    }

    static Answer xml(String body) {
      return new Answer(200, "text/xml", null, body);
    }
  }

  /** Replaces moto's answer to this call with {@code answer}. */
  static void answer(ExecutionAttributes attributes, Answer answer) {
    attributes.putAttribute(ANSWER, answer);
  }

  @Override
  public final SdkHttpResponse modifyHttpResponse(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    Answer answer = attributes.getAttribute(ANSWER);
    if (answer == null) {
      return context.httpResponse();
    }
    SdkHttpResponse.Builder response = SdkHttpResponse.builder().statusCode(answer.status())
        .putHeader("Content-Type", answer.contentType());
    if (answer.errorType() != null) {
      response.putHeader("x-amzn-ErrorType", answer.errorType());
    }
    return response.build();
  }

  @Override
  public final Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
      ExecutionAttributes attributes) {
    Answer answer = attributes.getAttribute(ANSWER);
    return answer == null ? context.responseBody()
        : Optional.of(new ByteArrayInputStream(answer.body().getBytes(StandardCharsets.UTF_8)));
  }
}
