package dev.zop.provisioner.aws;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import software.amazon.awssdk.auth.signer.AwsSignerExecutionAttribute;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/** Records every AWS call the provider makes, as the IAM action it needs ({@code ec2:CreateVpc}). */
final class CallRecorder implements ExecutionInterceptor {
  private final List<String> calls = new ArrayList<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    // IAM action prefixes are the services' signing names (elasticloadbalancing, not elasticloadbalancingv2)
    String service = attributes.getAttribute(AwsSignerExecutionAttribute.SERVICE_SIGNING_NAME)
        .toLowerCase(Locale.ROOT);
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
