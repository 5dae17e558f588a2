package dev.zop.provisioner.spring;

import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;

/**
 * A bean of this type changes the engine's builder after the {@code zop.*} properties, the application's
 * DataSource, meters, OpenTelemetry and {@link dev.zop.provisioner.spi.CloudProvider} beans were applied, and before
 * the engine is built: anything the builder offers (a notifier, a retry policy, workflow templates, a secret
 * store, ...). Several customizers run in their {@link org.springframework.core.Ordered order}.
 */
@FunctionalInterface
public interface ZopProvisionerBuilderCustomizer {
  void customize(EmbeddedProvisionerBuilder builder);
}
