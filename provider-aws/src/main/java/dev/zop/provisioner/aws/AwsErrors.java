package dev.zop.provisioner.aws;

import dev.zop.provisioner.Failure;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;

/** The one place AWS errors become failure classes. Decisions read error codes and statuses, never messages. */
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
  private static final String IAM_CONSOLE = "https://console.aws.amazon.com/iam/home#/policies";
  private static final String QUOTAS_CONSOLE = "https://console.aws.amazon.com/servicequotas/home";

  private AwsErrors() {}

  /** Runs one AWS call; a failure carries the IAM action it needed. */
  static <T> T call(String action, Supplier<T> call) {
    try {
      return call.get();
    } catch (AwsServiceException | SdkClientException e) {
      throw new AwsActionException(action, e);
    }
  }

  /** The error code of an AWS service error, or "" for anything else. */
  static String code(Throwable error) {
    Throwable cause = error instanceof AwsActionException a ? a.getCause() : error;
    if (cause instanceof AwsServiceException e && e.awsErrorDetails() != null
        && e.awsErrorDetails().errorCode() != null) {
      return e.awsErrorDetails().errorCode();
    }
    return "";
  }

  static Failure classify(Throwable error) {
    String action = error instanceof AwsActionException a ? a.action() : null;
    Throwable cause = error instanceof AwsActionException ? error.getCause() : error;
    if (cause instanceof AwsServiceException e) {
      String code = code(e);
      int status = e.statusCode();
      String message = (action == null ? "" : action + ": ") + (e.awsErrorDetails() == null
          ? e.getMessage() : e.awsErrorDetails().errorMessage());
      Failure failure;
      if (status == 401 || BAD_CREDENTIALS.contains(code)) {
        failure = Failure.userAction("invalid_credentials", message, "AWS did not accept this cloud account's"
            + " credentials: check its credentialsRef (default chain or role) and that the keys are current.",
            IAM_CONSOLE);
      } else if (status == 403 || DENIED.contains(code)) {
        failure = Failure.userAction("access_denied", message, "Grant " + (action == null ? "the missing permission"
            : action) + " to the IAM role or user this cloud account uses, then retry the job.", IAM_CONSOLE);
      } else if (status == 429 || e.isThrottlingException() || THROTTLED.contains(code)) {
        failure = Failure.transientFailure("throttled", message);
      } else if (status >= 500) {
        failure = Failure.transientFailure("aws_unavailable", message);
      } else if (EVENTUALLY_CONSISTENT.contains(code)) {
        failure = Failure.transientFailure("eventual_consistency", message);
      } else if (code.equals("DependencyViolation")) {
        failure = Failure.transientFailure("dependency_violation", message);
      } else if (code.contains("LimitExceeded") || code.contains("QuotaExceeded")) {
        failure = Failure.userAction("quota_exceeded", message,
            "Request a higher quota in Service Quotas, or remove unused resources, then retry the job.",
            QUOTAS_CONSOLE);
      } else if (code.startsWith("InvalidParameter") || code.equals("ValidationException")
          || code.equals("InvalidRequest") || code.endsWith(".Malformed") || code.equals("InvalidParameterException")) {
        failure = Failure.userAction("invalid_parameter", message, "Correct the spec: " + message, null);
      } else {
        failure = Failure.system("aws_error", (code.isEmpty() ? "" : code + ": ") + message);
      }
      return failure.withProviderRequestId(e.requestId());
    }
    if (cause instanceof SdkClientException e) {
      return Failure.transientFailure("aws_unreachable", (action == null ? "" : action + ": ") + e.getMessage());
    }
    return Failure.system("unexpected_error", String.valueOf(cause));
  }
}
