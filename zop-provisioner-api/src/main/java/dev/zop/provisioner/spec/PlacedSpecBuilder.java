package dev.zop.provisioner.spec;

import dev.zop.provisioner.ValidationException;
import java.util.ArrayList;
import java.util.List;

/**
 * What the builders of specs placed in a network share: a name, the network ({@code vpcID}) and its subnets, and
 * {@link #build()}'s validation.
 *
 * @param <B> the builder itself, which each setter returns
 * @param <S> the spec it builds
 */
abstract class PlacedSpecBuilder<B extends PlacedSpecBuilder<B, S>, S extends ResourceSpec>
    implements SpecBuilder<S> {
  String name;
  String vpcId;
  List<String> subnetIds = new ArrayList<>();

  PlacedSpecBuilder() {}

  public B name(String value) {
    this.name = value;
    return self();
  }

  /** An existing network to use; without one, the provider's default (see the plan's defaults). */
  public B vpcId(String value) {
    this.vpcId = value;
    return self();
  }

  public B subnetIds(List<String> values) {
    this.subnetIds = new ArrayList<>(values);
    return self();
  }

  public B subnetIds(String... values) {
    return subnetIds(List.of(values));
  }

  /** The spec this builder holds, not yet validated. */
  abstract S spec();

  @Override
  public S build() {
    S spec = spec();
    ValidationException.throwIfAny(spec.validate());
    return spec;
  }

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }
}
