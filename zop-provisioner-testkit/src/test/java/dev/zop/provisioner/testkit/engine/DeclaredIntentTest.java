package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.sim.SimCloud;
import dev.zop.provisioner.testkit.TestEngines;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step that declares its intent before it runs (the simulated cloud's create steps do) has it recorded with its
 * start, on its job's row: durable before the step's cloud call, and without a write of the step's row until the
 * step ends.
 */
class DeclaredIntentTest {
  /** The text of a step update: a step's start, recorded intent, success, wait or failure. */
  private static final String STEP_UPDATE = "UPDATE job_steps SET status = ?, outputs = ?";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aDeclaredIntentIsRecordedWithTheStepsStartAndTheStepsRowIsWrittenOnlyWhenItEnds() throws Exception {
    SimCloud cloud = SimCloud.create();
    try (WatchedDataSource watched = WatchedDataSource.h2(dir)) {
      DataSource h2 = watched.unwatched();
      try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).build()) {
        Space space = EngineBehaviour.newSpace(zop, "intent-sim-east-1");
        Map<String, Map<String, String>> storedAtChange = new ConcurrentHashMap<>();
        // runs on the step's own thread, right after the cloud accepted its change
        cloud.onAccepted(operation -> {
          String[] caller = cloud.callingStep().split("/", 2);
          storedAtChange.put(caller[1], heldForStep(h2, caller[0], caller[1]));
        });

        watched.countStatements(STEP_UPDATE);
        Job job = zop.jobs().await(zop.jobs().submit(space.id(), EngineBehaviour.network("net-0")).id(),
            Duration.ofSeconds(30));

        assertThat(job.status()).isEqualTo(JobStatus.SUCCEEDED);
        var steps = job.steps().stream().filter(s -> s.phase() == JobPhase.CREATE).toList();
        assertThat(storedAtChange).hasSize(steps.size()); // every step of a network creates something
        for (JobStep step : steps) {
          assertThat(storedAtChange.get(step.name())).as("intent of %s stored when its change was made", step.name())
              .isNotEmpty();
          assertThat(step.outputs()).containsAllEntriesOf(storedAtChange.get(step.name()));
        }
        // one update a step, its success: neither its start nor the step itself wrote its row
        assertThat(watched.statements()).isEqualTo(steps.size());
      }
    }
  }

  /**
   * The intent the job's row holds for the step, read past the engine: empty unless the row names the step as the
   * one started, with its step's row still pending (its start not written there).
   */
  private static Map<String, String> heldForStep(DataSource ds, String jobId, String stepName) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT j.step_intent FROM provisioning_jobs j"
            + " JOIN job_steps s ON s.id = j.step_started WHERE j.id = ? AND s.name = ?"
            + " AND LOWER(s.phase) = 'create' AND LOWER(s.status) = 'pending'")) {
      ps.setString(1, jobId);
      ps.setString(2, stepName);
      try (ResultSet rs = ps.executeQuery()) {
        String intent = rs.next() ? rs.getString(1) : null;
        return intent == null ? Map.of() : JSON.readValue(intent, new TypeReference<Map<String, String>>() {});
      }
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
