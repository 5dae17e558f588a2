package dev.zop.provisioner.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.ProviderMetadata;
import dev.zop.provisioner.spi.ProviderSession;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** zop serve --provider-poll-interval: how it is written, and that it reaches every installed provider. */
class ServePollIntervalTest {
  @Test
  void theIntervalIsWrittenAsPeopleWriteDurations() {
    assertThat(ServeCommand.interval("10s")).isEqualTo(Duration.ofSeconds(10));
    assertThat(ServeCommand.interval("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(ServeCommand.interval("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(ServeCommand.interval("PT15S")).isEqualTo(Duration.ofSeconds(15));
    assertThatThrownBy(() -> ServeCommand.interval("soon")).hasMessageContaining("10s, 500ms, 2m or PT10S");
    assertThatThrownBy(() -> ServeCommand.interval("0ms")).hasMessageContaining("at least 1ms");
  }

  @Test
  void everyInstalledProviderIsHandedTheInterval() {
    Duration interval = Duration.ofMillis(1234);
    List<CloudProvider> installed = ServiceLoader.load(CloudProvider.class).stream()
        .map(ServiceLoader.Provider::get).toList();
    assertThat(installed).extracting(p -> p.metadata().id()).contains("aws", "gcp", "azure");
    List<CloudProvider> polling = ServeCommand.configured(installed, new SimpleMeterRegistry(), interval);
    assertThat(polling).extracting(p -> p.metadata().id())
        .containsExactlyElementsOf(installed.stream().map(p -> p.metadata().id()).toList());
    // each real provider answers with a configured copy of itself, not the one it was
    for (int i = 0; i < installed.size(); i++) {
      if (List.of("aws", "gcp", "azure").contains(installed.get(i).metadata().id())) {
        assertThat(polling.get(i)).isNotSameAs(installed.get(i)).hasSameClassAs(installed.get(i))
            .hasFieldOrPropertyWithValue("pollInterval", interval);
      }
    }
    CloudProvider fixed = new CloudProvider() {
      @Override
      public ProviderMetadata metadata() {
        return installed.get(0).metadata();
      }

      @Override
      public ProviderSession open(CloudAccount account, String region) {
        throw new UnsupportedOperationException();
      }
    };
    assertThat(ServeCommand.configured(List.of(fixed), new SimpleMeterRegistry(), interval)).containsExactly(fixed);
  }
}
