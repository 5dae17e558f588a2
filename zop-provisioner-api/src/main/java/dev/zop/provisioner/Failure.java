package dev.zop.provisioner;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;
import org.jspecify.annotations.NullMarked;
import org.jspecify.annotations.Nullable;

/**
 * Why a step or job failed, classified once by the provider that saw the error.
 *
 * @param category  decides retry behaviour
 * @param code      a stable, machine-readable code such as {@code access_denied} or {@code throttled}
 * @param message   for people; never parsed
 * @param fixHint   what the customer should do (for {@code user_action}), or null
 * @param consoleUrl a deep link into the cloud console where the fix is made, or null
 * @param providerRequestId the cloud's request id, for support tickets, or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@NullMarked
public record Failure(
    FailureCategory category,
    String code,
    String message,
    @Nullable String fixHint,
    @Nullable String consoleUrl,
    @Nullable String providerRequestId) {

  public Failure {
    Objects.requireNonNull(category, "category");
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  @JsonCreator
  static Failure fromJson(
      @JsonProperty("category") FailureCategory category,
      @JsonProperty("code") String code,
      @JsonProperty("message") String message,
      @JsonProperty("fixHint") String fixHint,
      @JsonProperty("consoleUrl") String consoleUrl,
      @JsonProperty("providerRequestId") String providerRequestId) {
    return new Failure(category, code, message, fixHint, consoleUrl, providerRequestId);
  }

  public static Failure userAction(String code, String message, String fixHint, String consoleUrl) {
    return new Failure(FailureCategory.USER_ACTION, code, message, fixHint, consoleUrl, null);
  }

  public static Failure transientFailure(String code, String message) {
    return new Failure(FailureCategory.TRANSIENT, code, message, null, null, null);
  }

  public static Failure system(String code, String message) {
    return new Failure(FailureCategory.SYSTEM, code, message, null, null, null);
  }

  public Failure withProviderRequestId(String requestId) {
    return new Failure(category, code, message, fixHint, consoleUrl, requestId);
  }

  /** Derived from the category: only transient failures may be retried as they are. */
  @JsonProperty("retryable")
  public boolean retryable() {
    return category.retryable();
  }
}
