package dev.zop.provisioner.testkit.revisions;

import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Revisions on the engine's embedded default store, an H2 file. */
class H2RevisionTest extends RevisionBehaviour {
  @TempDir Path dir;

  @Override
  EmbeddedProvisionerBuilder engine(SimCloud simCloud) {
    return TestEngines.h2(dir, simCloud);
  }
}
