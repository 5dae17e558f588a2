package dev.zop.provisioner.core.internal.providers;

import dev.zop.provisioner.CostComponent;
import dev.zop.provisioner.Drift;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.PlanWarning;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.Adoption;
import dev.zop.provisioner.spi.CloudRead;
import dev.zop.provisioner.spi.Defaulted;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.Step;
import java.util.List;

/**
 * A catalog component in a space that names no cluster, made by the space's provider (which makes components
 * itself): the catalog's word on the spec — the chart version it pins, whether it lists the component, what it says
 * of its upstream — comes from the installer, as for a space with a cluster, without reaching for one; what is
 * made, priced, observed and torn down comes from the provider.
 */
final class CatalogComponentsOnProvider implements ResourceDriver<ResourceSpec> {
  private final ResourceDriver<ResourceSpec> catalog;
  private final ResourceDriver<ResourceSpec> provider;

  CatalogComponentsOnProvider(ResourceDriver<ResourceSpec> catalog, ResourceDriver<ResourceSpec> provider) {
    this.catalog = catalog;
    this.provider = provider;
  }

  @Override
  public Class<ResourceSpec> specType() {
    return provider.specType();
  }

  @Override
  public Defaulted<ResourceSpec> withDefaults(ResourceSpec spec) {
    return catalog.withDefaults(spec);
  }

  @Override
  public List<FieldError> validate(ResourceSpec spec) {
    List<FieldError> listed = catalog.validate(spec);
    return listed.isEmpty() ? provider.validate(spec) : listed;
  }

  @Override
  public List<PlanWarning> warnings(ResourceSpec spec) {
    return catalog.warnings(spec);
  }

  @Override
  public OutputKeys outputKeys() {
    return provider.outputKeys();
  }

  @Override
  public List<Step> create(ResourceSpec spec) {
    return provider.create(spec);
  }

  @Override
  public List<Step> teardown(ResourceSpec spec, Outputs recorded) {
    return provider.teardown(spec, recorded);
  }

  @Override
  public Revision revise(ResourceSpec current, ResourceSpec revised, Outputs recorded) {
    return provider.revise(current, revised, recorded);
  }

  @Override
  public CloudRead<List<Drift>> observe(ResourceSpec spec, Outputs recorded) {
    return provider.observe(spec, recorded);
  }

  @Override
  public Revision reconcile(ResourceSpec spec, Outputs recorded) {
    return provider.reconcile(spec, recorded);
  }

  @Override
  public CloudRead<Adoption<ResourceSpec>> findExisting(String externalId) {
    return provider.findExisting(externalId);
  }

  @Override
  public List<Step> adopt(ResourceSpec found, String externalId) {
    return provider.adopt(found, externalId);
  }

  @Override
  public List<CostComponent> price(ResourceSpec spec, String region) {
    return provider.price(spec, region);
  }

  @Override
  public String pricesAsOf() {
    return provider.pricesAsOf();
  }
}
