package dev.zop.provisioner.aws;

import dev.zop.provisioner.kit.OwnerTags;
import dev.zop.provisioner.spi.StepContext;
import java.util.Collection;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/** The tags every resource the provider creates carries: the job that owns it and its part in the job. */
final class AwsTags {
  static final String JOB = "zop:job";
  static final String PART = "zop:part";
  static final String NAME = "Name";
  static final OwnerTags OWNER = new OwnerTags(JOB, PART);

  private AwsTags() {}

  /** Whether tags in one AWS SDK's own tag type say this step's job made the resource. */
  static <T> boolean ownedBy(Collection<T> tags, Function<T, String> key, Function<T, String> value,
      StepContext ctx) {
    return OWNER.owns(asMap(tags, key, value), ctx);
  }

  static <T> Map<String, String> asMap(Collection<T> tags, Function<T, String> key, Function<T, String> value) {
    return tags.stream().filter(t -> key.apply(t) != null && value.apply(t) != null)
        .collect(Collectors.toMap(key, value, (a, b) -> a));
  }
}
