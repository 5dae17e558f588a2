package dev.zop.provisioner.sim;

import dev.zop.provisioner.kit.Offered;
import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.discovery.Offerings;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.kit.OwnerTags;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import dev.zop.provisioner.remediation.BuiltInTemplates;

/**
 * <b>A simulation, not a cloud</b>: the {@code sim} provider provisions every job kind into an in-memory
 * {@link SimCloud}, so engines, hosts, tests and demos run without a cloud; nothing it "creates" exists anywhere.
 * It is never discovered on its own: a host asks for it ({@code builder.provider(new SimProvider())}, or
 * {@code zop serve --demo}), or uses the testkit, which registers it with {@link java.util.ServiceLoader} for tests.
 */
public final class SimProvider implements CloudProvider {
  /** The tag every simulated resource carries: the id of the job that created it. */
  public static final String JOB_TAG = "zop:job";
  /** The default provider id. */
  public static final String ID = "sim";
  static final OwnerTags OWNER = new OwnerTags(JOB_TAG, "zop:part");

  private final SimCloud cloud;
  private final ProviderMetadata metadata;

  /** The {@code sim} provider on {@link SimCloud#shared()}. */
  public SimProvider() {
    this(SimCloud.shared());
  }

  public SimProvider(SimCloud cloud) {
    this(cloud, ID);
  }

  /**
   * A sim that answers to another provider id (for example {@code azure}), so host code that branches on the
   * provider can be tested. Spaces of it need {@code config.resourceGroup} when the id is {@code azure}, else
   * {@code config.region}, as the real providers do.
   */
  public SimProvider(SimCloud cloud, String id) {
    this.cloud = cloud;
    Set<JobKind> kinds = EnumSet.allOf(JobKind.class);
    kinds.remove(JobKind.REMEDIATION);
    this.metadata = new ProviderMetadata(id, "Simulated cloud (nothing real is created) as '" + id + "'", kinds, List.of(),
        Set.of(id.equals("azure") ? "resourceGroup" : "region"),
        Map.of(JobKind.KUBERNETES, Duration.ofMinutes(40), JobKind.DATASTORE, Duration.ofMinutes(60)));
  }

  private SimProvider(SimCloud cloud, ProviderMetadata metadata) {
    this.cloud = cloud;
    this.metadata = metadata;
  }

  /** The same provider with other time limits per kind (how long a step may wait for the cloud). */
  public SimProvider timeouts(Map<JobKind, Duration> limits) {
    return new SimProvider(cloud, new ProviderMetadata(metadata.id(), metadata.displayName(), metadata.kinds(),
        metadata.regions(), metadata.requiredSpaceConfig(), limits));
  }

  public SimCloud cloud() {
    return cloud;
  }

  /**
   * The simulated cloud acts on any workload it holds; it stands in for a service without a stop and for a cluster
   * whose pause deletes it under the clouds' own names for them.
   */
  @Override
  public Map<String, Set<String>> remediationTypes() {
    return Map.of(BuiltInTemplates.PAUSE_SERVICE, Set.of("synapse-pool"),
        BuiltInTemplates.PAUSE_DATAPROC, Set.of("dataproc-cluster"));
  }

  @Override
  public ProviderMetadata metadata() {
    return metadata;
  }

  /** The simulated cloud's lists: the neutral sizes at its made-up prices, and the versions it provisions. */
  @Override
  public Offerings offerings(String region) {
    return new Offerings(metadata.id(), region, null,
        Offered.sizes(MachineSizes.ALIASES, name -> name, SimPrices::hourly),
        Offered.sizes(Offered.databaseAliases(), name -> name, SimPrices::hourly),
        Offered.sizes(MachineSizes.CACHE_ALIASES, name -> name, SimPrices::hourly),
        SimDrivers.KUBERNETES_VERSIONS.stream().sorted().toList(), SimDrivers.ENGINE_VERSIONS);
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    return new SimSession(cloud, region);
  }
}
