package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
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
 * start, in its job's stored steps: durable before the step's cloud call. Every change of a step rides in the
 * fence's update of its job's row: no statement writes the steps alone.
 */
class DeclaredIntentTest {
  /** The text of a write of a job's steps by themselves, outside its fence. */
  private static final String STEPS_ALONE = "UPDATE provisioning_jobs SET steps = ?";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aDeclaredIntentIsRecordedWithTheStepsStartAndNoStepIsWrittenOutsideTheFence() throws Exception {
    SimCloud cloud = SimCloud.create();
    try (WatchedDataSource watched = WatchedDataSource.h2(dir)) {
      DataSource h2 = watched.unwatched();
      try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).build()) {
        Space space = EngineBehaviour.newSpace(zop, "intent-sim-east-1");
        Map<String, Map<String, String>> storedAtChange = new ConcurrentHashMap<>();
        // runs on the step's own thread, right after the cloud accepted its change
        cloud.onAccepted(operation -> {
          String[] caller = cloud.callingStep().split("/", 2);
          storedAtChange.put(caller[1], storedWhileRunning(h2, caller[0], caller[1]));
        });

        watched.countStatements(STEPS_ALONE);
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
        assertThat(watched.statements()).isZero();
      }
    }
  }

  /**
   * The outputs the job's row stores for the step, read past the engine: empty unless the step is stored as running
   * in the create phase (its start written, its end not yet).
   */
  private static Map<String, String> storedWhileRunning(DataSource ds, String jobId, String stepName) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT steps FROM provisioning_jobs WHERE id = ?")) {
      ps.setString(1, jobId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return Map.of();
        }
        for (JsonNode step : JSON.readTree(rs.getString(1))) {
          if (step.get("name").asText().equals(stepName) && step.get("phase").asText().equals("create")
              && step.get("status").asText().equals("running")) {
            return JSON.convertValue(step.get("outputs"), new TypeReference<Map<String, String>>() {});
          }
        }
        return Map.of();
      }
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
