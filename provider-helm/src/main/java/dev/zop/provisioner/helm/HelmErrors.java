package dev.zop.provisioner.helm;

import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.NotFoundException;
import dev.zop.provisioner.ProviderException;
import dev.zop.provisioner.ValidationException;
import dev.zop.provisioner.kit.FailureCodes;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.net.ConnectException;
import java.util.Locale;

/**
 * Every error of Helm, the Kubernetes API and chart repositories mapped to a failure class, in one place. Helm
 * reports through its Go SDK as text, so for Helm alone this reads the message; everything else by type or code.
 */
final class HelmErrors {
  private static final String INVALID_VALUES = "invalid_values";
  private HelmErrors() {}

  static Failure classify(Throwable error) {
    if (error instanceof ProviderException provider) {
      return provider.failure();
    }
    if (error instanceof ConflictException conflict) {
      return Failure.userAction(conflict.code(), conflict.getMessage(), fixFor(conflict.code()), null);
    }
    if (error instanceof ValidationException || error instanceof NotFoundException) {
      return Failure.userAction(((dev.zop.provisioner.ProvisionerException) error).code(), error.getMessage(), null,
          null);
    }
    if (error instanceof ChartNotFoundException) {
      return Failure.userAction("chart_not_found", error.getMessage(), "Point the component at a repository that "
          + "serves this chart version (a mirror: HelmComponents.withRepository), or pin a version it has.", null);
    }
    if (error instanceof ChartValues.InvalidValuesException) {
      return Failure.userAction(INVALID_VALUES, error.getMessage(), "Fix the values and retry the job.", null);
    }
    if (error instanceof KubernetesClientException kube) {
      return kubernetes(kube);
    }
    if (error instanceof ConnectException || error instanceof java.net.http.HttpTimeoutException) {
      return Failure.transientFailure("unreachable", described(error));
    }
    if (error instanceof IOException) {
      return Failure.transientFailure("io_error", described(error));
    }
    if (error instanceof IllegalStateException && error.getMessage() != null) {
      return helm(error.getMessage());
    }
    return Failure.system(FailureCodes.UNEXPECTED_ERROR, String.valueOf(error));
  }

  /** What the error says, never "null": its kind and its cause's words where it has none of its own. */
  private static String described(Throwable error) {
    if (error.getMessage() != null && !error.getMessage().isBlank()) {
      return error.getMessage();
    }
    String cause = ChartFetcher.explained(error);
    return cause.startsWith(": ") ? error.getClass().getSimpleName() + cause
        : "a " + error.getClass().getSimpleName() + " with no message";
  }

  private static Failure kubernetes(KubernetesClientException e) {
    int code = e.getCode();
    if (code == 401 || code == 403) {
      return Failure.userAction(FailureCodes.ACCESS_DENIED, "the Kubernetes API refused the call: " + e.getStatus(),
          "Give the space's credentials RBAC rights to manage namespaces, secrets and the chart's resources.",
          null);
    }
    if (code == 422 || code == 400) {
      return Failure.userAction("invalid_object", firstLine(e.getMessage()), null, null);
    }
    if (code <= 0 || code >= 500 || code == 429 || causedByIo(e)) {
      return Failure.transientFailure("cluster_unreachable", "the Kubernetes API server is unavailable: "
          + firstLine(e.getMessage()));
    }
    return Failure.system("kubernetes_error", firstLine(e.getMessage()));
  }

  private static Failure helm(String message) {
    String text = message.toLowerCase(Locale.ROOT);
    if (text.contains("kubernetes cluster unreachable") || text.contains("connection refused")
        || text.contains("i/o timeout") || text.contains("no such host") || text.contains("connection reset")
        || text.contains("tls handshake timeout") || text.contains("server is currently unable")) {
      return Failure.transientFailure("cluster_unreachable", firstLine(message));
    }
    if (text.contains("another operation (install/upgrade/rollback) is in progress")) {
      return Failure.transientFailure("release_busy", firstLine(message));
    }
    if (text.contains("forbidden") || text.contains("unauthorized")) {
      return Failure.userAction(FailureCodes.ACCESS_DENIED, firstLine(message),
          "Give the space's credentials RBAC rights to install the chart's resources.", null);
    }
    if (text.contains("kubeversion") || text.contains("incompatible with kubernetes")) {
      return Failure.userAction("incompatible_chart", firstLine(message),
          "Pin a chart version that supports this cluster's Kubernetes version.", null);
    }
    if (text.contains("template:") || text.contains("parse error") || text.contains("values don't meet")
        || text.contains("yaml:") || text.contains("unable to build kubernetes objects")
        || text.contains("error validating")) {
      return Failure.userAction(INVALID_VALUES, firstLine(message),
          "The chart did not render with these values; fix them and retry the job.", null);
    }
    if (text.contains("has no deployed releases") || text.contains("failed")) {
      return Failure.userAction("release_failed", firstLine(message),
          "Inspect the release (helm status / helm history), fix its values, then retry the job; deleting the "
              + "job uninstalls it.", null);
    }
    return Failure.system("helm_error", firstLine(message));
  }

  private static boolean causedByIo(Throwable error) {
    for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
      if (cause instanceof IOException) {
        return true;
      }
    }
    return false;
  }

  private static String fixFor(String code) {
    return switch (code) {
      case "cluster_access_revoked" -> "Register the cluster's access on the cloud account, then retry the job.";
      case "no_cluster" -> "Give the space a config.clusterName or register it with a kubeconfig.";
      default -> null;
    };
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "no message";
    }
    int newline = message.indexOf('\n');
    String line = newline < 0 ? message : message.substring(0, newline);
    return line.length() > 500 ? line.substring(0, 500) : line;
  }
}
