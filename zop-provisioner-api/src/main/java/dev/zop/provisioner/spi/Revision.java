package dev.zop.provisioner.spi;

import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.RevisionChange;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a driver changes what a job made to a revised config ({@link ResourceDriver#revise}): the steps, and for
 * each field of the config it can change whether the change is made in place or by a replacement. The engine
 * finds which fields changed, comparing the two configs as the REST body spells them ({@code nodeGroups[0].max});
 * a changed field the revision neither classifies nor refuses is refused as one the provider cannot change.
 *
 * <p>A field pattern names a field and everything under it ({@code values} covers {@code values.replicaCount});
 * {@code [*]} stands for any index ({@code nodeGroups[*].max}).
 */
public final class Revision {
  private record Rule(Pattern field, RevisionChange.Effect effect, String note) {}

  private final List<Step> steps;
  private final List<Rule> rules = new ArrayList<>();
  private final List<FieldError> refused = new ArrayList<>();

  private Revision(List<Step> steps) {
    this.steps = List.copyOf(steps);
  }

  /** A revision carried out by {@code steps}, run in order after the job's earlier steps. */
  public static Revision of(List<Step> steps) {
    return new Revision(steps);
  }

  /** Nothing can be changed: every changed field is refused. What a driver that does not revise returns. */
  public static Revision none() {
    return new Revision(List.of());
  }

  /** The fields matching these patterns change where they stand. */
  public Revision inPlace(String... fields) {
    for (String field : fields) {
      rules.add(new Rule(pattern(field), RevisionChange.Effect.IN_PLACE, null));
    }
    return this;
  }

  /** The fields matching {@code field} change by a replacement; {@code note} says what it destroys. */
  public Revision replaces(String field, String note) {
    rules.add(new Rule(pattern(field), RevisionChange.Effect.REPLACE, Objects.requireNonNull(note, "note")));
    return this;
  }

  /** {@code field}'s change cannot be made (the cloud cannot, or it would lose data): the plan is refused. */
  public Revision refuse(String field, String code, String message) {
    refused.add(FieldError.of(field, code, message));
    return this;
  }

  public List<Step> steps() {
    return steps;
  }

  public List<FieldError> refused() {
    return List.copyOf(refused);
  }

  /** How a change of {@code field} is made, or null when this revision cannot make it. */
  public RevisionChange.Effect effectOf(String field) {
    Rule rule = ruleFor(field);
    return rule == null ? null : rule.effect();
  }

  /** What a change of {@code field} does beyond the field (what a replacement destroys), or null. */
  public String noteOf(String field) {
    Rule rule = ruleFor(field);
    return rule == null ? null : rule.note();
  }

  private Rule ruleFor(String field) {
    // the last rule that covers the field wins, so a driver can refine a broad rule with a narrower one
    Rule found = null;
    for (Rule rule : rules) {
      if (rule.field().matcher(field).matches()) {
        found = rule;
      }
    }
    return found;
  }

  private static Pattern pattern(String field) {
    String quoted = Pattern.quote(field).replace("[*]", "\\E\\[\\d+\\]\\Q");
    return Pattern.compile(quoted + "([.\\[].*)?");
  }
}
