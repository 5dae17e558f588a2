package dev.zop.provisioner.helm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.zop.provisioner.CatalogComponent;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * Finds a component's chart in its repository's {@code index.yaml} and keeps the {@code .tgz} in a local cache,
 * so an install reads a file, and Helm's own repository configuration is never touched.
 */
final class ChartFetcher {
  private final Path cache;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
      .followRedirects(HttpClient.Redirect.NORMAL).build();

  ChartFetcher(Path cache) {
    this.cache = cache;
  }

  /** The chart archive of {@code component}, downloaded once; a chart missing from the repository is named. */
  Path fetch(CatalogComponent component) throws IOException, InterruptedException, ChartNotFoundException {
    String repository = component.repository().endsWith("/") ? component.repository()
        : component.repository() + "/";
    Path file = cache.resolve(digest(repository)).resolve(component.chart() + "-" + component.version() + ".tgz");
    if (Files.isRegularFile(file)) {
      return file;
    }
    URI index = URI.create(repository).resolve("index.yaml");
    HttpResponse<InputStream> response = get(index);
    JsonNode entries;
    try (InputStream body = response.body()) {
      if (response.statusCode() == 404) {
        throw new ChartNotFoundException("no chart repository at " + repository + " (index.yaml: 404)");
      }
      if (response.statusCode() != 200) {
        throw new IOException("chart repository " + index + " answered HTTP " + response.statusCode());
      }
      entries = new YAMLMapper().readTree(body).path("entries").path(component.chart());
    }
    String url = null;
    for (JsonNode entry : entries) {
      if (component.version().equals(entry.path("version").asText()) && entry.path("urls").size() > 0) {
        url = entry.path("urls").get(0).asText();
        break;
      }
    }
    if (url == null) {
      throw new ChartNotFoundException("chart " + component.chart() + " " + component.version() + " is not in "
          + repository + (entries.isMissingNode() ? " (no such chart)" : " (no such version)"));
    }
    URI archive = URI.create(repository).resolve(url);
    HttpResponse<InputStream> download = get(archive);
    Files.createDirectories(file.getParent());
    Path partial = Files.createTempFile(file.getParent(), component.chart(), ".part");
    try (InputStream body = download.body()) {
      if (download.statusCode() == 404) {
        throw new ChartNotFoundException("the index names " + archive + " but it is not there (404)");
      }
      if (download.statusCode() != 200) {
        throw new IOException("downloading " + archive + " answered HTTP " + download.statusCode());
      }
      Files.copy(body, partial, StandardCopyOption.REPLACE_EXISTING);
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(partial);
    }
    return file;
  }

  /**
   * GETs {@code uri}; a connection that fails says which repository it was for (the JDK's ConnectException
   * carries no message), keeping its type, by which a failure is classified as transient.
   */
  private HttpResponse<InputStream> get(URI uri) throws IOException, InterruptedException {
    try {
      return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60)).GET().build(),
          HttpResponse.BodyHandlers.ofInputStream());
    } catch (java.net.ConnectException e) {
      throw (IOException) new java.net.ConnectException("could not connect to the chart repository at "
          + uri.getScheme() + "://" + uri.getAuthority() + explained(e)).initCause(e);
    } catch (java.net.http.HttpTimeoutException e) {
      throw (IOException) new java.net.http.HttpTimeoutException("the chart repository at " + uri.getScheme()
          + "://" + uri.getAuthority() + " did not answer in time" + explained(e)).initCause(e);
    } catch (IOException e) {
      throw new IOException("reading the chart repository at " + uri.getScheme() + "://" + uri.getAuthority()
          + " failed" + explained(e), e);
    }
  }

  /** ": " and what the error (or its cause) says, or its kind where it says nothing. */
  static String explained(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        return ": " + t.getMessage();
      }
    }
    return " (" + e.getClass().getSimpleName() + ")";
  }

  private static String digest(String value) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(value.getBytes(StandardCharsets.UTF_8)), 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
