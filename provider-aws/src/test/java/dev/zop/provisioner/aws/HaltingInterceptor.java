package dev.zop.provisioner.aws;

import dev.zop.provisioner.testkit.tck.HaltSwitch;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Reports every mutating AWS call that moto accepted (a 2xx answer) to a {@link HaltSwitch}, after the answer
 * arrived and before the SDK hands it to the provider: where an engine that dies has changed the cloud unheard.
 */
final class HaltingInterceptor implements ExecutionInterceptor {
  private final HaltSwitch halts;

  HaltingInterceptor(HaltSwitch halts) {
    this.halts = halts;
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    if (context.httpResponse().isSuccessful() && HaltSwitch.isMutating(operation)) {
      halts.accepted(attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME) + ":" + operation);
    }
  }
}
