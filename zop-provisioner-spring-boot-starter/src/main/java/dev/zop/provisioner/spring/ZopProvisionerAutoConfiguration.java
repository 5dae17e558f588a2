package dev.zop.provisioner.spring;

import dev.zop.provisioner.Provisioner;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The embedded engine as a bean: on the application's DataSource unless told otherwise (after the application's
 * own Flyway migrations, with the engine's in their own history table), with the application's Micrometer
 * registry and OpenTelemetry when it has them, closed with the context (running steps end, leases are released).
 * An application that defines its own {@link Provisioner} bean keeps it.
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
      ObjectProvider<MeterRegistry> meters, ObjectProvider<OpenTelemetry> openTelemetry) {
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
    if (properties.getPollInterval() != null) {
      builder.pollInterval(properties.getPollInterval());
    }
    if (properties.getInstanceId() != null) {
      builder.instanceId(properties.getInstanceId());
    }
    builder.runWorkers(properties.isRunWorkers());
    meters.ifUnique(builder::meterRegistry);
    openTelemetry.ifUnique(builder::openTelemetry);
    return builder.build();
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
