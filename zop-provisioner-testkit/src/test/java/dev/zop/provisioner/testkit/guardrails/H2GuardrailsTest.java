package dev.zop.provisioner.testkit.guardrails;

import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Guardrails on the engine's embedded default store, an H2 file. */
class H2GuardrailsTest extends GuardrailBehaviour {
  @TempDir Path dir;

  @Override
  EmbeddedProvisionerBuilder engine(SimCloud simCloud) {
    return TestEngines.h2(dir, simCloud);
  }
}
