package dev.zop.provisioner.helm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.zop.provisioner.CatalogComponent;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A chart repository that cannot be reached is named in the failure, never reported as "null". */
class ChartRepositoryUnreachableTest {
  @Test
  void aRefusedConnectionNamesTheRepositoryAndIsTransient() throws Exception {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    String repository = "http://127.0.0.1:" + closed + "/charts";
    CatalogComponent component = new CatalogComponent("demo", "Demo", "test", "1.0.0", "a chart", repository,
        "demo", Map.of());

    Throwable refused = catchThrowable(() -> new ChartFetcher(Files.createTempDirectory("charts")).fetch(component));

    assertThat(refused).isInstanceOf(java.net.ConnectException.class)
        .hasMessageContaining("could not connect to the chart repository at http://127.0.0.1:" + closed);
    Failure failure = HelmErrors.classify(refused);
    assertThat(failure.category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(failure.message()).contains("127.0.0.1:" + closed).isNotEqualTo("null");
    // an exception that says nothing at all is described by its kind
    assertThat(HelmErrors.classify(new java.net.ConnectException()).message())
        .isEqualTo("a ConnectException with no message");
  }
}
