package dev.zop.provisioner.spring;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import java.sql.Connection;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/** Up while the engine's store answers within two seconds; down, with the store's error, when it does not. */
public class ZopHealthIndicator extends AbstractHealthIndicator {
  private final ObjectProvider<EmbeddedProvisioner> engine;

  public ZopHealthIndicator(ObjectProvider<EmbeddedProvisioner> engine) {
    super("the provisioning engine's store does not answer");
    this.engine = engine;
  }

  @Override
  protected void doHealthCheck(Health.Builder health) throws Exception {
    EmbeddedProvisioner provisioner = engine.getIfAvailable();
    if (provisioner == null) {
      health.unknown().withDetail("engine", "the application defines its own Provisioner");
      return;
    }
    try (Connection c = provisioner.dataSource().getConnection()) {
      if (c.isValid(2)) {
        health.up().withDetail("store", c.getMetaData().getDatabaseProductName());
      } else {
        health.down().withDetail("store", "no answer within 2 s");
      }
    }
  }
}
