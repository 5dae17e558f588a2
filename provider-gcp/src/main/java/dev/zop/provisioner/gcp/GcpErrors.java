package dev.zop.provisioner.gcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.api.client.http.HttpResponseException;
import com.google.api.gax.rpc.ApiException;
import com.google.api.gax.rpc.StatusCode;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.HttpStatusClassifier;
import dev.zop.provisioner.kit.UndeclaredPermissionException;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The one place Google's errors become failure classes. Google answers every API over HTTP with a
 * {@code google.rpc.Status} body; its {@code ErrorInfo} reasons (and the JSON APIs' legacy {@code errors[].reason})
 * say more than the status: a disabled API, disabled billing and an exhausted quota all come as 403 or 429, and
 * each needs a different fix.
 */
final class GcpErrors {
  static final String ID = "gcp";
  static final String SERVICE_DISABLED = "service_disabled";
  static final String BILLING_DISABLED = "billing_disabled";

  private static final ObjectMapper JSON = new ObjectMapper();

  static final CloudCalls CALLS = new CloudCalls(GcpErrors::isCloudError, GcpErrors::isNotFound);

  private final String project;
  private final HttpStatusClassifier http;

  GcpErrors(String project) {
    this.project = project;
    this.http = new HttpStatusClassifier(ID, new HttpStatusClassifier.Hints(
        "Check the account's credentialsRef: the service account key must be valid and not disabled.",
        "the service account or user this cloud account's credentials belong to (IAM role with the permission)",
        console("iam-admin/iam"), console("iam-admin/quotas")));
  }

  /** What an error answer says: the HTTP status, the {@code google.rpc.Code} name, reasons and message. */
  record Answer(int status, String code, Set<String> reasons, String message, String service) {
    boolean hasReason(String... any) {
      for (String reason : any) {
        if (reasons.contains(reason.toLowerCase(Locale.ROOT))) {
          return true;
        }
      }
      return false;
    }
  }

  static boolean isCloudError(Throwable e) {
    return e instanceof ApiException || e instanceof HttpResponseException
        || e instanceof java.io.UncheckedIOException u && u.getCause() instanceof HttpResponseException;
  }

  static boolean isNotFound(Throwable e) {
    Answer answer = answerOf(e);
    return answer != null && answer.status() == 404;
  }

  /** Compute Engine refusing a change to a resource another operation is changing (a delete still running). */
  static boolean isResourceNotReady(Throwable e) {
    Answer answer = answerOf(CloudCallException.unwrap(e));
    return answer != null && answer.status() == 400 && answer.hasReason("resourceNotReady");
  }

  /** Cloud SQL refusing a change while another runs on the instance ({@code 409 operationInProgress}). */
  static boolean isChangeInProgress(Throwable e) {
    Answer answer = answerOf(CloudCallException.unwrap(e));
    return answer != null && answer.status() == 409;
  }

  static boolean isAlreadyExists(Throwable e) {
    Answer answer = answerOf(CloudCallException.unwrap(e));
    // the HTTP/JSON clients raise 409 as AbortedException; what matters is the status Google sent
    return answer != null && answer.status() == 409;
  }

  Failure classify(Throwable error) {
    CredentialsUnavailableException missing = CredentialsUnavailableException.in(error);
    if (missing != null) {
      return http.credentialsMissing(missing);
    }
    Throwable cause = CloudCallException.unwrap(error);
    if (cause instanceof UndeclaredPermissionException e) {
      return Failure.system(FailureCodes.UNDECLARED_PERMISSION, e.getMessage());
    }
    String permission = CloudCallException.permissionOf(error);
    Answer answer = answerOf(cause);
    if (answer == null) {
      for (Throwable t = cause; t != null; t = t.getCause()) {
        if (t instanceof IOException) {
          return http.unreachable(String.valueOf(t.getMessage() == null ? t : t.getMessage()));
        }
      }
      return Failure.system(FailureCodes.UNEXPECTED_ERROR, String.valueOf(cause));
    }
    String text = (permission == null ? "" : permission + ": ") + answer.message();
    if (answer.hasReason("SERVICE_DISABLED", "accessNotConfigured")) {
      String service = answer.service() != null ? answer.service() : serviceOf(permission);
      return Failure.userAction(SERVICE_DISABLED, text, "Enable the " + service + " API in project " + project
          + ", wait a few minutes for it to take effect, then retry the job.",
          console("apis/library/" + service));
    }
    if (answer.hasReason("BILLING_DISABLED", "billingNotEnabled", "accountDisabled")) {
      return Failure.userAction(BILLING_DISABLED, text, "Link project " + project
          + " to an open billing account, then retry the job.", console("billing/linkedaccount"));
    }
    if (answer.hasReason("QUOTA_EXCEEDED", "quotaExceeded")) {
      return http.quotaExceeded(text);
    }
    if (answer.status() == 429 || answer.hasReason("RATE_LIMIT_EXCEEDED", "rateLimitExceeded",
        "userRateLimitExceeded")) {
      return Failure.transientFailure(FailureCodes.THROTTLED, text);
    }
    if (answer.status() == 401) {
      return http.invalidCredentials(text);
    }
    if (answer.status() == 403) {
      return http.accessDenied(text, permission);
    }
    if (answer.status() == 404) {
      return Failure.userAction(FailureCodes.RESOURCE_MISSING, text,
          "Check that what the spec names exists in project " + project + ", then retry.", null);
    }
    if (answer.status() == 409) {
      return Failure.userAction(FailureCodes.NAME_IN_USE, text, "Choose another name, or remove the resource"
          + " that holds it if it is no longer needed.", null);
    }
    return http.classify(answer.status(), text, permission);
  }

  private String console(String page) {
    return "https://console.cloud.google.com/" + page + "?project=" + project;
  }

  /** {@code compute.networks.create} → {@code compute.googleapis.com}. */
  private static String serviceOf(String permission) {
    return permission == null ? "required" : permission.substring(0, permission.indexOf('.')) + ".googleapis.com";
  }

  /** The error answer an exception carries, or null when it carries none (no HTTP answer at all). */
  static Answer answerOf(Throwable e) {
    HttpResponseException response = null;
    Integer status = null;
    for (Throwable t = e; t != null && response == null; t = t.getCause()) {
      if (t instanceof HttpResponseException r) {
        response = r;
      } else if (t instanceof ApiException api && status == null) {
        StatusCode code = api.getStatusCode();
        if (code.getTransportCode() instanceof Integer http) {
          status = http;
        }
      }
      if (t.getCause() == t) {
        break;
      }
    }
    if (response == null && status == null) {
      return null;
    }
    int httpStatus = response != null ? response.getStatusCode() : status;
    String content = response != null ? response.getContent() : null;
    Set<String> reasons = new LinkedHashSet<>();
    String code = null;
    String message = response != null ? response.getStatusMessage() : e.getMessage();
    String service = null;
    if (content != null && !content.isBlank()) {
      try {
        JsonNode error = JSON.readTree(content).path("error");
        code = error.path("status").asText(null);
        message = error.path("message").asText(message);
        error.path("errors").forEach(x -> reasons.add(x.path("reason").asText().toLowerCase(Locale.ROOT)));
        for (JsonNode detail : error.path("details")) {
          if (detail.has("reason")) {
            reasons.add(detail.path("reason").asText().toLowerCase(Locale.ROOT));
          }
          if (detail.path("metadata").has("service")) {
            service = detail.path("metadata").path("service").asText();
          }
        }
      } catch (IOException notJson) {
        message = content;
      }
    }
    return new Answer(httpStatus, code, reasons, message, service);
  }
}
