package dev.zop.provisioner.remediation;

import java.util.Objects;
import java.util.UUID;

/** Addresses a remediation step: by its stable id (recommended) or by its name in the template (legacy). */
public sealed interface StepRef {
  record ById(UUID id) implements StepRef {
    public ById {
      Objects.requireNonNull(id, "id");
    }
  }

  record ByName(String name) implements StepRef {
    public ByName {
      Objects.requireNonNull(name, "name");
    }
  }

  static StepRef id(UUID id) {
    return new ById(id);
  }

  static StepRef name(String name) {
    return new ByName(name);
  }
}
