package dev.zop.provisioner.server.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.instrumentation.micrometer.v1_5.OpenTelemetryMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.autoconfigure.AutoConfiguredOpenTelemetrySdk;
import java.util.Map;
import java.util.Properties;

/**
 * What {@code zop serve} exports through OpenTelemetry: when any {@code OTEL_*} variable (or {@code otel.*} system
 * property) is set, the SDK as its autoconfiguration reads them — traces (the request's span, the job's, each
 * step's) and the engine's meters, over OTLP as the specification defines it (HTTP/protobuf unless
 * {@code OTEL_EXPORTER_OTLP_PROTOCOL} says otherwise); when none is set, nothing (the API's no-op). The service
 * makes no database spans: it instruments no driver.
 */
final class ServeTelemetry implements AutoCloseable {
  /** Defaults the variables override: the specification's protocol, a service name, no logs exporter. */
  static final Map<String, String> DEFAULTS = Map.of(
      "otel.exporter.otlp.protocol", "http/protobuf",
      "otel.service.name", "zop-provisioner",
      "otel.logs.exporter", "none");

  private final OpenTelemetrySdk sdk;
  private final MeterRegistry meters;

  private ServeTelemetry(OpenTelemetrySdk sdk) {
    this.sdk = sdk;
    this.meters = sdk == null ? null : OpenTelemetryMeterRegistry.builder(sdk).build();
  }

  static ServeTelemetry from(Map<String, String> environment, Properties system) {
    boolean configured = environment.keySet().stream().anyMatch(k -> k.startsWith("OTEL_"))
        || system.stringPropertyNames().stream().anyMatch(k -> k.startsWith("otel."));
    if (!configured) {
      return new ServeTelemetry(null);
    }
    // what was given, over the defaults (the process's own variables and properties are read as well, and win)
    Map<String, String> settings = new java.util.HashMap<>(DEFAULTS);
    environment.forEach((name, value) -> {
      if (name.startsWith("OTEL_")) {
        settings.put(name.toLowerCase(java.util.Locale.ROOT).replace('_', '.'), value);
      }
    });
    system.stringPropertyNames().stream().filter(k -> k.startsWith("otel."))
        .forEach(k -> settings.put(k, system.getProperty(k)));
    return new ServeTelemetry(AutoConfiguredOpenTelemetrySdk.builder().addPropertiesSupplier(() -> settings)
        .disableShutdownHook().build().getOpenTelemetrySdk());
  }

  /** Whether anything is exported. */
  boolean exporting() {
    return sdk != null;
  }

  /** The SDK; only when {@link #exporting()}. */
  OpenTelemetry openTelemetry() {
    return sdk;
  }

  /** The engine's meters handed to the SDK's meter provider, or null when nothing is exported. */
  MeterRegistry meters() {
    return meters;
  }

  /** Flushes what is still buffered, then stops the exporters. */
  @Override
  public void close() {
    if (sdk != null) {
      meters.close();
      sdk.close();
    }
  }
}
