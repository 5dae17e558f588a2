package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * One way the cloud differs from what a job's config says: an attribute of a resource the job made that someone
 * changed out of band, or the resource itself gone.
 *
 * @param resource the resource as the cloud names it ({@code eks nodegroup checkout-prod/general})
 * @param field the config field the attribute is ({@code nodeGroups[0].max}), else the cloud's name for it
 *     ({@code ingress tcp/5432 from 10.0.0.0/16}); null when the whole resource is missing
 * @param expected what the config says, as text; {@code present} for a missing resource
 * @param actual what the cloud has, as text; null when it has nothing there
 */
@NullMarked
public record Drift(String resource, @Nullable String field, String expected, @Nullable String actual) {
  public Drift {
    Objects.requireNonNull(expected, "expected");
    Objects.requireNonNull(resource, "resource");
  }

  /** The resource is gone from the cloud. */
  public static Drift missing(String resource) {
    return new Drift(resource, null, "present", null);
  }

  /** An attribute of {@code resource} is not what the config says. */
  public static Drift of(String resource, String field, Object expected, Object actual) {
    return new Drift(resource, Objects.requireNonNull(field, "field"), String.valueOf(expected),
        actual == null ? null : String.valueOf(actual));
  }

  /** Whether the whole resource is gone. */
  @JsonIgnore
  public boolean isMissing() {
    return field == null;
  }
}
