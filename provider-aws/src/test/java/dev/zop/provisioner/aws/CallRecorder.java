package dev.zop.provisioner.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Records every AWS call the provider makes, as the IAM action it needs ({@code ec2:CreateVpc}). */
final class CallRecorder implements ExecutionInterceptor {
  private final List<String> calls = new ArrayList<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    String service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME).toLowerCase(Locale.ROOT);
    synchronized (calls) {
      calls.add(service + ":" + attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME));
    }
  }

  int mark() {
    synchronized (calls) {
      return calls.size();
    }
  }

  List<String> since(int mark) {
    synchronized (calls) {
      return List.copyOf(calls.subList(mark, calls.size()));
    }
  }
}
