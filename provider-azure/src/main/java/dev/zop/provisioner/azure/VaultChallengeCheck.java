package dev.zop.provisioner.azure;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/**
 * Key Vault's challenge checked against the resource the account names ({@code keyVaultChallengeResource}), for a
 * vault reached through a host outside {@code vault.azure.net} (a private endpoint's name): the SDK's own check,
 * which wants the challenge's resource to be the vault host's domain, cannot pass there and is turned off, and this
 * one keeps a vault from handing the credential a token audience the account did not expect.
 */
final class VaultChallengeCheck implements HttpPipelinePolicy {
  private static final Pattern RESOURCE = Pattern.compile("(?:resource|scope)=\"([^\"]+)\"");

  private final String expected;

  VaultChallengeCheck(String resource) {
    this.expected = normalised(resource);
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    return next.process().map(this::checked);
  }

  @Override
  public HttpResponse processSync(HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    return checked(next.processSync());
  }

  private HttpResponse checked(HttpResponse response) {
    String challenge = response.getStatusCode() == 401 ? response.getHeaderValue("WWW-Authenticate") : null;
    if (challenge == null) {
      return response;
    }
    Matcher named = RESOURCE.matcher(challenge);
    String resource = named.find() ? normalised(named.group(1)) : null;
    if (!expected.equals(resource)) {
      response.close();
      throw new IllegalStateException("the Key Vault's challenge resource " + resource + " is not the account's"
          + " keyVaultChallengeResource " + expected);
    }
    return response;
  }

  /** {@code https://vault.azure.net/.default} and {@code https://vault.azure.net/} are one resource. */
  static String normalised(String resource) {
    String text = resource.trim().toLowerCase(Locale.ROOT);
    if (text.endsWith("/.default")) {
      text = text.substring(0, text.length() - "/.default".length());
    }
    URI uri = URI.create(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "");
  }
}
