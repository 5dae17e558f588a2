package dev.zop.provisioner.azure;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.management.exception.ManagementException;
import com.azure.identity.CredentialUnavailableException;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.kit.CloudCallException;
import dev.zop.provisioner.kit.CloudCalls;
import dev.zop.provisioner.kit.CredentialsUnavailableException;
import dev.zop.provisioner.kit.FailureCodes;
import dev.zop.provisioner.kit.HttpStatusClassifier;
import dev.zop.provisioner.kit.UndeclaredPermissionException;

/**
 * The one place Azure's errors become failure classes: ARM's {@code error.code} first (a quota and a missing
 * resource-provider registration both come as 409, each with its own fix), then the HTTP status.
 */
final class AzureErrors {
  static final String ID = "azure";
  static final String NOT_REGISTERED = "resource_provider_not_registered";
  static final String VAULT_CHALLENGE = "vault_challenge_mismatch";

  static final CloudCalls CALLS = new CloudCalls(e -> e instanceof HttpResponseException,
      e -> e instanceof HttpResponseException h && h.getResponse() != null && h.getResponse().getStatusCode() == 404);

  private final String subscription;
  private final HttpStatusClassifier http;

  AzureErrors(String subscription, String resourceGroup) {
    this.subscription = subscription;
    String scope = "https://portal.azure.com/#resource/subscriptions/" + subscription
        + (resourceGroup == null ? "" : "/resourceGroups/" + resourceGroup);
    this.http = new HttpStatusClassifier(ID, new HttpStatusClassifier.Hints(
        "Check the account's credentialsRef: the service principal's secret or certificate must be valid and the"
            + " tenant right.",
        "the service principal or managed identity of this cloud account (a role assignment on the resource group)",
        scope + "/users", "https://portal.azure.com/#view/Microsoft_Azure_Capacity/QuotaMenuBlade/~/myQuotas"));
  }

  /** ARM's error code of an answer, or null. */
  static String code(Throwable error) {
    Throwable cause = CloudCallException.unwrap(error);
    return cause instanceof ManagementException m && m.getValue() != null ? m.getValue().getCode() : null;
  }

  static int status(Throwable error) {
    Throwable cause = CloudCallException.unwrap(error);
    return cause instanceof HttpResponseException h && h.getResponse() != null ? h.getResponse().getStatusCode() : 0;
  }

  Failure classify(Throwable error) {
    CredentialsUnavailableException missing = CredentialsUnavailableException.in(error);
    if (missing != null) {
      return http.credentialsMissing(missing);
    }
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof CredentialUnavailableException || t instanceof ClientAuthenticationException) {
        return http.credentialsMissing(new CredentialsUnavailableException(t.getMessage(), null, t));
      }
      if (t.getCause() == t) {
        break;
      }
    }
    for (Throwable t = error; t != null && t.getCause() != t; t = t.getCause()) {
      // the SDK's check of Key Vault's challenge, or ours (keyVaultChallengeResource): an account setting to fix
      if (t.getMessage() != null && t.getMessage().contains("challenge resource")) {
        return Failure.userAction(VAULT_CHALLENGE, t.getMessage(), "A vault reached through a host outside"
            + " vault.azure.net (a private endpoint's name) names a token audience the SDK does not expect for that"
            + " host: set the account's keyVaultChallengeResource to the resource the vault's challenge names"
            + " (usually https://vault.azure.net). Otherwise check keyVaultUrl: it may not be your vault.", null);
      }
    }
    Throwable cause = CloudCallException.unwrap(error);
    if (cause instanceof dev.zop.provisioner.ProviderException classified) {
      // the provider's own refusal (a resource id of the wrong type): already in the user's terms
      return classified.failure();
    }
    if (cause instanceof UndeclaredPermissionException e) {
      return Failure.system(FailureCodes.UNDECLARED_PERMISSION, e.getMessage());
    }
    if (!(cause instanceof HttpResponseException response) || response.getResponse() == null) {
      for (Throwable t = cause; t != null; t = t.getCause()) {
        if (t instanceof java.io.IOException) {
          return http.unreachable(String.valueOf(t.getMessage()));
        }
      }
      return Failure.system(FailureCodes.UNEXPECTED_ERROR, String.valueOf(cause));
    }
    String permission = CloudCallException.permissionOf(error);
    String code = code(error);
    int status = response.getResponse().getStatusCode();
    String text = (permission == null ? "" : permission + ": ") + (code == null ? "" : code + ": ")
        + (response.getValue() instanceof com.azure.core.management.exception.ManagementError m ? m.getMessage()
            : response.getMessage());
    if ("MissingSubscriptionRegistration".equals(code)) {
      String namespace = permission == null ? "the resource provider" : permission.substring(0, permission.indexOf('/'));
      return Failure.userAction(NOT_REGISTERED, text, "Register " + namespace + " on subscription " + subscription
          + " (az provider register --namespace " + namespace + "), then retry the job.",
          "https://portal.azure.com/#resource/subscriptions/" + subscription + "/resourceproviders");
    }
    if ("QuotaExceeded".equals(code) || "OperationNotAllowed".equals(code) && text.contains("quota")) {
      return http.quotaExceeded(text);
    }
    if ("AuthorizationFailed".equals(code) || status == 403) {
      return http.accessDenied(text, permission);
    }
    if (code != null && code.contains("InUse")) {
      return Failure.userAction("resource_in_use", text, "Remove or move what uses it first (its id is in the"
          + " message), then retry the teardown.", null);
    }
    if (status == 409) {
      return Failure.userAction(FailureCodes.NAME_IN_USE, text, "Choose another name, or remove the resource that"
          + " holds it if it is no longer needed.", null);
    }
    return http.classify(status, text, permission);
  }
}
