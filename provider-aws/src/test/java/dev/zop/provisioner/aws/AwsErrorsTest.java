package dev.zop.provisioner.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

class AwsErrorsTest {

  private static AwsServiceException error(int status, String code) {
    return AwsServiceException.builder().statusCode(status).requestId("req-1")
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("message of " + code).build())
        .build();
  }

  @ParameterizedTest(name = "{0} {1} -> {2} {3}")
  @CsvSource({
      "403, AccessDenied, USER_ACTION, access_denied",
      "400, UnauthorizedOperation, USER_ACTION, access_denied",
      "403, '', USER_ACTION, access_denied",
      "401, AuthFailure, USER_ACTION, invalid_credentials",
      "401, '', USER_ACTION, invalid_credentials",
      "400, UnrecognizedClientException, USER_ACTION, invalid_credentials",
      "400, Throttling, TRANSIENT, throttled",
      "400, ThrottlingException, TRANSIENT, throttled",
      "503, RequestLimitExceeded, TRANSIENT, throttled",
      "429, '', TRANSIENT, throttled",
      "500, InternalError, TRANSIENT, aws_unavailable",
      "400, InvalidVpcID.NotFound, TRANSIENT, eventual_consistency",
      "400, DependencyViolation, TRANSIENT, dependency_violation",
      "400, VpcLimitExceeded, USER_ACTION, quota_exceeded",
      "400, LimitExceededException, USER_ACTION, quota_exceeded",
      "400, InvalidParameterValue, USER_ACTION, invalid_parameter",
      "400, ValidationException, USER_ACTION, invalid_parameter",
      "400, SomethingElse, SYSTEM, aws_error"})
  void mapsCodesAndStatuses(int status, String code, FailureCategory category, String ourCode) {
    Failure failure = AwsErrors.classify(new dev.zop.provisioner.kit.CloudCallException("ec2:CreateVpc", error(status, code)));
    assertThat(failure.category()).isEqualTo(category);
    assertThat(failure.code()).isEqualTo(ourCode);
    assertThat(failure.providerRequestId()).isEqualTo("req-1");
  }

  @Test
  void accessDeniedNamesTheMissingActionAndTheConsole() {
    Failure failure = AwsErrors.classify(new dev.zop.provisioner.kit.CloudCallException("ec2:CreateVpc", error(403, "AccessDenied")));
    assertThat(failure.fixHint()).contains("ec2:CreateVpc");
    assertThat(failure.consoleUrl()).startsWith("https://console.aws.amazon.com/iam/");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void clientSideAndUnknownErrors() {
    assertThat(AwsErrors.classify(SdkClientException.create("connection refused")).category())
        .isEqualTo(FailureCategory.TRANSIENT);
    assertThat(AwsErrors.classify(new IllegalStateException("bug")).category()).isEqualTo(FailureCategory.SYSTEM);
  }
}
