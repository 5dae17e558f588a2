package dev.zop.provisioner.aws;

import dev.zop.provisioner.kit.Offered;
import dev.zop.provisioner.kit.MachineSizes;
import dev.zop.provisioner.discovery.Offerings;
import com.google.auto.service.AutoService;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spi.CallMetrics;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.metrics.MetricPublisher;
import dev.zop.provisioner.remediation.BuiltInTemplates;

/**
 * Amazon Web Services, through the AWS SDK for Java v2.
 *
 * <p>A cloud account's {@code credentialsRef} says where credentials come from, never what they are:
 * {@code default-chain} (or none) for the SDK's default chain; {@code role:<role ARN>} to assume a role (property
 * {@code externalId} when the role requires one); {@code profile:<name>} for static keys in a shared credentials
 * file; {@code env:<PREFIX>} for static keys in {@code <PREFIX>_ACCESS_KEY_ID} and
 * {@code <PREFIX>_SECRET_ACCESS_KEY}. Property {@code endpoint} points every client at another endpoint, such as an
 * emulator.
 */
@AutoService(CloudProvider.class)
public final class AwsProvider implements CloudProvider {
  static final List<String> REGIONS = List.of("us-east-1", "us-east-2", "us-west-1", "us-west-2", "ca-central-1",
      "eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1", "eu-north-1", "ap-south-1", "ap-southeast-1",
      "ap-southeast-2", "ap-northeast-1", "ap-northeast-2", "sa-east-1");

  static final String ID = "aws";

  private static final ProviderMetadata METADATA = new ProviderMetadata(ID, "Amazon Web Services",
      Set.of(JobKind.KUBERNETES, JobKind.VM_POOL, JobKind.NETWORK, JobKind.REGISTRY, JobKind.DATASTORE), REGIONS,
      Set.of("region"),
      Map.of(JobKind.KUBERNETES, Duration.ofMinutes(40), JobKind.VM_POOL, Duration.ofMinutes(20),
          JobKind.NETWORK, Duration.ofMinutes(20), JobKind.REGISTRY, Duration.ofMinutes(5),
          JobKind.DATASTORE, Duration.ofMinutes(60)));

  private final List<ExecutionInterceptor> interceptors;
  private final List<MetricPublisher> publishers;
  private final Duration pollInterval;

  /** The provider as {@link java.util.ServiceLoader} makes it: no interceptors, AWS's own waiting times. */
  public AwsProvider() {
    this(List.of(), List.of(), null);
  }

  private AwsProvider(List<ExecutionInterceptor> interceptors, List<MetricPublisher> publishers,
      Duration pollInterval) {
    this.interceptors = List.copyOf(interceptors);
    this.publishers = List.copyOf(publishers);
    this.pollInterval = pollInterval;
  }

  /** The provider with SDK interceptors added to every client (request logging, call recording in tests). */
  public static AwsProvider withInterceptors(ExecutionInterceptor... added) {
    return new AwsProvider(List.of(added), List.of(), null);
  }

  /**
   * The same provider with the SDK's metrics of every call (duration, retries, throttling, per service and
   * operation) handed to {@code publisher}, for example {@link AwsSdkMeters} into a Micrometer registry.
   */
  public AwsProvider metricPublisher(MetricPublisher publisher) {
    List<MetricPublisher> all = new java.util.ArrayList<>(publishers);
    all.add(java.util.Objects.requireNonNull(publisher));
    return new AwsProvider(interceptors, all, pollInterval);
  }

  @Override
  public AwsProvider withCallMetrics(CallMetrics metrics) {
    return metricPublisher(new AwsCallMetrics(metrics));
  }

  /**
   * The same provider checking on resources that are still being created or deleted every {@code interval}
   * instead of each kind's default (5 s for networks up to 30 s for clusters); for emulators and tests.
   */
  @Override
  public AwsProvider pollingEvery(Duration interval) {
    return new AwsProvider(interceptors, publishers, interval);
  }

  /** What {@link AwsRemediationActions} stops: EC2 instances and RDS instances. */
  @Override
  public Map<String, Set<String>> remediationTypes() {
    return Map.of(BuiltInTemplates.STOP_IDLE_VM, Set.of("ec2-instance"),
        BuiltInTemplates.STOP_IDLE_DATABASE, Set.of("rds-instance"));
  }

  @Override
  public ProviderMetadata metadata() {
    return METADATA;
  }

  @Override
  public Offerings offerings(String region) {
    return new Offerings(ID, region, AwsPrices.TABLE.asOf(),
        Offered.sizes(MachineSizes.ALIASES, name -> name, name -> AwsPrices.TABLE.hourlyPrice(region, "ec2:" + name)),
        // RDS sells no compute-optimised (db.c5) classes
        Offered.sizes(Offered.databaseAliases(), name -> name.startsWith("db.c5.") ? null : name,
            name -> AwsPrices.TABLE.hourlyPrice(region, "rds-postgres:" + name)),
        Offered.sizes(MachineSizes.CACHE_ALIASES, name -> name,
            name -> AwsPrices.TABLE.hourlyPrice(region, "elasticache:" + name)),
        KubernetesDriver.VERSIONS.stream().sorted().toList(), java.util.Map.of());
  }

  @Override
  public ProviderSession open(CloudAccount account, String region) {
    return new AwsSession(AwsClients.create(account, region, ClientOverrideConfiguration.builder()
        .executionInterceptors(interceptors).metricPublishers(publishers).build()), region, pollInterval);
  }
}
