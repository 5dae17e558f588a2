package dev.zop.provisioner;

import java.util.Objects;
import org.jspecify.annotations.NullMarked;

/**
 * A value the provider filled in because the spec left it out, as the plan shows it before anything is made.
 *
 * @param field  the spec field, as the API spells it ({@code imageId}, {@code subnetIDs})
 * @param value  what it will be (a list as comma-separated values)
 * @param reason where the value comes from
 */
@NullMarked
public record PlanDefault(String field, String value, String reason) {
  public PlanDefault {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(reason, "reason");
  }
}
