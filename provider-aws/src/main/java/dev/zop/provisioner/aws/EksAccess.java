package dev.zop.provisioner.aws;

import static dev.zop.provisioner.aws.AwsActions.*;
import static dev.zop.provisioner.aws.AwsErrors.CALLS;

import dev.zop.provisioner.Kubeconfig;
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
import software.amazon.awssdk.services.eks.model.Cluster;

/**
 * EKS tokens as {@code aws eks get-token} makes them: an STS GetCallerIdentity request presigned for the
 * cluster (header {@code x-k8s-aws-id}), base64url-encoded behind {@code k8s-aws-v1.}. EKS accepts it for 15
 * minutes; the presigned URL itself for 60 seconds.
 */
final class EksAccess implements ClusterAccess {
  private static final Duration PRESIGN = Duration.ofSeconds(60);
  private static final Duration TOKEN_LIFE = Duration.ofMinutes(14);

  private final EksClient eks;
  private final AwsCredentialsProvider credentials;
  private final String region;
  private final URI stsEndpoint;

  EksAccess(EksClient eks, AwsCredentialsProvider credentials, String region, URI stsEndpoint) {
    this.eks = eks;
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
