package dev.zop.provisioner.remediation;

import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.NullMarked;

/**
 * An ordered remediation workflow for an action on some resource types.
 *
 * @param action        the recommendation action it carries out: {@code stop}, {@code pause}, ...
 * @param resourceTypes the resource types it applies to, e.g. {@code vm}, {@code dataproc-cluster}
 * @param irreversible  whether its change cannot be undone (its approval says so)
 */
@NullMarked
public record WorkflowTemplate(String id, int version, String action, Set<String> resourceTypes,
    List<TemplateStep> steps, boolean irreversible) {

  public WorkflowTemplate {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(action, "action");
    resourceTypes = Set.copyOf(resourceTypes);
    steps = List.copyOf(steps);
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("template " + id + " has no steps");
    }
    Set<Object> seen = new HashSet<>();
    for (TemplateStep step : steps) {
      if (!seen.add(step.id()) || !seen.add("name:" + step.name())) {
        throw new IllegalArgumentException("template " + id + " repeats step " + step.name());
      }
    }
  }

  public boolean appliesTo(String recommendedAction, String resourceType) {
    return action.equals(recommendedAction) && resourceTypes.contains(resourceType);
  }
}
