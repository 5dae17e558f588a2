package dev.zop.provisioner.spi;

import dev.zop.provisioner.PlanDefault;
import dev.zop.provisioner.spec.ResourceSpec;
import java.util.List;

/** A spec with the provider's defaults filled in, and what was filled, for the plan to show. */
public record Defaulted<S extends ResourceSpec>(S spec, List<PlanDefault> filled) {
  public Defaulted {
    filled = List.copyOf(filled);
  }

  /** Nothing to fill. */
  public static <S extends ResourceSpec> Defaulted<S> as(S spec) {
    return new Defaulted<>(spec, List.of());
  }
}
