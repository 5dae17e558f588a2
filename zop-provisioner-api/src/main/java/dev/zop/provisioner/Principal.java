package dev.zop.provisioner;

import java.util.Objects;

/**
 * Who is calling: the organisation every row belongs to, and the actor recorded in histories and audits.
 */
public record Principal(String orgId, String actor) {
  public Principal {
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(actor, "actor");
    if (orgId.isBlank() || actor.isBlank()) {
      throw new IllegalArgumentException("orgId and actor must not be blank");
    }
  }

  public static Principal of(String orgId, String actor) {
    return new Principal(orgId, actor);
  }

  /** The principal an embedded engine uses when the host does not name one. */
  public static Principal local() {
    return new Principal("default", "local");
  }
}
