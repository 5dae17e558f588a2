package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.NullMarked;

/**
 * What an import would take over, shown before anything changes: the resources found and adopted, the config they
 * have now (the job's first revision), the steps that adopt them (recording them and tagging them as the job's
 * where the cloud allows), and each field a revision to the requested config would change, and how.
 *
 * @param adopted the resources the job would own, as the cloud names them
 * @param observed the config the resources have now, read from the cloud
 * @param changes what a revision from {@code observed} to the requested config would change; empty when they match
 * @param verdicts each guardrail's answer to taking the resources over with the config they have; empty when none
 *     applies
 */
@NullMarked
public record ImportPlan(SpaceId spaceId, JobKind kind, @JsonProperty("externalID") String externalId,
    List<String> adopted, @JsonProperty("observedConfig") ResourceSpec observed, List<RevisionChange> changes,
    List<PlanStep> steps, List<GuardrailVerdict> verdicts) {

  public ImportPlan {
    Objects.requireNonNull(spaceId, "spaceId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(externalId, "externalId");
    Objects.requireNonNull(observed, "observed");
    adopted = List.copyOf(adopted);
    changes = List.copyOf(changes);
    steps = List.copyOf(steps);
    verdicts = verdicts == null ? List.of() : List.copyOf(verdicts);
  }

  /** An import plan before guardrails answered it. */
  public ImportPlan(SpaceId spaceId, JobKind kind, String externalId, List<String> adopted, ResourceSpec observed,
      List<RevisionChange> changes, List<PlanStep> steps) {
    this(spaceId, kind, externalId, adopted, observed, changes, steps, List.of());
  }

  /** Every IAM operation the adopting steps perform, each once, in order. */
  public Set<String> permissions() {
    Set<String> all = new LinkedHashSet<>();
    steps.forEach(s -> all.addAll(s.permissions()));
    return all;
  }
}
