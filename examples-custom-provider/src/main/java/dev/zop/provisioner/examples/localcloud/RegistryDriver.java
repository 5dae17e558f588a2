package dev.zop.provisioner.examples.localcloud;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.OwnerTags;
import dev.zop.provisioner.kit.PriceTable;
import dev.zop.provisioner.kit.ProviderStep;
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

/** Registries as directories: every part of a driver written on the kit, in a few dozen lines. */
final class RegistryDriver implements ResourceDriver<RegistrySpec> {
  // each permission is written once: the steps declare it, the calls are tagged with it
  static final String GET = "local:GetRegistry";
  static final String CREATE = "local:CreateRegistry";
  static final String DELETE = "local:DeleteRegistry";
  static final PriceTable PRICES = PriceTable.load(RegistryDriver.class, "prices.json");
  /** The local cloud keeps one tag per registry: the job that made it. */
  /** The registry's name: the one entry of state its steps record. */
  static final OutputKey<String> REGISTRY_NAME = OutputKey.text("registry.name");
  private static final OwnerTags OWNER = new OwnerTags("owner", "part");

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

  /** Observe, then adopt what is ours, refuse what is not, or create with the tag in the same call. */
  private StepResult create(StepContext ctx, RegistrySpec spec) {
    String name = directory(spec);
    String owner = calls.findOrNull(GET, () -> cloud.owner(name));
    Failure foreign = owner == null ? null : OWNER.refuseForeign(Map.of(OWNER.jobKey(), owner), ctx, "registry", name);
    if (foreign != null) {
      return StepResult.fail(foreign);
    }
    if (owner == null) {
      ctx.recordIntent(Map.ofEntries(REGISTRY_NAME.is(name)));
      calls.run(CREATE, () -> cloud.create(name, ctx.jobId().value()));
    } else {
      ctx.log("adopted registry " + name);
    }
    return StepResult.done(REGISTRY_NAME.is(name));
  }

  /** Deletes the registry if it is this job's; one that is gone, or another's, is left as it is. */
  private StepResult delete(StepContext ctx, RegistrySpec spec) {
    String name = directory(spec);
    String owner = calls.findOrNull(GET, () -> cloud.owner(name));
    if (owner != null && OWNER.owns(Map.of(OWNER.jobKey(), owner), ctx)) {
      calls.deleteIfExists(DELETE, () -> cloud.delete(name));
    }
    return StepResult.done();
  }

  private static String directory(RegistrySpec spec) {
    return spec.name().replace('/', '_');
  }
}
