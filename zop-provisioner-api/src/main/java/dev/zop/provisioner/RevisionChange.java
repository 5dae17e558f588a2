package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One field a revision changes, and what changing it does to what the job made.
 *
 * @param field the field's path in the job's config, as the REST body spells it ({@code nodeGroups[0].max})
 * @param from its value now, as JSON text, or null when the field is new
 * @param to its value in the revision, as JSON text, or null when the revision removes it
 * @param note what the change does beyond the field itself (what a replacement destroys), or null
 */
@NullMarked
public record RevisionChange(String field, @Nullable String from, @Nullable String to, Effect effect,
    @Nullable String note) {
  public RevisionChange {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(effect, "effect");
  }

  /** How the cloud carries a change out. */
  public enum Effect {
    /** Changed where it stands; nothing is recreated. */
    IN_PLACE,
    /** Made anew beside the old, which is then removed (a node group of another instance type). */
    REPLACE;

    @JsonValue
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Effect fromWire(String value) {
      return EnumNames.parse(Effect.class, value);
    }
  }
}
