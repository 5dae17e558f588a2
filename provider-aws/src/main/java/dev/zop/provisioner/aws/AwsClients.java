package dev.zop.provisioner.aws;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import java.net.URI;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.ProfileCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.autoscaling.AutoScalingClient;
import software.amazon.awssdk.services.ecr.EcrClient;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.elasticloadbalancingv2.ElasticLoadBalancingV2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.elasticache.ElastiCacheClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.route53.Route53Client;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/** The SDK clients of one account and region, built once and shared by every job in them. */
final class AwsClients implements AutoCloseable {
  private final SdkHttpClient http;
  private final StsClient sts;
  final AwsCredentialsProvider credentials;
  /** Where STS answers: the endpoint override, or the regional STS endpoint. */
  final URI stsEndpoint;
  final Ec2Client ec2;
  final EcrClient ecr;
  final RdsClient rds;
  final ElastiCacheClient elasticache;
  final SecretsManagerClient secrets;
  final EksClient eks;
  final IamClient iam;
  final AutoScalingClient autoscaling;
  final ElasticLoadBalancingV2Client elb;
  final Route53Client route53;
  final SsmClient ssm;
  /** STS as the account itself (not as the host that assumes its role): who the account is. */
  final StsClient identity;

  private AwsClients(SdkHttpClient http, StsClient sts, AwsCredentialsProvider credentials, Ec2Client ec2,
      EcrClient ecr, RdsClient rds, ElastiCacheClient elasticache, SecretsManagerClient secrets, EksClient eks,
      IamClient iam, AutoScalingClient autoscaling, ElasticLoadBalancingV2Client elb, Route53Client route53,
      SsmClient ssm, StsClient identity) {
    this.http = http;
    this.sts = sts;
    this.credentials = credentials;
    this.stsEndpoint = sts.serviceClientConfiguration().endpointOverride()
        .orElse(URI.create("https://sts." + sts.serviceClientConfiguration().region().id() + ".amazonaws.com"));
    this.ec2 = ec2;
    this.ecr = ecr;
    this.rds = rds;
    this.elasticache = elasticache;
    this.secrets = secrets;
    this.eks = eks;
    this.iam = iam;
    this.autoscaling = autoscaling;
    this.elb = elb;
    this.route53 = route53;
    this.ssm = ssm;
    this.identity = identity;
  }

