package dev.zop.provisioner.gcp;

import static dev.zop.provisioner.gcp.GcpPermissions.*;

import com.google.devtools.artifactregistry.v1.CreateRepositoryRequest;
import com.google.devtools.artifactregistry.v1.DeleteRepositoryRequest;
import com.google.devtools.artifactregistry.v1.ListDockerImagesRequest;
import com.google.devtools.artifactregistry.v1.Repository;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.DriverContext;
import dev.zop.provisioner.kit.ProviderStep;
import dev.zop.provisioner.kit.StatusPoll;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.OutputKey;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepContext;
import dev.zop.provisioner.spi.StepResult;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * An Artifact Registry Docker repository in the space's region. Its id is the spec's name with {@code /} as
 * {@code -} (repository ids take no slashes); images are pushed to
 * {@code <region>-docker.pkg.dev/<project>/<id>/<image>}. The repository is labelled with its job, adopted only
 * when the labels say this job made it, and never deleted while it holds images.
 */
final class RegistryDriver implements ResourceDriver<RegistrySpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> REPOSITORY_PART = GcpState.PART.of("repository");
  static final OutputKey<String> REPOSITORY_NAME = OutputKey.text("repositoryName");
  static final OutputKey<String> REPOSITORY_URI = OutputKey.text("repositoryUri");

  private final GcpClients clients;
  private final CloudCalls calls;
  private final String project;
  private final String region;
  private final StatusPoll poll;

  RegistryDriver(DriverContext<GcpClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.project = context.scope(GcpSession.PROJECT);
    this.region = context.region().get();
    this.poll = context.poll();
  }

  @Override
  public Class<RegistrySpec> specType() {
    return RegistrySpec.class;
  }

  @Override
  public List<FieldError> validate(RegistrySpec spec) {
    String id = repositoryId(spec);
    return id.length() > 63 ? List.of(FieldError.of("name", "too_long",
        "an Artifact Registry repository id has at most 63 characters")) : List.of();
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(RegistryDriver.class).and(OutputKeys.of(GcpState.PART, GcpState.OPERATION, GcpState.ID,
        GcpState.SELF_LINK));
  }

  @Override
  public List<Step> create(RegistrySpec spec) {
    return List.of(ProviderStep.of("create-repository", List.of(ARTIFACTREGISTRY_REPOSITORIES_GET,
        ARTIFACTREGISTRY_REPOSITORIES_CREATE), ctx -> createRepository(ctx, spec))
        .intending(ctx -> Map.ofEntries(REPOSITORY_PART.is("repository"))));
  }

  @Override
  public List<Step> teardown(RegistrySpec spec, Outputs recorded) {
    return List.of(ProviderStep.of("delete-repository", List.of(ARTIFACTREGISTRY_REPOSITORIES_GET,
        ARTIFACTREGISTRY_DOCKER_IMAGES_LIST, ARTIFACTREGISTRY_REPOSITORIES_DELETE), ctx -> deleteRepository(ctx, spec)));
  }

  @Override
  public String pricesAsOf() {
    return GcpPrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(RegistrySpec spec, String priceRegion) {
    return List.of(CostComponent.unknown("Artifact Registry storage", "GB-month", BigDecimal.ZERO,
        "billed by the images stored, which the spec does not say"));
  }

  private static Repository.DockerRepositoryConfig docker(RegistrySpec spec) {
    return Repository.DockerRepositoryConfig.newBuilder().setImmutableTags(spec.immutableTags()).build();
  }

  private static Repository.VulnerabilityScanningConfig scanning(RegistrySpec spec) {
    return Repository.VulnerabilityScanningConfig.newBuilder().setEnablementConfig(spec.scanOnPush()
        ? Repository.VulnerabilityScanningConfig.EnablementConfig.INHERITED
        : Repository.VulnerabilityScanningConfig.EnablementConfig.DISABLED).build();
  }

  /**
   * A repository's tag immutability and vulnerability scanning change where it stands: one
   * {@code repositories.patch} of the two configs, unless it has them.
   */
  @Override
  public dev.zop.provisioner.spi.Revision revise(RegistrySpec current, RegistrySpec revised, Outputs recorded) {
    if (!recorded.has(REPOSITORY_NAME)) {
      return dev.zop.provisioner.spi.Revision.none();
    }
    return dev.zop.provisioner.spi.Revision.of(List.of(ProviderStep.of("update-repository", List.of(
        ARTIFACTREGISTRY_REPOSITORIES_GET, ARTIFACTREGISTRY_REPOSITORIES_UPDATE), ctx -> updateRepository(ctx,
        revised)))).inPlace("immutableTags", "scanOnPush");
  }

  /** The repository's tag immutability and vulnerability scanning read back; the repository gone is missing. */
  @Override
  public dev.zop.provisioner.spi.CloudRead<List<dev.zop.provisioner.Drift>> observe(RegistrySpec spec,
      Outputs recorded) {
    if (!recorded.has(REPOSITORY_NAME)) {
      return null;
    }
    return dev.zop.provisioner.kit.ProviderRead.of(List.of(ARTIFACTREGISTRY_REPOSITORIES_GET), () -> {
      dev.zop.provisioner.kit.DriftFindings found = new dev.zop.provisioner.kit.DriftFindings();
      Repository existing = calls.findOrNull(ARTIFACTREGISTRY_REPOSITORIES_GET,
          () -> clients.artifactRegistry().getRepository(name(spec)));
      String resource = "artifact registry repository " + repositoryId(spec);
      if (existing == null) {
        return found.missing(resource).list();
      }
      return found.compare(resource, "immutableTags", spec.immutableTags(),
              existing.getDockerConfig().getImmutableTags())
          .compare(resource, "scanOnPush", spec.scanOnPush(), existing.getVulnerabilityScanningConfig()
              .getEnablementConfig() != Repository.VulnerabilityScanningConfig.EnablementConfig.DISABLED)
          .list();
    });
  }

  /** Tag immutability and scanning set back, as a revision to the same spec sets them. */
  @Override
  public dev.zop.provisioner.spi.Revision reconcile(RegistrySpec spec, Outputs recorded) {
    return revise(spec, spec, recorded);
  }

  private StepResult updateRepository(StepContext ctx, RegistrySpec spec) throws Exception {
    return GcpOwner.TAGS.changeInPlace(ctx, "repository", repositoryId(spec), () -> calls.findOrNull(
            ARTIFACTREGISTRY_REPOSITORIES_GET, () -> clients.artifactRegistry().getRepository(name(spec))),
        Repository::getLabelsMap, existing -> existing.getDockerConfig().equals(docker(spec))
            && existing.getVulnerabilityScanningConfig().getEnablementConfig()
                .equals(scanning(spec).getEnablementConfig()), existing -> {
          calls.call(ARTIFACTREGISTRY_REPOSITORIES_UPDATE, () -> clients.artifactRegistry().updateRepository(
              com.google.devtools.artifactregistry.v1.UpdateRepositoryRequest.newBuilder()
                  .setRepository(Repository.newBuilder().setName(existing.getName()).setDockerConfig(docker(spec))
                      .setVulnerabilityScanningConfig(scanning(spec)))
                  .setUpdateMask(com.google.protobuf.FieldMask.newBuilder().addPaths("docker_config.immutable_tags")
                      .addPaths("vulnerability_scanning_config.enablement_config")).build()));
          ctx.log("repository " + repositoryId(spec) + " now has immutable tags " + spec.immutableTags()
              + ", scanning " + spec.scanOnPush());
        });
  }

  static String repositoryId(RegistrySpec spec) {
    return spec.name().replace('/', '-').replace('.', '-').replace('_', '-');
  }

  private String name(RegistrySpec spec) {
    return "projects/" + project + "/locations/" + region + "/repositories/" + repositoryId(spec);
  }

  private StepResult createRepository(StepContext ctx, RegistrySpec spec) {
    Repository existing = calls.findOrNull(ARTIFACTREGISTRY_REPOSITORIES_GET,
        () -> clients.artifactRegistry().getRepository(name(spec)));
    if (existing == null) {
      ctx.recordIntent(Map.ofEntries(REPOSITORY_PART.is("repository")));
      Repository wanted = Repository.newBuilder().setFormat(Repository.Format.DOCKER)
          .setDescription("zop registry " + spec.name()).putAllLabels(GcpOwner.labels(ctx, "repository"))
          .setDockerConfig(docker(spec)).setVulnerabilityScanningConfig(scanning(spec)).build();
      try {
        calls.call(ARTIFACTREGISTRY_REPOSITORIES_CREATE, () -> clients.artifactRegistry().createRepositoryCallable()
            .call(CreateRepositoryRequest.newBuilder().setParent("projects/" + project + "/locations/" + region)
                .setRepositoryId(repositoryId(spec)).setRepository(wanted).build()));
      } catch (CloudCallException e) {
        if (!GcpErrors.isAlreadyExists(e)) {
          throw e;
        }
        // made by someone else a moment ago, or by this job's earlier attempt: the labels say which below
      }
      existing = calls.findOrNull(ARTIFACTREGISTRY_REPOSITORIES_GET,
          () -> clients.artifactRegistry().getRepository(name(spec)));
    }
    if (existing == null) {
      // the create is still being carried out
      return poll.waitFor(ctx, "repository " + repositoryId(spec) + " is being created");
    }
    Failure foreign = GcpOwner.TAGS.refuseForeign(existing.getLabelsMap(), ctx, "repository", repositoryId(spec));
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    return StepResult.done(REPOSITORY_PART.is("repository"), REPOSITORY_NAME.is(existing.getName()),
        REPOSITORY_URI.is(region + "-docker.pkg.dev/" + project + "/" + repositoryId(spec)));
  }

  private StepResult deleteRepository(StepContext ctx, RegistrySpec spec) {
    Repository existing = calls.findOrNull(ARTIFACTREGISTRY_REPOSITORIES_GET,
        () -> clients.artifactRegistry().getRepository(name(spec)));
    if (existing == null || !GcpOwner.TAGS.owns(existing.getLabelsMap(), ctx)) {
      return StepResult.done();
    }
    boolean hasImages = calls.call(ARTIFACTREGISTRY_DOCKER_IMAGES_LIST, () -> clients.artifactRegistry()
        .listDockerImages(ListDockerImagesRequest.newBuilder().setParent(name(spec)).setPageSize(1).build())
        .getPage().getValues().iterator().hasNext());
    if (hasImages) {
      return StepResult.fail(Failure.userAction("repository_not_empty", "Artifact Registry repository "
          + repositoryId(spec) + " still holds images", "Delete the images (or keep the repository and remove the"
          + " job's record of it), then retry the teardown.",
          "https://console.cloud.google.com/artifacts/docker/" + project + "/" + region + "/" + repositoryId(spec)
              + "?project=" + project));
    }
    calls.deleteIfExists(ARTIFACTREGISTRY_REPOSITORIES_DELETE, () -> clients.artifactRegistry()
        .deleteRepositoryCallable().call(DeleteRepositoryRequest.newBuilder().setName(name(spec)).build()));
    // the delete is an operation: the repository is there until it is done
    return calls.findOrNull(ARTIFACTREGISTRY_REPOSITORIES_GET,
        () -> clients.artifactRegistry().getRepository(name(spec))) == null ? StepResult.done()
        : poll.waitFor(ctx, "repository " + repositoryId(spec) + " is being deleted");
  }
}
