package dev.zop.provisioner.sim;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import java.util.List;
import java.util.Objects;

/**
 * A provider (a test double around another, usually the simulated one) whose jobs of one kind run the given steps
 * instead of the provider's own, and tear down with none; validation, prices and every other kind are the
 * provider's. For tests and benchmarks that need a job to behave a particular way: poll for ever, write a firehose
 * of events. A test double, as the simulated provider is.
 */
public final class ReplacedSteps implements CloudProvider {
  private final CloudProvider provider;
  private final JobKind kind;
  private final List<Step> steps;

  public ReplacedSteps(CloudProvider provider, JobKind kind, List<Step> steps) {
    this.provider = Objects.requireNonNull(provider, "provider");
    this.kind = Objects.requireNonNull(kind, "kind");
    this.steps = List.copyOf(steps);
  }

  @Override
  public ProviderMetadata metadata() {
    return provider.metadata();
  }

  @Override
  public dev.zop.provisioner.discovery.Offerings offerings(String region) {
    return provider.offerings(region);
  }

  @Override
  public java.util.Map<String, java.util.Set<String>> remediationTypes() {
    return provider.remediationTypes();
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    ProviderSession session = provider.open(account, region);
    return new ProviderSession() {
      @Override
      public ResourceDriver<? extends ResourceSpec> driver(JobKind wanted) {
        @SuppressWarnings("unchecked")
        ResourceDriver<ResourceSpec> inner = (ResourceDriver<ResourceSpec>) session.driver(wanted);
        return wanted == kind ? new Replaced(inner) : inner;
      }

      @Override
      public Failure classify(Throwable error) {
        return session.classify(error);
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }

  private final class Replaced implements ResourceDriver<ResourceSpec> {
    private final ResourceDriver<ResourceSpec> inner;

    Replaced(ResourceDriver<ResourceSpec> inner) {
      this.inner = inner;
    }

    @Override
    public Class<ResourceSpec> specType() {
      return inner.specType();
    }

    @Override
    public List<FieldError> validate(ResourceSpec spec) {
      return inner.validate(spec);
    }

    @Override
    public List<Step> create(ResourceSpec spec) {
      return steps;
    }

    @Override
    public List<Step> teardown(ResourceSpec spec, Outputs recorded) {
      return List.of();
    }

    @Override
    public List<CostComponent> price(ResourceSpec spec, String region) {
      return inner.price(spec, region);
    }
  }
}
