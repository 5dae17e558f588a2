package dev.zop.provisioner.spring;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import java.util.Set;
import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDependsOnDatabaseInitializationDetector;

/**
 * Tells Boot that the engine depends on the application's database initialisation: the engine migrates its own
 * tables when it is made, and on an empty schema that must come after the application's Flyway (which refuses a
 * non-empty schema without its history table) however early an application bean asks for the engine. By type, so
 * an {@link EmbeddedProvisioner} the application defines itself is ordered the same way.
 */
public final class ZopDatabaseInitializationDetector
    extends AbstractBeansOfTypeDependsOnDatabaseInitializationDetector {
  @Override
  protected Set<Class<?>> getDependsOnDatabaseInitializationBeanTypes() {
    return Set.of(EmbeddedProvisioner.class);
  }
}
