package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.Kubeconfig;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.spi.ClusterAccess;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.AccessScopeType;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ResourceInUseException;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * EKS tokens as {@code aws eks get-token} makes them: an STS GetCallerIdentity request presigned for the
 * cluster (header {@code x-k8s-aws-id}), base64url-encoded behind {@code k8s-aws-v1.}. EKS accepts it for 15
 * minutes; the presigned URL itself for 60 seconds.
 */
final class EksAccess implements ClusterAccess {
  private static final Duration PRESIGN = Duration.ofSeconds(60);
  private static final Duration TOKEN_LIFE = Duration.ofMinutes(14);

  /** The managed policy that lets a principal administer the cluster's Kubernetes objects. */
  static final String CLUSTER_ADMIN_POLICY = "arn:aws:eks::aws:cluster-access-policy/AmazonEKSClusterAdminPolicy";

  private final EksClient eks;
  private final StsClient identity;
  private final AwsCredentialsProvider credentials;
  private final String region;
  private final URI stsEndpoint;

  EksAccess(EksClient eks, StsClient identity, AwsCredentialsProvider credentials, String region, URI stsEndpoint) {
    this.eks = eks;
    this.identity = identity;
    this.credentials = credentials;
    this.region = region;
    this.stsEndpoint = stsEndpoint;
  }

  @Override
  public Kubeconfig mint(String clusterName) {
    Cluster cluster = CALLS.call(EKS_DESCRIBE_CLUSTER, () -> eks.describeCluster(r -> r.name(clusterName)))
        .cluster();
    return new Kubeconfig(clusterName, cluster.endpoint(),
        cluster.certificateAuthority() == null ? null : cluster.certificateAuthority().data(), token(clusterName),
        Instant.now().plus(TOKEN_LIFE));
  }

  /**
   * An access entry for the account's identity, with the cluster-admin access policy over the whole cluster.
   * Both calls tolerate what an earlier, interrupted grant already made.
   */
  @Override
  public void grant(String clusterName) {
    String principal = principalArn();
    try {
      CALLS.call(EKS_CREATE_ACCESS_ENTRY, () -> eks.createAccessEntry(r -> r.clusterName(clusterName)
          .principalArn(principal).type("STANDARD")));
    } catch (CloudCallException e) {
      if (!(CloudCallException.unwrap(e) instanceof ResourceInUseException)) {
        throw e;
      }
    }
    // associating the same policy again replaces it with itself
    CALLS.call(EKS_ASSOCIATE_ACCESS_POLICY, () -> eks.associateAccessPolicy(r -> r.clusterName(clusterName)
        .principalArn(principal).policyArn(CLUSTER_ADMIN_POLICY)
        .accessScope(s -> s.type(AccessScopeType.CLUSTER))));
  }

  @Override
  public void revoke(String clusterName) {
    String principal = principalArn();
    // deleting the entry takes its policy associations with it
    CALLS.deleteIfExists(EKS_DELETE_ACCESS_ENTRY, () -> eks.deleteAccessEntry(r -> r.clusterName(clusterName)
        .principalArn(principal)));
  }

  /**
   * The IAM principal the account's credentials stand for. An assumed role's session ARN
   * ({@code arn:aws:sts::123:assumed-role/Name/session}) is not a principal an access entry takes: its role's is
   * ({@code arn:aws:iam::123:role/Name}; a role path, which the session ARN does not carry, is left out).
   */
  String principalArn() {
    return principalOf(CALLS.call(STS_GET_CALLER_IDENTITY, () -> identity.getCallerIdentity()).arn());
  }

  static String principalOf(String callerArn) {
    java.util.regex.Matcher assumed = ASSUMED_ROLE.matcher(callerArn);
    return assumed.matches() ? "arn:" + assumed.group(1) + ":iam::" + assumed.group(2) + ":role/" + assumed.group(3)
        : callerArn;
  }

  private static final java.util.regex.Pattern ASSUMED_ROLE =
      java.util.regex.Pattern.compile("arn:([^:]+):sts::(\\d+):assumed-role/([^/]+)/.*");

  String token(String clusterName) {
    SdkHttpRequest request = SdkHttpRequest.builder().method(SdkHttpMethod.GET).uri(stsEndpoint)
        .appendRawQueryParameter("Action", "GetCallerIdentity").appendRawQueryParameter("Version", "2011-06-15")
        .putHeader("x-k8s-aws-id", clusterName).build();
    AwsCredentialsIdentity identity = credentials.resolveIdentity().join();
    SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r.identity(identity).request(request)
        .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "sts")
        .putProperty(AwsV4HttpSigner.REGION_NAME, region)
        .putProperty(AwsV4FamilyHttpSigner.AUTH_LOCATION, AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
        .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, PRESIGN));
    String url = signed.request().getUri().toString();
    return "k8s-aws-v1." + Base64.getUrlEncoder().withoutPadding().encodeToString(url.getBytes(StandardCharsets.UTF_8));
  }
}
