package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.kit.DriftFindings;
import dev.zop.provisioner.kit.ProviderRead;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
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
import software.amazon.awssdk.services.ecr.model.Tag;

/**
 * An ECR repository. An existing repository of the same name is adopted only when its tags say this job made
 * it. Teardown never deletes images: a repository that still holds some is a user_action failure.
 */
final class RegistryDriver implements ResourceDriver<RegistrySpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> REPOSITORY_NAME = OutputKey.text("repository.name");
  static final OutputKey<String> REPOSITORY_ARN = OutputKey.text("repositoryArn");
  static final OutputKey<String> REPOSITORY_URI = OutputKey.text("repositoryUri");

  private final EcrClient ecr;

  /** How long to wait before looking again when a repository appeared under our feet. */
  private final StatusPoll poll;

  RegistryDriver(EcrClient ecr, Duration poll) {
    this.ecr = ecr;
    this.poll = StatusPoll.every(poll);
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
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(RegistryDriver.class);
  }

  @Override
  public List<Step> create(RegistrySpec spec) {
    return List.of(ProviderStep.of("create-repository", List.of(ECR_DESCRIBE_REPOSITORIES, ECR_LIST_TAGS_FOR_RESOURCE,
        ECR_CREATE_REPOSITORY, ECR_TAG_RESOURCE), ctx -> createRepository(ctx, spec))
        .intending(ctx -> Map.ofEntries(REPOSITORY_NAME.is(spec.name()))));
  }

  /** Tag immutability and scan on push change where the repository stands; each call only when it differs. */
  @Override
  public Revision revise(RegistrySpec current, RegistrySpec revised, Outputs recorded) {
    return Revision.of(List.of(ProviderStep.of("update-repository", List.of(ECR_DESCRIBE_REPOSITORIES,
        ECR_LIST_TAGS_FOR_RESOURCE, ECR_PUT_IMAGE_TAG_MUTABILITY, ECR_PUT_IMAGE_SCANNING_CONFIGURATION),
        ctx -> updateRepository(ctx, revised)))).inPlace("immutableTags", "scanOnPush");
  }

  /** The repository's tag immutability and scan on push, read back; the repository gone is missing. */
  @Override
  public CloudRead<List<Drift>> observe(RegistrySpec spec, Outputs recorded) {
    if (!recorded.has(REPOSITORY_NAME)) {
      return null;
    }
    return ProviderRead.of(List.of(ECR_DESCRIBE_REPOSITORIES), () -> {
      DriftFindings found = new DriftFindings();
      Repository repository = find(spec.name());
      String resource = "ecr repository " + spec.name();
      if (repository == null) {
        return found.missing(resource).list();
      }
      return found.compare(resource, "immutableTags", spec.immutableTags(),
              repository.imageTagMutability() == ImageTagMutability.IMMUTABLE)
          .compare(resource, "scanOnPush", spec.scanOnPush(), repository.imageScanningConfiguration() != null
              && Boolean.TRUE.equals(repository.imageScanningConfiguration().scanOnPush()))
          .list();
    });
  }

  /** Tag immutability and scan on push set back, as a revision to the same spec sets them. */
  @Override
  public Revision reconcile(RegistrySpec spec, Outputs recorded) {
    return recorded.has(REPOSITORY_NAME) ? revise(spec, spec, recorded) : Revision.none();
  }

  private StepResult updateRepository(StepContext ctx, RegistrySpec revised) throws Exception {
    ImageTagMutability mutability = revised.immutableTags() ? ImageTagMutability.IMMUTABLE
        : ImageTagMutability.MUTABLE;
    return AwsTags.OWNER.changeInPlace(ctx, "ECR repository", revised.name(), () -> find(revised.name()),
        this::tagsOf, repository -> repository.imageTagMutability() == mutability
            && scansOnPush(repository) == revised.scanOnPush(), repository -> {
          if (repository.imageTagMutability() != mutability) {
            CALLS.call(ECR_PUT_IMAGE_TAG_MUTABILITY, () -> ecr.putImageTagMutability(r -> r
                .repositoryName(revised.name()).imageTagMutability(mutability)));
          }
          if (scansOnPush(repository) != revised.scanOnPush()) {
            CALLS.call(ECR_PUT_IMAGE_SCANNING_CONFIGURATION, () -> ecr.putImageScanningConfiguration(r -> r
                .repositoryName(revised.name()).imageScanningConfiguration(s -> s.scanOnPush(revised.scanOnPush()))));
          }
        });
  }

  private static boolean scansOnPush(Repository repository) {
    return repository.imageScanningConfiguration() != null
        && Boolean.TRUE.equals(repository.imageScanningConfiguration().scanOnPush());
  }

  @Override
  public List<Step> teardown(RegistrySpec spec, Outputs recorded) {
    if (!recorded.has(REPOSITORY_NAME)) {
      return List.of();
    }
    return List.of(ProviderStep.of("delete-repository", List.of(ECR_DESCRIBE_REPOSITORIES, ECR_LIST_TAGS_FOR_RESOURCE,
        ECR_DELETE_REPOSITORY), ctx -> deleteRepository(ctx, spec)));
  }

  @Override
  public String pricesAsOf() {
    return AwsPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(RegistrySpec spec, String region) {
    CostComponent perGb = AwsPrices.TABLE.monthly(region, "image storage", "GB-month", "ecr:storage-gb", BigDecimal.ONE);
    return List.of(CostComponent.unknown("image storage" + (perGb.priceKnown() ? " (USD " + perGb.unitPrice()
        + " per GB-month)" : ""), "GB-month", BigDecimal.ZERO, "depends on the images pushed"));
  }

  private StepResult createRepository(StepContext ctx, RegistrySpec spec) {
    Repository existing = find(spec.name());
    Failure foreign = existing == null ? null
        : AwsTags.OWNER.refuseForeign(tagsOf(existing), ctx, "ECR repository", spec.name());
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(REPOSITORY_NAME.is(spec.name())));
      try {
        existing = CALLS.call(ECR_CREATE_REPOSITORY, () -> ecr.createRepository(r -> r
            .repositoryName(spec.name())
            .imageTagMutability(spec.immutableTags() ? ImageTagMutability.IMMUTABLE : ImageTagMutability.MUTABLE)
            .imageScanningConfiguration(s -> s.scanOnPush(spec.scanOnPush()))
            .tags(Tag.builder().key(AwsTags.JOB).value(ctx.jobId().value()).build()))).repository();
      } catch (CloudCallException e) {
        if (e.getCause() instanceof RepositoryAlreadyExistsException) {
          return poll.waitFor(ctx, "repository " + spec.name() + " appeared meanwhile");
        }
        throw e;
      }
    }
    return StepResult.done(REPOSITORY_NAME.is(spec.name()), REPOSITORY_ARN.is(existing.repositoryArn()),
        REPOSITORY_URI.is(existing.repositoryUri()));
  }

  private StepResult deleteRepository(StepContext ctx, RegistrySpec spec) {
    Repository existing = find(spec.name());
    if (existing == null || !AwsTags.OWNER.owns(tagsOf(existing), ctx)) {
      return StepResult.done();
    }
    try {
      CALLS.call(ECR_DELETE_REPOSITORY, () -> ecr.deleteRepository(r -> r.repositoryName(spec.name())));
    } catch (CloudCallException e) {
      if (e.getCause() instanceof RepositoryNotEmptyException) {
        return StepResult.fail(Failure.userAction("repository_not_empty", "ECR repository " + spec.name()
            + " still holds images", "Delete the images you no longer need (or copy them elsewhere), then retry.",
            "https://console.aws.amazon.com/ecr/repositories"));
      }
      if (!CALLS.isNotFound(e)) {
        throw e;
      }
    }
    return StepResult.done();
  }

  private Repository find(String name) {
    var found = CALLS.findOrNull(ECR_DESCRIBE_REPOSITORIES,
        () -> ecr.describeRepositories(r -> r.repositoryNames(name)));
    return found == null || found.repositories().isEmpty() ? null : found.repositories().get(0);
  }

  private Map<String, String> tagsOf(Repository repository) {
    return AwsTags.asMap(CALLS.call(ECR_LIST_TAGS_FOR_RESOURCE,
        () -> ecr.listTagsForResource(r -> r.resourceArn(repository.repositoryArn()))).tags(), Tag::key, Tag::value);
  }
}
