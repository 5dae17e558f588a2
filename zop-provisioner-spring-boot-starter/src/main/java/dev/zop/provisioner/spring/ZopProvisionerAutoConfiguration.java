package dev.zop.provisioner.spring;

import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimProvider;
import dev.zop.provisioner.spi.CloudProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded engine as a bean: on the application's DataSource unless told otherwise (made after the
 * application's own database initialisation, such as its Flyway migrations, whatever injects it: see
 * {@link ZopDatabaseInitializationDetector}; the engine's migrations in their own history table), with the
 * application's Micrometer registry, OpenTelemetry and {@link CloudProvider} beans when it has them, changed last by
 * its {@link ZopProvisionerBuilderCustomizer} beans, and closed with the context (running steps end, leases are
 * released). An application that defines its own {@link Provisioner} bean keeps it.
 */
@AutoConfiguration(afterName = {"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
    "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
@ConditionalOnClass(EmbeddedProvisioner.class)
@ConditionalOnBooleanProperty(name = "zop.enabled", matchIfMissing = true)
@EnableConfigurationProperties(ZopProperties.class)
public class ZopProvisionerAutoConfiguration {
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(Provisioner.class)
  public EmbeddedProvisioner zopProvisioner(ZopProperties properties, ObjectProvider<DataSource> dataSource,
      ObjectProvider<MeterRegistry> meters, ObjectProvider<OpenTelemetry> openTelemetry,
      ObjectProvider<CloudProvider> providers, ObjectProvider<ZopProvisionerBuilderCustomizer> customizers) {
    EmbeddedProvisionerBuilder builder = EmbeddedProvisioner.builder();
    DataSource application = properties.isUseApplicationDataSource() && properties.getJdbcUrl() == null
        ? dataSource.getIfUnique() : null;
    if (application != null) {
      builder.dataSource(application);
    } else if (properties.getJdbcUrl() != null) {
      builder.jdbc(properties.getJdbcUrl(), properties.getJdbcUser(), properties.getJdbcPassword());
      if (properties.getSchema() != null) {
        builder.schema(properties.getSchema());
      }
    }
    if (properties.getDataDirectory() != null) {
      builder.dataDirectory(properties.getDataDirectory());
    }
    if (properties.getWorkerThreads() != null) {
      builder.workerThreads(properties.getWorkerThreads());
    }
    if (properties.getLeaseDuration() != null) {
      builder.leaseDuration(properties.getLeaseDuration());
    }
    if (properties.getDriftScheduleInterval() != null) {
      builder.driftScheduleInterval(properties.getDriftScheduleInterval());
    }
    if (properties.getPollInterval() != null) {
      builder.pollInterval(properties.getPollInterval());
    }
    if (properties.getInstanceId() != null) {
      builder.instanceId(properties.getInstanceId());
    }
    builder.runWorkers(properties.isRunWorkers());
    meters.ifUnique(builder::meterRegistry);
    openTelemetry.ifUnique(builder::openTelemetry);
    // beside those ServiceLoader finds; a bean replaces a discovered provider of the same id
    providers.orderedStream().forEach(builder::provider);
    customizers.orderedStream().forEach(c -> c.customize(builder));
    return builder.build();
  }

  /**
   * The guardrails the application declares ({@code zop.guardrails.*}, {@link dev.zop.provisioner.GuardrailRequest}
   * beans), made or brought up to date in the engine when the context starts.
   */
  @Bean
  @ConditionalOnMissingBean(ZopGuardrails.class)
  public ZopGuardrails zopGuardrails(Provisioner provisioner, ZopProperties properties,
      ObjectProvider<dev.zop.provisioner.GuardrailRequest> declared) {
    return new ZopGuardrails(provisioner, properties.getGuardrailsOrganisation(), properties.getGuardrails(),
        declared.orderedStream().toList());
  }

  /**
   * {@code zop.simulated-cloud=true}: the {@code sim} provider, a simulation in memory (nothing real is created),
   * for demos and tests of the application, with {@code provider-sim} on the class path and no testkit.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "dev.zop.provisioner.sim.SimProvider")
  @ConditionalOnBooleanProperty(name = "zop.simulated-cloud")
  static class SimulatedCloud {
    @Bean
    @ConditionalOnMissingBean(SimProvider.class)
    SimProvider zopSimulatedCloud() {
      org.slf4j.LoggerFactory.getLogger(ZopProvisionerAutoConfiguration.class).warn(
          "zop.simulated-cloud=true: provider 'sim' is a simulation in memory; nothing real is created");
      return new SimProvider();
    }
  }

  /** The property set without the simulation to install: said at start rather than as a refused submit later. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnMissingClass("dev.zop.provisioner.sim.SimProvider")
  @ConditionalOnBooleanProperty(name = "zop.simulated-cloud")
  static class SimulatedCloudMissing {
    SimulatedCloudMissing() {
      throw new IllegalStateException("zop.simulated-cloud=true needs dev.zop:provider-sim on the class path");
    }
  }

  /** {@code /actuator/health}'s {@code zop}: whether the engine's store answers. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
  static class Health {
    @Bean
    @ConditionalOnMissingBean(name = "zopHealthIndicator")
    ZopHealthIndicator zopHealthIndicator(ObjectProvider<EmbeddedProvisioner> engine) {
      return new ZopHealthIndicator(engine);
    }
  }
}
