package dev.zop.provisioner.spec;

import dev.zop.provisioner.FieldError;
import java.util.List;

/**
 * A managed node group of a Kubernetes cluster.
 *
 * @param desired the starting size; null means {@code min}
 */
public record NodeGroup(String name, String instanceType, Integer min, Integer max, Integer desired) {

  public static NodeGroup of(String name, String instanceType, int min, int max) {
    return new NodeGroup(name, instanceType, min, max, null);
  }

  public int desiredSize() {
    return desired != null ? desired : min;
  }

  List<FieldError> validate() {
    Checks c = new Checks();
    c.resourceName("name", name, true);
    c.required("instanceType", instanceType);
    c.scaling("", min, max, 1000);
    if (desired != null && min != null && max != null && (desired < min || desired > max)) {
      c.add("desired", "out_of_range", "must be between min and max");
    }
    return c.errors();
  }
}
