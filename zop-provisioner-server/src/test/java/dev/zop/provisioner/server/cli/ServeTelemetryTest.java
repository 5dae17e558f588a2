package dev.zop.provisioner.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** zop serve exports through the OpenTelemetry SDK only when told to by the standard variables or properties. */
class ServeTelemetryTest {
  @Test
  void nothingIsExportedWithoutOtelSettings() {
    try (ServeTelemetry telemetry = ServeTelemetry.from(Map.of("PATH", "/usr/bin", "ZOP_PORT", "5087"),
        new Properties())) {
      assertThat(telemetry.exporting()).isFalse();
      assertThat(telemetry.meters()).isNull();
    }
  }

  @Test
  void anOtelVariableOrPropertyTurnsTheSdkOn() {
    // exporters named none: the SDK is on, and sends nowhere
    try (ServeTelemetry telemetry = ServeTelemetry.from(Map.of("OTEL_TRACES_EXPORTER", "none",
        "OTEL_METRICS_EXPORTER", "none"), new Properties())) {
      assertThat(telemetry.exporting()).isTrue();
      assertThat(telemetry.meters()).isNotNull();
      assertThat(telemetry.openTelemetry()).isInstanceOf(io.opentelemetry.sdk.OpenTelemetrySdk.class);
    }
    Properties system = new Properties();
    system.setProperty("otel.traces.exporter", "none");
    system.setProperty("otel.metrics.exporter", "none");
    try (ServeTelemetry telemetry = ServeTelemetry.from(Map.of(), system)) {
      assertThat(telemetry.exporting()).isTrue();
    }
  }
}
