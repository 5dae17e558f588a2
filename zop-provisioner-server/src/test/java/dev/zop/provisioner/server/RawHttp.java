package dev.zop.provisioner.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Plain HTTP against the server, for the tests that look at statuses and bodies as a curl user would. */
final class RawHttp {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record Reply(int status, String body, java.net.http.HttpHeaders headers) {
    Reply(int status, String body) {
      this(status, body, java.net.http.HttpHeaders.of(java.util.Map.of(), (k, v) -> true));
    }

    String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON (" + status + "): " + body, e);
      }
    }
  }

  private RawHttp() {}

  static Reply send(String base, String method, String path, String token, String contentType, byte[] body) {
    return send(base, method, path, token, contentType, body, java.util.Map.of());
  }

  static Reply send(String base, String method, String path, String token, String contentType, byte[] body,
      java.util.Map<String, String> headers) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30));
    headers.forEach(request::header);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
        : HttpRequest.BodyPublishers.ofByteArray(body));
    try {
      HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body(), response.headers());
    } catch (IOException e) {
      throw new AssertionError(method + " " + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static Reply json(String base, String method, String path, String token, String body) {
    return send(base, method, path, token, body == null ? null : "application/json",
        body == null ? null : body.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }
}
