package dev.zop.provisioner;

import java.util.List;

/** A step a job would run, with the cloud IAM operations it performs. */
public record PlanStep(String name, List<String> permissions) {
  public PlanStep {
    permissions = List.copyOf(permissions);
  }
}
