package dev.zop.provisioner.aws;

import dev.zop.provisioner.kit.OwnerTags;
import dev.zop.provisioner.spi.StepContext;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.ResourceType;
import software.amazon.awssdk.services.ec2.model.Tag;
import software.amazon.awssdk.services.ec2.model.TagSpecification;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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

  /** EC2 filters that find what this job made as {@code part}, however many times an earlier attempt made it. */
  static List<Filter> ec2Filters(StepContext ctx, String part) {
    return OWNER.of(ctx, part).entrySet().stream()
        .map(t -> Filter.builder().name("tag:" + t.getKey()).values(t.getValue()).build()).toList();
  }

  /** The owner tags and a {@code Name} for an EC2 resource of this type, applied as it is created. */
  static TagSpecification ec2TagSpec(ResourceType type, StepContext ctx, String part, String name) {
    List<Tag> tags = new ArrayList<>();
    OWNER.of(ctx, part).forEach((k, v) -> tags.add(Tag.builder().key(k).value(v).build()));
    tags.add(Tag.builder().key(NAME).value(name).build());
    return TagSpecification.builder().resourceType(type).tags(tags).build();
  }

  /** Whether EC2 tags say this job made the resource as {@code part}. */
  static boolean ec2PartOf(List<Tag> tags, StepContext ctx, String part) {
    return asMap(tags, Tag::key, Tag::value).entrySet().containsAll(OWNER.of(ctx, part).entrySet());
  }

  static <T> Map<String, String> asMap(Collection<T> tags, Function<T, String> key, Function<T, String> value) {
    return tags.stream().filter(t -> key.apply(t) != null && value.apply(t) != null)
        .collect(Collectors.toMap(key, value, (a, b) -> a));
  }
}
