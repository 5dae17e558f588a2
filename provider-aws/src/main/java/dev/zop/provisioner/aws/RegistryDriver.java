package dev.zop.provisioner.aws;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.ecr.model.ImageTagMutability;
import software.amazon.awssdk.services.ecr.model.Repository;
import software.amazon.awssdk.services.ecr.model.RepositoryAlreadyExistsException;
import software.amazon.awssdk.services.ecr.model.RepositoryNotEmptyException;
import software.amazon.awssdk.services.ecr.model.RepositoryNotFoundException;
import software.amazon.awssdk.services.ecr.model.Tag;

/**
 * An ECR repository. An existing repository of the same name is adopted only when its tags say this job made
 * it. Teardown never deletes images: a repository that still holds some is a user_action failure.
 */
final class RegistryDriver implements ResourceDriver<RegistrySpec> {
  private final EcrClient ecr;

  /** How long to wait before looking again when a repository appeared under our feet. */
  private final Duration poll;

  RegistryDriver(EcrClient ecr, Duration poll) {
    this.ecr = ecr;
    this.poll = poll;
  }

  @Override
  public Class<RegistrySpec> specType() {
    return RegistrySpec.class;
  }

  @Override
  public List<FieldError> validate(RegistrySpec spec) {
    return List.of();
  }

  @Override
  public List<Step> create(RegistrySpec spec) {
    return List.of(new AwsStep("create-repository", List.of("ecr:DescribeRepositories", "ecr:ListTagsForResource",
        "ecr:CreateRepository", "ecr:TagResource"), ctx -> createRepository(ctx, spec)));
  }

  @Override
  public List<Step> teardown(RegistrySpec spec, Outputs recorded) {
    if (!recorded.has("repository.name")) {
      return List.of();
    }
    return List.of(new AwsStep("delete-repository", List.of("ecr:DescribeRepositories", "ecr:ListTagsForResource",
        "ecr:DeleteRepository"), ctx -> deleteRepository(ctx, spec)));
  }

  @Override
  public List<CostComponent> price(RegistrySpec spec, String region) {
    CostComponent perGb = AwsPrices.monthly(region, "image storage", "GB-month", "ecr:storage-gb", BigDecimal.ONE);
    return List.of(CostComponent.unknown("image storage" + (perGb.priceKnown() ? " (USD " + perGb.unitPrice()
        + " per GB-month)" : ""), "GB-month", BigDecimal.ZERO, "depends on the images pushed"));
  }

  private StepResult createRepository(StepContext ctx, RegistrySpec spec) {
    Repository existing = find(spec.name());
    if (existing != null && !ours(ctx, existing)) {
      return StepResult.fail(Failure.userAction("name_in_use", "ECR repository " + spec.name()
          + " exists and was not created by this job", "Choose another name, or delete the existing repository.",
          "https://console.aws.amazon.com/ecr/repositories"));
    }
    if (existing == null) {
      ctx.recordIntent(Map.of("repository.name", spec.name()));
      try {
        existing = AwsErrors.call("ecr:CreateRepository", () -> ecr.createRepository(r -> r
            .repositoryName(spec.name())
            .imageTagMutability(spec.immutableTags() ? ImageTagMutability.IMMUTABLE : ImageTagMutability.MUTABLE)
            .imageScanningConfiguration(s -> s.scanOnPush(spec.scanOnPush()))
            .tags(Tag.builder().key(AwsTags.JOB).value(ctx.jobId().value()).build()))).repository();
      } catch (AwsActionException e) {
        if (e.getCause() instanceof RepositoryAlreadyExistsException) {
          return StepResult.waitFor(poll, "repository " + spec.name() + " appeared meanwhile");
        }
        throw e;
      }
    }
    return StepResult.done(Map.of("repository.name", spec.name(), "repositoryArn", existing.repositoryArn(),
        "repositoryUri", existing.repositoryUri()));
  }

  private StepResult deleteRepository(StepContext ctx, RegistrySpec spec) {
    Repository existing = find(spec.name());
    if (existing == null || !ours(ctx, existing)) {
      return StepResult.done();
    }
    try {
      AwsErrors.call("ecr:DeleteRepository", () -> ecr.deleteRepository(r -> r.repositoryName(spec.name())));
    } catch (AwsActionException e) {
      if (e.getCause() instanceof RepositoryNotEmptyException) {
        return StepResult.fail(Failure.userAction("repository_not_empty", "ECR repository " + spec.name()
            + " still holds images", "Delete the images you no longer need (or copy them elsewhere), then retry.",
            "https://console.aws.amazon.com/ecr/repositories"));
      }
      if (!(e.getCause() instanceof RepositoryNotFoundException)) {
        throw e;
      }
    }
    return StepResult.done();
  }

  private Repository find(String name) {
    try {
      List<Repository> found = AwsErrors.call("ecr:DescribeRepositories",
          () -> ecr.describeRepositories(r -> r.repositoryNames(name))).repositories();
      return found.isEmpty() ? null : found.get(0);
    } catch (AwsActionException e) {
      if (e.getCause() instanceof RepositoryNotFoundException) {
        return null;
      }
      throw e;
    }
  }

  private boolean ours(StepContext ctx, Repository repository) {
    return AwsErrors.call("ecr:ListTagsForResource",
        () -> ecr.listTagsForResource(r -> r.resourceArn(repository.repositoryArn()))).tags().stream()
        .anyMatch(t -> t.key().equals(AwsTags.JOB) && t.value().equals(ctx.jobId().value()));
  }
}
