package dev.zop.provisioner;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;

/** A step a job would run, with the cloud IAM operations it performs. */
@NullMarked
public record PlanStep(String name, List<String> permissions) {
  public PlanStep {
    Objects.requireNonNull(name, "name");
    permissions = List.copyOf(permissions);
  }
}
