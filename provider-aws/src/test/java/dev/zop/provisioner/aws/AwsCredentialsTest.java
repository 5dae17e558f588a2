package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.SecretStore;
import dev.zop.provisioner.spi.StepContext;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Credentials that cannot be loaded are the user's to fix: {@code user_action credentials_missing}, with a hint
 * naming where this account's credentials come from; never a transient "AWS unreachable". The endpoint is a
 * closed port: the failure happens before anything is sent.
 */
class AwsCredentialsTest {
  @ParameterizedTest
  @CsvSource({
      "env:ZOP_TEST_NO_SUCH_KEYS, ZOP_TEST_NO_SUCH_KEYS_ACCESS_KEY_ID",
      "profile:zop-test-no-such-profile, [zop-test-no-such-profile]"})
  void credentialsThatCannotBeLoadedAreTheUsersToFix(String credentialsRef, String hintNames) throws Exception {
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_nocreds"), "aws", "no-creds", credentialsRef,
        Map.of("endpoint", "http://127.0.0.1:9"), Instant.now());
    System.setProperty("aws.sharedCredentialsFile", "/nonexistent/zop-test-credentials");
    try (ProviderSession session = new AwsProvider().open(account, "us-east-1")) {
      @SuppressWarnings("unchecked")
      ResourceDriver<RegistrySpec> driver = (ResourceDriver<RegistrySpec>) session.driver(JobKind.REGISTRY);
      Throwable thrown = catchThrowable(() -> driver.create(RegistrySpec.named("team/creds")).get(0)
          .run(new BareContext()));
      assertThat(thrown).isNotNull();
      Failure failure = session.classify(thrown);
      assertThat(failure.category()).isEqualTo(FailureCategory.USER_ACTION);
      assertThat(failure.code()).isEqualTo("credentials_missing");
      assertThat(failure.message()).contains("no-creds", credentialsRef);
      assertThat(failure.fixHint()).contains(hintNames);
      assertThat(failure.retryable()).isFalse();
    } finally {
      System.clearProperty("aws.sharedCredentialsFile");
    }
  }

  /**
   * A profile on IAM Identity Center: the SDK loads its SSO provider from the {@code sso} module at run time. With
   * the module there, resolving goes as far as the cached SSO token — absent here, since nobody ran
   * {@code aws sso login} — and the failure is the user's to fix; without it the SDK would say the module is
   * missing from the class path.
   */
  @org.junit.jupiter.api.Test
  void anIdentityCenterProfileIsResolvedThroughTheSsoModule() throws Exception {
    java.nio.file.Path config = java.nio.file.Files.createTempFile("aws-config", "");
    java.nio.file.Files.writeString(config, """
        [profile zop-sso]
        sso_session = zop
        sso_account_id = 123456789012
        sso_role_name = Provisioner
        region = us-east-1

        [sso-session zop]
        sso_start_url = https://zop-test.awsapps.com/start
        sso_region = us-east-1
        sso_registration_scopes = sso:account:access
        """);
    System.setProperty("aws.configFile", config.toString());
    System.setProperty("aws.sharedCredentialsFile", "/nonexistent/zop-test-credentials");
    CloudAccount account = new CloudAccount(CloudAccountId.of("ca_sso"), "aws", "sso", "profile:zop-sso",
        Map.of("endpoint", "http://127.0.0.1:9"), Instant.now());
    try (ProviderSession session = new AwsProvider().open(account, "us-east-1")) {
      @SuppressWarnings("unchecked")
      ResourceDriver<RegistrySpec> driver = (ResourceDriver<RegistrySpec>) session.driver(JobKind.REGISTRY);
      Throwable thrown = catchThrowable(() -> driver.create(RegistrySpec.named("team/sso")).get(0)
          .run(new BareContext()));
      StringBuilder causes = new StringBuilder();
      for (Throwable t = thrown; t != null; t = t.getCause()) {
        causes.append(t.getMessage()).append('\n');
      }
      assertThat(causes.toString()).doesNotContain("must be on the class path").containsIgnoringCase("token");
      Failure failure = session.classify(thrown);
      assertThat(failure.code()).isEqualTo("credentials_missing");
    } finally {
      System.clearProperty("aws.configFile");
      System.clearProperty("aws.sharedCredentialsFile");
    }
  }

  @org.junit.jupiter.api.Test
  void anAssumedRoleSessionIsGivenClusterAccessAsItsRole() {
    assertThat(EksAccess.principalOf("arn:aws:sts::123456789012:assumed-role/zop-provisioner/zop-1700000000"))
        .isEqualTo("arn:aws:iam::123456789012:role/zop-provisioner");
    assertThat(EksAccess.principalOf("arn:aws-cn:sts::123456789012:assumed-role/ops/session"))
        .isEqualTo("arn:aws-cn:iam::123456789012:role/ops");
    assertThat(EksAccess.principalOf("arn:aws:iam::123456789012:user/ci")).isEqualTo("arn:aws:iam::123456789012:user/ci");
  }

  /** Enough of a step context to run one step outside the engine. */
  private static final class BareContext implements StepContext {
    private final JobId job = JobId.random();

    @Override
    public JobId jobId() {
      return job;
    }

    @Override
    public UUID stepId() {
      return UUID.nameUUIDFromBytes(job.value().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public Instant startedAt() {
      return Instant.now();
    }

    @Override
    public int attempt() {
      return 1;
    }

    @Override
    public Outputs outputs() {
      return Outputs.of(Map.of());
    }

    @Override
    public void recordIntent(Map<String, String> intent) {
      // nothing is kept between runs here
    }

    @Override
    public SecretStore secrets() {
      throw new UnsupportedOperationException("no secrets in this test");
    }

    @Override
    public void log(String message) {
      // not checked
    }
  }
}