  static AwsClients create(CloudAccount account, String region, ClientOverrideConfiguration overrides) {
    SdkHttpClient http = UrlConnectionHttpClient.create();
    String endpoint = account.properties().get("endpoint");
    Region awsRegion = Region.of(region);
    StsClient sts = configure(StsClient.builder(), http, awsRegion, endpoint, DefaultCredentialsProvider.builder()
        .build(), overrides).build();
    AwsCredentialsProvider credentials = credentials(account, sts);
    return new AwsClients(http, sts, credentials,
        configure(Ec2Client.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(EcrClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(RdsClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(ElastiCacheClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(SecretsManagerClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(EksClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        // IAM is global: its endpoint lives in aws-global whatever the session's region
        configure(IamClient.builder(), http, Region.AWS_GLOBAL, endpoint, credentials, overrides).build(),
        configure(AutoScalingClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(ElasticLoadBalancingV2Client.builder(), http, awsRegion, endpoint, credentials, overrides)
            .build(),
        configure(Route53Client.builder(), http, Region.AWS_GLOBAL, endpoint, credentials, overrides).build(),
        configure(SsmClient.builder(), http, awsRegion, endpoint, credentials, overrides).build(),
        configure(StsClient.builder(), http, awsRegion, endpoint, credentials, overrides).build());
  }

  /**
   * The account's credentials, failing with {@link CredentialsUnavailableException} (and a hint naming where this
   * account's credentials come from) when they cannot be loaded, so the failure reads as the user's to fix.
   */
  private static AwsCredentialsProvider credentials(CloudAccount account, StsClient sts) {
    AwsCredentialsProvider source = source(account, sts);
    String ref = account.credentialsRef() == null || account.credentialsRef().isBlank() ? "default-chain"
        : account.credentialsRef();
    return new GuardedCredentials(source, account.name(), ref);
  }

  /** The account's credentials provider, its failures made {@link CredentialsUnavailableException}s. */
  private record GuardedCredentials(AwsCredentialsProvider source, String account, String ref)
      implements AwsCredentialsProvider, AutoCloseable {
    @Override
    public software.amazon.awssdk.auth.credentials.AwsCredentials resolveCredentials() {
      try {
        return source.resolveCredentials();
      } catch (RuntimeException e) {
        throw new CredentialsUnavailableException("the credentials of cloud account " + account + " (" + ref
            + ") could not be loaded", whereFrom(ref), e);
      }
    }

    @Override
    public void close() throws Exception {
      if (source instanceof AutoCloseable closeable) {
        closeable.close(); // an assumed role's refresh thread
      }
    }
  }

  private static String whereFrom(String ref) {
    if (ref.startsWith("env:")) {
      String prefix = ref.substring("env:".length());
      return "Set " + prefix + "_ACCESS_KEY_ID and " + prefix + "_SECRET_ACCESS_KEY in the environment of the"
          + " process that runs the engine (zop serve or your service).";
    }
    if (ref.startsWith("profile:")) {
      return "Add profile [" + ref.substring("profile:".length()) + "] to the shared credentials file"
          + " (~/.aws/credentials, or the file AWS_SHARED_CREDENTIALS_FILE names) of the engine's host.";
    }
    if (ref.startsWith("role:")) {
      return "The engine's host assumes " + ref.substring("role:".length()) + " with its default credentials:"
          + " give the host credentials (environment, ~/.aws, or an instance or container role) and check the"
          + " role's trust policy allows them.";
    }
    return "This account uses the engine host's default AWS credentials chain: set AWS_ACCESS_KEY_ID and"
        + " AWS_SECRET_ACCESS_KEY, a profile in ~/.aws/credentials, or an instance or container role on the host;"
        + " or give the account a credentialsRef (role:<ARN>, profile:<name>, env:<PREFIX>).";
  }

  private static AwsCredentialsProvider source(CloudAccount account, StsClient sts) {
    String ref = account.credentialsRef();
    if (ref == null || ref.isBlank() || ref.equals("default-chain")) {
      return DefaultCredentialsProvider.builder().build();
    }
    if (ref.startsWith("role:")) {
      String roleArn = ref.substring("role:".length());
      String externalId = account.properties().get("externalId");
      return StsAssumeRoleCredentialsProvider.builder().stsClient(sts).refreshRequest(r -> {
        r.roleArn(roleArn).roleSessionName("zop-provisioner");
        if (externalId != null) {
          r.externalId(externalId);
        }
      }).build();
    }
    if (ref.startsWith("profile:")) {
      return ProfileCredentialsProvider.builder().profileName(ref.substring("profile:".length())).build();
    }
    if (ref.startsWith("env:")) {
      // static keys kept outside the engine: <PREFIX>_ACCESS_KEY_ID and <PREFIX>_SECRET_ACCESS_KEY
      String prefix = ref.substring("env:".length());
      return () -> {
        String id = System.getenv(prefix + "_ACCESS_KEY_ID");
        String secret = System.getenv(prefix + "_SECRET_ACCESS_KEY");
        if (id == null || secret == null) {
          throw new IllegalStateException("credentialsRef " + ref + ": " + prefix + "_ACCESS_KEY_ID and " + prefix
              + "_SECRET_ACCESS_KEY must be set");
        }
        return AwsBasicCredentials.create(id, secret);
      };
    }
    throw new IllegalArgumentException("credentialsRef must be 'default-chain', 'role:<role ARN>', "
        + "'profile:<name>' or 'env:<PREFIX>', not '" + ref + "'");
  }

  private static <B extends AwsClientBuilder<B, ?> & AwsSyncClientBuilder<B, ?>> B configure(B builder, SdkHttpClient http, Region region,
      String endpoint, AwsCredentialsProvider credentials, ClientOverrideConfiguration overrides) {
    builder.region(region).credentialsProvider(credentials).overrideConfiguration(overrides);
    if (endpoint != null && !endpoint.isBlank()) {
      builder.endpointOverride(URI.create(endpoint));
    }
    return builder.httpClient(http);
  }

  @Override
  public void close() {
    ec2.close();
    ecr.close();
    rds.close();
    elasticache.close();
    secrets.close();
    eks.close();
    iam.close();
    autoscaling.close();
    elb.close();
    route53.close();
    ssm.close();
    identity.close();
    if (credentials instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        // closing a credentials provider only stops its refresh thread
      }
    }
    sts.close();
    http.close();
  }
}
