package dev.zop.provisioner.kit;

import dev.zop.provisioner.Failure;
import java.util.Objects;

/**
 * The HTTP-status half of a provider's error classifier: every cloud API answers over HTTP, and the status alone
 * decides most failure classes. A provider first maps the error codes only its SDK knows, then hands the rest
 * here with the status, the message and the permission the call needed. Subclasses refine single statuses.
 */
public class HttpStatusClassifier {
  private final String providerId;
  private final Hints hints;

  /**
   * What a person needs to fix a failure on this cloud.
   *
   * @param credentials how to fix credentials the cloud refused
   * @param identity who must be granted a missing permission, e.g. "the IAM role or user this cloud account uses"
   * @param permissionsConsole where permissions are granted, or null
   * @param quotasConsole where quotas are raised, or null
   */
  public record Hints(String credentials, String identity, String permissionsConsole, String quotasConsole) {
    public Hints {
      Objects.requireNonNull(credentials, "credentials");
      Objects.requireNonNull(identity, "identity");
    }
  }

  public HttpStatusClassifier(String providerId, Hints hints) {
    this.providerId = Objects.requireNonNull(providerId, "providerId");
    this.hints = Objects.requireNonNull(hints, "hints");
  }

  /**
   * The failure for an HTTP error answer.
   *
   * @param permission the permission the call needed, or null when unknown
   */
  public Failure classify(int status, String message, String permission) {
    String text = (permission == null ? "" : permission + ": ") + (message == null ? "" : message);
    if (status == 401) {
      return invalidCredentials(text);
    }
    if (status == 403) {
      return accessDenied(text, permission);
    }
    if (status == 429) {
      return Failure.transientFailure(FailureCodes.THROTTLED, text);
    }
    if (status >= 500) {
      return Failure.transientFailure(FailureCodes.unavailable(providerId), text);
    }
    if (status == 400 || status == 422) {
      return invalidParameter(text);
    }
    return Failure.system(FailureCodes.error(providerId), "HTTP " + status + ": " + text);
  }

  /** Credentials that could not be loaded: for the user to set, with the hint the provider gave for the account. */
  public Failure credentialsMissing(CredentialsUnavailableException e) {
    return Failure.userAction(FailureCodes.CREDENTIALS_MISSING, e.getMessage(),
        e.fixHint() != null ? e.fixHint() : hints.credentials(), null);
  }

  public Failure invalidCredentials(String text) {
    return Failure.userAction(FailureCodes.INVALID_CREDENTIALS, text, hints.credentials(), hints.permissionsConsole());
  }

  public Failure accessDenied(String text, String permission) {
    return Failure.userAction(FailureCodes.ACCESS_DENIED, text, "Grant "
        + (permission == null ? "the missing permission" : permission) + " to " + hints.identity()
        + ", then retry the job.", hints.permissionsConsole());
  }

  public Failure quotaExceeded(String text) {
    return Failure.userAction(FailureCodes.QUOTA_EXCEEDED, text,
        "Request a higher quota, or remove unused resources, then retry the job.", hints.quotasConsole());
  }

  public Failure invalidParameter(String text) {
    return Failure.userAction(FailureCodes.INVALID_PARAMETER, text, "Correct the spec: " + text, null);
  }

  /** The endpoint could not be reached at all: no HTTP answer. */
  public Failure unreachable(String text) {
    return Failure.transientFailure(FailureCodes.unreachable(providerId), text);
  }

  /** An error answer no rule recognised. */
  public Failure unrecognised(String code, String text) {
    return Failure.system(FailureCodes.error(providerId), (code == null || code.isEmpty() ? "" : code + ": ") + text);
  }
}
