package dev.zop.provisioner.examples.localcloud;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.OwnerTags;
import dev.zop.provisioner.kit.PriceTable;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Registries as directories: every part of a driver written on the kit, in a few dozen lines. */
final class RegistryDriver implements ResourceDriver<RegistrySpec> {
  // each permission is written once: the steps declare it, the calls are tagged with it
  static final String GET = "local:GetRegistry";
  static final String CREATE = "local:CreateRegistry";
  static final String DELETE = "local:DeleteRegistry";
  static final PriceTable PRICES = PriceTable.load(RegistryDriver.class, "prices.json");
  /** The registry's name: the one output its steps record. */
  static final OutputKey<String> REGISTRY_NAME = OutputKey.text("registry.name");
  /** The local cloud keeps one tag per registry: the job that made it. */
  private static final OwnerTags OWNER = new OwnerTags("owner", "part");
  /** How long a step waits before it looks again whether a delete has finished. */
  private static final StatusPoll POLL = StatusPoll.every(Duration.ofSeconds(1));

  private final LocalCloud cloud;
  private final CloudCalls calls;

  RegistryDriver(LocalCloud cloud, CloudCalls calls) {
    this.cloud = cloud;
    this.calls = calls;
  }

  @Override
  public Class<RegistrySpec> specType() {
    return RegistrySpec.class;
  }

  @Override
  public List<FieldError> validate(RegistrySpec spec) {
    return spec.name().contains("..") ? List.of(FieldError.of("name", "invalid", "must not contain '..'"))
        : List.of();
  }

  @Override
  public List<Step> create(RegistrySpec spec) {
    return List.of(ProviderStep.of("create-registry", List.of(GET, CREATE), ctx -> create(ctx, spec)));
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.of(REGISTRY_NAME);
  }

  @Override
  public List<Step> teardown(RegistrySpec spec, Outputs recorded) {
    return List.of(ProviderStep.of("delete-registry", List.of(GET, DELETE), ctx -> delete(ctx, spec)));
  }

  @Override
  public List<CostComponent> price(RegistrySpec spec, String region) {
    return List.of(PRICES.monthly(region, "registry storage", "GB-month", "storage:gb", BigDecimal.ONE));
  }

  @Override
  public String pricesAsOf() {
    return PRICES.asOf();
  }

  /**
   * Create-or-adopt: a registry under the name that this job made (before a crash, say) is adopted, another's is
   * refused, and none is created with the job's tag in the same call, after the name is recorded.
   */
  private StepResult create(StepContext ctx, RegistrySpec spec) throws Exception {
    String name = directory(spec);
    return OWNER.createOrAdopt(ctx, "registry", name, () -> ownerOf(name), owner -> Map.of(OWNER.jobKey(), owner),
        Map.ofEntries(REGISTRY_NAME.is(name)), () -> calls.run(CREATE, () -> cloud.create(name, ctx.jobId().value())),
        Map.ofEntries(REGISTRY_NAME.is(name)));
  }

  /** Delete-and-wait: the registry goes if it is this job's, and the step is done once it is gone. */
  private StepResult delete(StepContext ctx, RegistrySpec spec) throws Exception {
    String name = directory(spec);
    return POLL.deleteAndWait(ctx, "registry " + name, () -> ownerOf(name),
        owner -> OWNER.owns(Map.of(OWNER.jobKey(), owner), ctx), owner -> false,
        owner -> calls.deleteIfExists(DELETE, () -> cloud.delete(name)));
  }

  /** The job the registry's tag names, or null when there is no such registry. */
  private String ownerOf(String name) {
    return calls.findOrNull(GET, () -> cloud.owner(name));
  }

  private static String directory(RegistrySpec spec) {
    return spec.name().replace('/', '_');
  }
}
