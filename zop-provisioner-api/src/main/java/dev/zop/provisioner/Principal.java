package dev.zop.provisioner;

import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.NullMarked;

/**
 * Who is calling: the organisation every row belongs to, the actor recorded in histories and audits, and the
 * roles that decide what the actor may do (for example {@code admin}, or {@code remediation:approve}).
 */
@NullMarked
public record Principal(String orgId, String actor, Set<String> roles) {
  /** The role that may do everything in its organisation, approvals included. */
  public static final String ADMIN = "admin";

  public Principal {
    Objects.requireNonNull(orgId, "orgId");
    Objects.requireNonNull(actor, "actor");
    if (orgId.isBlank() || actor.isBlank()) {
      throw new IllegalArgumentException("orgId and actor must not be blank");
    }
    roles = roles == null ? Set.of() : Set.copyOf(roles);
  }

  /** A principal with no roles. */
  public static Principal of(String orgId, String actor) {
    return new Principal(orgId, actor, Set.of());
  }

  public Principal withRoles(String... granted) {
    return new Principal(orgId, actor, Set.of(granted));
  }

  public boolean hasRole(String role) {
    return roles.contains(role);
  }

  /** The principal an embedded engine uses when the host does not name one: the local administrator. */
  public static Principal local() {
    return new Principal("default", "local", Set.of(ADMIN));
  }
}
