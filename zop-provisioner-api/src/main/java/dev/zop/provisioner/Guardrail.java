package dev.zop.provisioner;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * A limit on what may be made, checked on every plan of its organisation within its scope. Every change makes a new
 * version; the old ones stay readable, and a job records the versions it passed.
 *
 * @param version 1 for the first, one more for each change
 * @param approverGrant the grant a person needs to decide a job this guardrail holds for approval
 *     ({@link Policies#GUARDRAIL_APPROVE} unless set to a narrower {@code guardrail:approve:<name>})
 * @param enabled a disabled guardrail is kept, and can be tried, but is not checked
 * @param deleted the version that deleted the guardrail: it is no longer listed or checked
 * @param createdBy who made this version
 */
@NullMarked
public record Guardrail(GuardrailId id, String name, int version, GuardrailLevel level, GuardrailRule rule,
    GuardrailScope scope, String approverGrant, @Nullable String description, boolean enabled, boolean deleted,
    String createdBy, Instant createdAt) {

  public Guardrail {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(rule, "rule");
    scope = scope == null ? GuardrailScope.everywhere() : scope;
    approverGrant = approverGrant == null ? Policies.GUARDRAIL_APPROVE : approverGrant;
    Objects.requireNonNull(createdBy, "createdBy");
    Objects.requireNonNull(createdAt, "createdAt");
  }

  /** Whether this version is checked on a change in {@code space}, on {@code provider}, of {@code kind}. */
  public boolean appliesTo(SpaceId space, String provider, JobKind kind) {
    return enabled && !deleted && scope.covers(space, provider, kind);
  }
}
