package dev.zop.provisioner.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.ForbiddenException;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.ProvisionerException;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.wire.Requests.ErrorBody;
import java.io.IOException;
import java.util.List;
import okhttp3.HttpUrl;

/** Turns the server's error body back into the exception the embedded engine would have thrown. */
final class RemoteErrors {
  private RemoteErrors() {}

  static ProvisionerException toException(int status, byte[] body, ObjectMapper json, String requestId) {
    ErrorBody error = parse(body, json);
    if (error == null) {
      return new ProviderException(new Failure(status >= 500 ? FailureCategory.SYSTEM : FailureCategory.USER_ACTION,
          "http_" + status, "the server answered HTTP " + status + " without an error body", null, null, requestId));
    }
    String code = error.code() == null ? "http_" + status : error.code();
    if (status == 422 && "guardrail_denied".equals(code) && error.verdicts() != null) {
      return new dev.zop.provisioner.GuardrailDeniedException(error.verdicts());
    }
    return switch (status) {
      case 400, 413, 415 -> new ValidationException(error.fields() == null || error.fields().isEmpty()
          ? List.of(FieldError.of("body", code, error.message())) : error.fields(), observed(error, json));
      case 401, 403 -> new ForbiddenException(code, error.message());
      case 404 -> new NotFoundException(error.message());
      case 409 -> new ConflictException(code, error.message());
      default -> new ProviderException(new Failure(category(error.category(), status), code, error.message(),
          error.fixHint(), error.consoleUrl(), error.requestId() == null ? requestId : error.requestId()));
    };
  }

  static Failure unreachable(HttpUrl url, IOException e) {
    return new Failure(FailureCategory.TRANSIENT, "service_unreachable",
        "cannot reach the provisioner service at " + url.scheme() + "://" + url.host() + ":" + url.port() + ": "
            + e.getMessage(), "check that the service is running and the base URL is right", null, null);
  }

  private static FailureCategory category(String wire, int status) {
    if (wire != null) {
      try {
        return FailureCategory.fromWire(wire);
      } catch (IllegalArgumentException ignored) {
        // a category this client does not know: fall back on the status
      }
    }
    return status == 429 || status == 503 ? FailureCategory.TRANSIENT : FailureCategory.SYSTEM;
  }

  /** The config the refusal says the cloud has, typed by its kind; null when it says none (or one unreadable). */
  private static dev.zop.provisioner.spec.ResourceSpec observed(ErrorBody error, ObjectMapper json) {
    JsonNode observed = error.observed();
    if (observed == null || !observed.path("config").isObject()) {
      return null;
    }
    try {
      return json.treeToValue(observed.get("config"), dev.zop.provisioner.spec.ResourceSpec.typeFor(
          dev.zop.provisioner.JobKind.fromWire(observed.path("kind").asText())));
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  private static ErrorBody parse(byte[] body, ObjectMapper json) {
    try {
      JsonNode node = json.readTree(body);
      JsonNode error = node == null ? null : node.get("error");
      return error == null ? null : json.treeToValue(error, ErrorBody.class);
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }
}
