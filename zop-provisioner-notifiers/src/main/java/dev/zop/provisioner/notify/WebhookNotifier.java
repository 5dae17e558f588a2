package dev.zop.provisioner.notify;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.spi.Notification;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * POSTs each notification as JSON to one URL, signed: header {@value #SIGNATURE} is {@code sha256=} and the hex
 * HMAC-SHA256 of the exact body under the shared secret, {@value #DELIVERY} the delivery id (the same on every
 * retry, so a receiver can drop duplicates). 2xx is delivered; 429, 5xx and no answer are retried with backoff up
 * to {@code maxAttempts}; any other status is final.
 */
public final class WebhookNotifier extends DeliveringNotifier {
  public static final String SIGNATURE = "X-Zop-Signature";
  public static final String DELIVERY = "X-Zop-Delivery";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI url;
  private final byte[] secret;
  private final Duration timeout;
  private final HttpClient http;

  private WebhookNotifier(Builder b) {
    super("webhook", b);
    this.url = b.url;
    this.secret = b.secret.getBytes(StandardCharsets.UTF_8);
    this.timeout = b.timeout;
    this.http = HttpClient.newBuilder().connectTimeout(b.timeout).build();
  }

  /** A notifier for {@code url} signing with {@code secret} (keep it out of code: an environment variable). */
  public static Builder to(URI url, String secret) {
    return new Builder(url, secret);
  }

  /** The signature header's value for {@code body} under {@code secret}, for receivers to compare with. */
  public static String signature(String secret, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return "sha256=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  @Override
  String deliver(String deliveryId, Notification n) throws Exception {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("id", deliveryId);
    payload.put("template", n.template());
    payload.put("orgId", n.orgId());
    payload.put("recipients", n.recipients());
    payload.put("jobId", n.jobId() == null ? null : n.jobId().value());
    payload.put("data", n.data());
    payload.put("sentAt", Instant.now().toString());
    byte[] body = JSON.writeValueAsBytes(payload);
    HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout)
        .header("Content-Type", "application/json")
        .header("User-Agent", "zop-provisioner-webhook")
        .header(DELIVERY, deliveryId)
        .header(SIGNATURE, signature(new String(secret, StandardCharsets.UTF_8), body))
        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
    HttpResponse<Void> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.discarding());
    } catch (IOException e) {
      throw new RetryableDeliveryException("no answer from " + url.getHost() + ": " + e, e);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return "HTTP " + status;
    }
    if (status == 429 || status >= 500) {
      throw new RetryableDeliveryException("HTTP " + status + " from " + url.getHost(), null);
    }
    throw new IllegalStateException("HTTP " + status + " from " + url.getHost() + " (not retried)");
  }

  /** Settings of a webhook notifier (timeout per attempt 10 s by default). */
  public static final class Builder extends Settings<Builder> {
    private final URI url;
    private final String secret;

    private Builder(URI url, String secret) {
      super(Duration.ofSeconds(10));
      this.url = Objects.requireNonNull(url, "url");
      if (!"https".equals(url.getScheme()) && !"http".equals(url.getScheme())) {
        throw new IllegalArgumentException("a webhook URL is http(s), not " + url);
      }
      this.secret = Objects.requireNonNull(secret, "secret");
      if (secret.length() < 16) {
        throw new IllegalArgumentException("the webhook secret must be at least 16 characters");
      }
    }

    public WebhookNotifier build() {
      return new WebhookNotifier(this);
    }
  }
}
