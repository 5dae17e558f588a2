package dev.zop.provisioner;

import java.util.List;
import org.jspecify.annotations.NullMarked;

/**
 * Where a guardrail applies within its organisation: an empty list does not narrow, so the empty scope is every
 * space, provider and kind.
 *
 * @param spaces the spaces it applies to
 * @param providers the providers it applies to ({@code aws}, {@code gcp}, {@code azure}, {@code sim}, ...)
 * @param kinds the kinds of job it applies to
 */
@NullMarked
public record GuardrailScope(List<SpaceId> spaces, List<String> providers, List<JobKind> kinds) {
  public GuardrailScope {
    spaces = spaces == null ? List.of() : List.copyOf(spaces);
    providers = providers == null ? List.of() : List.copyOf(providers);
    kinds = kinds == null ? List.of() : List.copyOf(kinds);
  }

  /** Every space, provider and kind of the organisation. */
  public static GuardrailScope everywhere() {
    return new GuardrailScope(List.of(), List.of(), List.of());
  }

  /** Whether a change in {@code space}, on {@code provider}, of {@code kind} is in this scope. */
  public boolean covers(SpaceId space, String provider, JobKind kind) {
    return (spaces.isEmpty() || spaces.contains(space))
        && (providers.isEmpty() || providers.contains(provider))
        && (kinds.isEmpty() || kinds.contains(kind));
  }
}
