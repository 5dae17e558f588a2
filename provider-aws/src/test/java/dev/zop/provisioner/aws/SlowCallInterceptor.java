package dev.zop.provisioner.aws;

import java.util.concurrent.CountDownLatch;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * Holds the answer to one operation after AWS (moto) has acted, so a test can stop the engine at the worst
 * moment: the resource exists, and the engine has not heard.
 */
final class SlowCallInterceptor implements ExecutionInterceptor {
  private final String operation;
  private final CountDownLatch reached = new CountDownLatch(1);
  private volatile boolean armed = true;

  SlowCallInterceptor(String operation) {
    this.operation = operation;
  }

  void awaitReached() throws InterruptedException {
    reached.await();
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    if (armed && operation.equals(attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME))) {
      armed = false;
      reached.countDown();
      try {
        Thread.sleep(60_000); // the engine is halted meanwhile; its thread is interrupted out of here
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
