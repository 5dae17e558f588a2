package dev.zop.provisioner.azure;

import static dev.zop.provisioner.azure.AzureActions.*;

import com.azure.resourcemanager.containerregistry.fluent.models.RegistryInner;
import com.azure.resourcemanager.containerregistry.models.Sku;
import com.azure.resourcemanager.containerregistry.models.SkuName;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An Azure Container Registry (Basic SKU, admin user off) in the space's resource group. ACR names are global
 * and alphanumeric: the spec's name without its separators. The registry carries its job in its tags; a resumed
 * step adopts only a registry whose tags say its job made it. ARM's PUT is idempotent, so the create is sent and
 * the next step reads the provisioning state, holding no thread.
 */
final class RegistryDriver implements ResourceDriver<RegistrySpec> {
  // The state its steps hand each other, declared once: create, teardown and plan use these keys.
  static final OutputKey<String> REGISTRY_NAME = OutputKey.text("registryName");
  static final OutputKey<String> REGISTRY_ID = OutputKey.text("registryId");
  static final OutputKey<String> LOGIN_SERVER = OutputKey.text("loginServer");
  static final OutputKey<String> REPOSITORY_URI = OutputKey.text("repositoryUri");

  private final AzureClients clients;
  private final CloudCalls calls;
  private final String resourceGroup;
  private final java.util.function.Supplier<String> location;
  private final StatusPoll poll;

  RegistryDriver(DriverContext<AzureClients> context) {
    this.clients = context.clients();
    this.calls = context.calls();
    this.resourceGroup = context.scope(AzureSession.RESOURCE_GROUP);
    this.location = context.region();
    this.poll = context.poll();
  }

  @Override
  public Class<RegistrySpec> specType() {
    return RegistrySpec.class;
  }

  static String registryName(RegistrySpec spec) {
    return spec.name().replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
  }

  @Override
  public List<FieldError> validate(RegistrySpec spec) {
    List<FieldError> errors = new ArrayList<>();
    int length = registryName(spec).length();
    if (length < 5 || length > 50) {
      errors.add(FieldError.of("name", "invalid_length", "an Azure Container Registry name is 5 to 50 letters and"
          + " digits once separators are left out"));
    }
    if (spec.immutableTags() || spec.scanOnPush()) {
      errors.add(FieldError.of(spec.immutableTags() ? "immutableTags" : "scanOnPush", "unsupported",
          "the Azure provider does not set registry tag locking or scanning yet"));
    }
    return errors;
  }

  @Override
  public OutputKeys outputKeys() {
    return OutputKeys.declaredIn(RegistryDriver.class);
  }

  @Override
  public List<Step> create(RegistrySpec spec) {
    return List.of(
        ProviderStep.of("create-registry", List.of(REGISTRIES_READ, REGISTRIES_WRITE, RESOURCE_GROUPS_READ),
            ctx -> createRegistry(ctx, spec)).intending(ctx -> Map.ofEntries(REGISTRY_NAME.is(registryName(spec)))),
        ProviderStep.of("await-registry", List.of(REGISTRIES_READ), ctx -> awaitRegistry(ctx, spec)));
  }

  @Override
  public List<Step> teardown(RegistrySpec spec, Outputs recorded) {
    return List.of(ProviderStep.of("delete-registry", List.of(REGISTRIES_READ, REGISTRIES_DELETE),
        ctx -> deleteRegistry(ctx, spec)));
  }

  @Override
  public String pricesAsOf() {
    return AzurePrices.TABLE.asOf();
  }

  @Override
  public List<CostComponent> price(RegistrySpec spec, String spaceRegion) {
    String priceRegion = AzurePrices.region(spaceRegion, location);
    return List.of(AzurePrices.TABLE.monthly(priceRegion, "Container Registry Basic", "registry-month",
        "acr:basic", java.math.BigDecimal.ONE));
  }

  private RegistryInner find(RegistrySpec spec) {
    return calls.findOrNull(REGISTRIES_READ, () -> clients.registry().serviceClient().getRegistries()
        .getByResourceGroup(resourceGroup, registryName(spec)));
  }

  private StepResult createRegistry(StepContext ctx, RegistrySpec spec) throws Exception {
    return AzureTags.OWNER.createOrAdopt(ctx, "container registry", registryName(spec), () -> find(spec),
        RegistryInner::tags, Map.ofEntries(REGISTRY_NAME.is(registryName(spec))), () -> {
          RegistryInner wanted = new RegistryInner().withSku(new Sku().withName(SkuName.BASIC))
              .withAdminUserEnabled(false);
          wanted.withLocation(location.get()).withTags(AzureTags.OWNER.of(ctx, "registry"));
          calls.call(REGISTRIES_WRITE, () -> clients.registry().serviceClient().getRegistries()
              .beginCreate(resourceGroup, registryName(spec), wanted));
        }, Map.ofEntries(REGISTRY_NAME.is(registryName(spec))));
  }

  private StepResult awaitRegistry(StepContext ctx, RegistrySpec spec) {
    RegistryInner registry = find(spec);
    if (registry == null) {
      return poll.waitFor(ctx, "registry " + registryName(spec) + " is not visible yet");
    }
    String state = String.valueOf(registry.provisioningState());
    return switch (state) {
      case "Succeeded" -> StepResult.done(LOGIN_SERVER.is(registry.loginServer()),
          REPOSITORY_URI.is(registry.loginServer() + "/" + spec.name()), REGISTRY_ID.is(registry.id()));
      case "Failed", "Canceled" -> StepResult.fail(Failure.userAction("registry_" + state.toLowerCase(Locale.ROOT),
          "registry " + registryName(spec) + " is " + state, "See the registry in the portal, then retry.", null));
      default -> poll.waitFor(ctx, "registry " + registryName(spec) + " is " + state);
    };
  }

  private StepResult deleteRegistry(StepContext ctx, RegistrySpec spec) throws Exception {
    return poll.deleteAndWait(ctx, "registry " + registryName(spec), () -> find(spec),
        registry -> AzureTags.OWNER.owns(registry.tags(), ctx), registry -> false,
        registry -> calls.deleteIfExists(REGISTRIES_DELETE, () -> clients.registry().serviceClient().getRegistries()
            .beginDelete(resourceGroup, registryName(spec))));
  }
}
