package dev.zop.provisioner.aws;

import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.util.List;

/** A step of the AWS provider: a name, the IAM actions it performs, and what it does. */
record AwsStep(String name, List<String> permissions, Body body) implements Step {

  @FunctionalInterface
  interface Body {
    StepResult run(StepContext context) throws Exception;
  }

  AwsStep {
    permissions = List.copyOf(permissions);
  }

  @Override
  public StepResult run(StepContext context) throws Exception {
    return body.run(context);
  }
}
