package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Submits to a space read it once, not before every job: a space found active is kept, and each job's insert
 * checks it is still active (EngineBehaviour shows what happens when it is not).
 */
class KeptSpaceTest {
  /** The start of the read of a space with its account. */
  private static final String SPACE_READ = "SELECT s.org_id AS space_org";

  @TempDir Path dir;

  @Test
  void submitsInARowReadTheirSpaceOnce() {
    SimCloud cloud = SimCloud.create();
    try (WatchedDataSource watched = WatchedDataSource.h2(dir);
        EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).runWorkers(false)
            .build()) {
      Space space = EngineBehaviour.newSpace(zop, "kept-sim-east-1");
      watched.countStatements(SPACE_READ);
      for (int i = 0; i < 5; i++) {
        zop.jobs().submit(space.id(), RegistrySpec.named("team/kept-" + i));
      }
      // a plan reads its space every time: nothing is written with it
      zop.jobs().plan(space.id(), RegistrySpec.named("team/planned"));

      assertThat(watched.statements()).isEqualTo(2);
    }
  }
}
