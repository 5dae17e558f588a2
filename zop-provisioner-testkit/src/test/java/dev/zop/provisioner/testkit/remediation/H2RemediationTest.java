package dev.zop.provisioner.testkit.remediation;

import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.core.EmbeddedProvisionerBuilder;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class H2RemediationTest extends RemediationBehaviour {
  @TempDir Path dir;

  @Override
  EmbeddedProvisionerBuilder engine(SimCloud simCloud) {
    return TestEngines.h2(dir, simCloud);
  }
}
