package dev.zop.provisioner.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.Principal;
import dev.zop.provisioner.Provisioner;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every list route pages with a cursor; the client follows the cursors so its lists are whole. */
class PaginationTest {
  static ServerFixture fixture;
  static List<String> ids = new ArrayList<>();

  @BeforeAll
  static void start() {
    fixture = new ServerFixture();
    Provisioner acme = fixture.engine.as(new Principal("acme", "alice@acme.com", Set.of(Principal.ADMIN)));
    for (int i = 0; i < 507; i++) { // more than the client's page of 500
      ids.add(acme.accounts().create(CloudAccountRequest.of("sim", "account-" + i)).id().value());
    }
  }

  @AfterAll
  static void stop() {
    fixture.close();
  }

  @Test
  void pagesFollowTheirCursorsToTheEndWithoutRepeats() {
    List<String> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      JsonNode page = RawHttp.json(fixture.baseUrl(), "GET", "/cloud-accounts?limit=100"
          + (cursor == null ? "" : "&cursor=" + cursor), fixture.adminToken, null).json();
      page.get("data").forEach(a -> seen.add(a.get("id").asText()));
      cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
      pages++;
    } while (cursor != null);
    assertThat(pages).isEqualTo(6);
    List<String> newestFirst = new ArrayList<>(ids);
    java.util.Collections.reverse(newestFirst);
    assertThat(seen).containsExactlyElementsOf(newestFirst);

    seen.clear();
    cursor = null;
    do {
      JsonNode page = RawHttp.json(fixture.baseUrl(), "GET", "/cloud-accounts?limit=100&order=oldest"
          + (cursor == null ? "" : "&cursor=" + cursor), fixture.adminToken, null).json();
      page.get("data").forEach(a -> seen.add(a.get("id").asText()));
      cursor = page.get("nextCursor").isNull() ? null : page.get("nextCursor").asText();
    } while (cursor != null);
    assertThat(seen).containsExactlyElementsOf(ids);
    assertThat(RawHttp.json(fixture.baseUrl(), "GET", "/cloud-accounts?order=sideways", fixture.adminToken, null)
        .status()).isEqualTo(400);

    assertThat(RawHttp.json(fixture.baseUrl(), "GET", "/cloud-accounts?cursor=knope", fixture.adminToken, null)
        .status()).isEqualTo(400);
  }

  @Test
  void largePagesAreGzippedForCallersThatAcceptIt() throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    java.util.function.Function<Boolean, java.net.http.HttpResponse<byte[]>> page = gzip -> {
      java.net.http.HttpRequest.Builder request = java.net.http.HttpRequest.newBuilder(
              java.net.URI.create(fixture.baseUrl() + "/cloud-accounts?limit=100"))
          .header("Authorization", "Bearer " + fixture.adminToken);
      if (gzip) {
        request.header("Accept-Encoding", "gzip");
      }
      try {
        return http.send(request.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray());
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    java.net.http.HttpResponse<byte[]> plain = page.apply(false);
    java.net.http.HttpResponse<byte[]> zipped = page.apply(true);
    assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(zipped.headers().firstValue("Content-Encoding")).contains("gzip");
    byte[] unzipped = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(zipped.body()))
        .readAllBytes();
    assertThat(RawHttp.JSON.readTree(unzipped)).isEqualTo(RawHttp.JSON.readTree(plain.body()));
    assertThat(zipped.body().length).isLessThan(plain.body().length / 4);
  }

  @Test
  void theClientReturnsWholeLists() {
    try (Provisioner client = fixture.client(fixture.adminToken)) {
      List<String> newestFirst = new ArrayList<>(ids);
      java.util.Collections.reverse(newestFirst);
      assertThat(client.accounts().list()).extracting(a -> a.id().value()).containsExactlyElementsOf(newestFirst);
      assertThat(client.accounts().list()).extracting(CloudAccount::name).doesNotHaveDuplicates();
    }
  }
}
