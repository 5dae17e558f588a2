package dev.zop.provisioner.aws;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.HttpStatusClassifier;
import dev.zop.provisioner.kit.UndeclaredPermissionException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The one place AWS errors become failure classes: the error codes only AWS knows, then the kit's HTTP-status
 * rules. Decisions read error codes and statuses, never messages.
 */
final class AwsErrors {
  private static final Set<String> DENIED = Set.of("AccessDenied", "AccessDeniedException", "UnauthorizedOperation",
      "UnauthorizedException", "NotAuthorized");
  private static final Set<String> BAD_CREDENTIALS = Set.of("AuthFailure", "InvalidClientTokenId",
      "UnrecognizedClientException", "SignatureDoesNotMatch", "ExpiredToken", "ExpiredTokenException");
  private static final Set<String> THROTTLED = Set.of("Throttling", "ThrottlingException", "RequestLimitExceeded",
      "TooManyRequestsException", "RequestThrottled", "SlowDown", "ProvisionedThroughputExceededException");
  /** Right after a create, other calls may not see the new resource yet. */
  private static final Set<String> EVENTUALLY_CONSISTENT = Set.of("InvalidVpcID.NotFound",
      "InvalidSubnetID.NotFound", "InvalidVpcPeeringConnectionID.NotFound", "InvalidGroup.NotFound",
      "InvalidRouteTableID.NotFound");
  private static final HttpStatusClassifier HTTP = new HttpStatusClassifier(AwsProvider.ID,
      new HttpStatusClassifier.Hints("AWS did not accept this cloud account's credentials: check its credentialsRef"
          + " (default chain or role) and that the keys are current.",
          "the IAM role or user this cloud account uses", "https://console.aws.amazon.com/iam/home#/policies",
          "https://console.aws.amazon.com/servicequotas/home"));

  /** Every AWS call of the provider goes through this wrapper, tagged with the IAM action it needs. */
  static final CloudCalls CALLS = new CloudCalls(
      e -> e instanceof AwsServiceException || e instanceof SdkClientException
          || e instanceof CredentialsUnavailableException, AwsErrors::isNotFound);

  private AwsErrors() {}

  /** The error code of an AWS service error, or "" for anything else. */
  static String code(Throwable error) {
    Throwable cause = CloudCallException.unwrap(error);
    if (cause instanceof AwsServiceException e && e.awsErrorDetails() != null
        && e.awsErrorDetails().errorCode() != null) {
      return e.awsErrorDetails().errorCode();
    }
    return "";
  }

  /**
   * AWS says "not found" in three dialects: modelled exceptions ({@code DbInstanceNotFoundException},
   * {@code NoSuchEntityException}), EC2 codes ({@code InvalidVpcID.NotFound}) and REST 404s (EKS).
   */
  static boolean isNotFound(Throwable error) {
    if (!(error instanceof AwsServiceException e)) {
      return false;
    }
    String type = e.getClass().getSimpleName();
    String code = code(e);
    return e.statusCode() == 404 || type.endsWith("NotFoundException") || type.startsWith("NoSuch")
        || code.contains(".NotFound") || code.endsWith("NotFound") || code.endsWith("NotFoundFault")
        || code.startsWith("NoSuch");
  }

  static Failure classify(Throwable error) {
    String action = CloudCallException.permissionOf(error);
    Throwable cause = CloudCallException.unwrap(error);
    CredentialsUnavailableException missing = CredentialsUnavailableException.in(cause);
    if (missing != null) {
      return HTTP.credentialsMissing(missing);
    }
    if (cause instanceof AwsServiceException e) {
      String code = code(e);
      int status = e.statusCode();
      String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
      String text = (action == null ? "" : action + ": ") + message;
      Failure failure;
      if (status == 401 || BAD_CREDENTIALS.contains(code)) {
        failure = HTTP.invalidCredentials(text);
      } else if (status == 403 || DENIED.contains(code)) {
        failure = HTTP.accessDenied(text, action);
      } else if (e.isThrottlingException() || THROTTLED.contains(code)) {
        failure = Failure.transientFailure(FailureCodes.THROTTLED, text);
      } else if (EVENTUALLY_CONSISTENT.contains(code)) {
        failure = Failure.transientFailure(FailureCodes.EVENTUAL_CONSISTENCY, text);
      } else if (code.equals("DependencyViolation")) {
        failure = Failure.transientFailure(FailureCodes.DEPENDENCY_VIOLATION, text);
      } else if (code.contains("LimitExceeded") || code.contains("QuotaExceeded")) {
        failure = HTTP.quotaExceeded(text);
      } else if (code.startsWith("InvalidParameter") || code.equals("ValidationException")
          || code.equals("InvalidRequest") || code.endsWith(".Malformed")) {
        failure = HTTP.invalidParameter(text);
      } else if (status == 429 || status >= 500) {
        failure = HTTP.classify(status, message, action);
      } else {
        failure = HTTP.unrecognised(code, text);
      }
      return failure.withProviderRequestId(e.requestId());
    }
    if (cause instanceof SdkClientException e) {
      return HTTP.unreachable((action == null ? "" : action + ": ") + e.getMessage());
    }
    if (cause instanceof UndeclaredPermissionException e) {
      return Failure.system(FailureCodes.UNDECLARED_PERMISSION, e.getMessage());
    }
    return Failure.system(FailureCodes.UNEXPECTED_ERROR, String.valueOf(cause));
  }
}
