package dev.zop.provisioner.testkit.engine;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The engine on its embedded default store, an H2 file. */
class H2EngineTest extends EngineBehaviour {
  @TempDir Path dir;

  @Override
  EmbeddedProvisionerBuilder engine(SimCloud simCloud) {
    return TestEngines.h2(dir, simCloud);
  }
}
