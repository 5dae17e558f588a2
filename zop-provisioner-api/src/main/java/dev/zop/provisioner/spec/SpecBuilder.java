package dev.zop.provisioner.spec;

/** A builder of a spec; {@link #build()} validates and throws a {@code ValidationException} naming every bad field. */
public interface SpecBuilder<S extends ResourceSpec> {
  S build();
}
