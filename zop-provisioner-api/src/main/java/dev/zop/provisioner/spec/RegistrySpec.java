package dev.zop.provisioner.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.ValidationException;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A container image registry or repository (ECR, Artifact Registry, ACR).
 *
 * @param immutableTags refuse to overwrite an existing tag
 * @param scanOnPush    scan images for vulnerabilities when pushed
 */
public record RegistrySpec(String name, Boolean immutableTags, Boolean scanOnPush) implements ResourceSpec {

  /** The repository-name grammar ECR and the OCI distribution spec share. */
  private static final Pattern NAME = Pattern.compile("[a-z0-9]+([._-][a-z0-9]+)*(/[a-z0-9]+([._-][a-z0-9]+)*)*");

  public RegistrySpec {
    immutableTags = Boolean.TRUE.equals(immutableTags);
    scanOnPush = Boolean.TRUE.equals(scanOnPush);
  }

  /** A registry with mutable tags and no scanning; validated at once. */
  public static RegistrySpec named(String name) {
    return builder().name(name).build();
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().name(name).immutableTags(immutableTags).scanOnPush(scanOnPush);
  }

  @JsonIgnore
  @Override
  public JobKind kind() {
    return JobKind.REGISTRY;
  }

  @Override
  public List<FieldError> validate() {
    Checks c = new Checks();
    if (c.required("name", name)) {
      if (name.length() > 256) {
        c.add("name", "too_long", "must be at most 256 characters");
      } else {
        c.matches("name", name, NAME, "lower-case path segments of letters, digits, '.', '_' or '-'");
      }
    }
    return c.errors();
  }

  /** Builds a {@link RegistrySpec}; {@link #build()} validates. */
  public static final class Builder implements SpecBuilder<RegistrySpec> {
    private String name;
    private Boolean immutableTags;
    private Boolean scanOnPush;

    private Builder() {}

    public Builder name(String value) {
      this.name = value;
      return this;
    }

    public Builder immutableTags(Boolean value) {
      this.immutableTags = value;
      return this;
    }

    public Builder scanOnPush(Boolean value) {
      this.scanOnPush = value;
      return this;
    }

    @Override
    public RegistrySpec build() {
      RegistrySpec spec = new RegistrySpec(name, immutableTags, scanOnPush);
      ValidationException.throwIfAny(spec.validate());
      return spec;
    }
  }
}
