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
 * start: durable before the step's cloud call, and without a write of the step's own.
 */
class DeclaredIntentTest {
  /** The text of a step update: a step's start, recorded intent, success, wait or failure. */
  private static final String STEP_UPDATE = "UPDATE job_steps SET status = ?, outputs = ?";
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void aDeclaredIntentIsRecordedWithTheStepsStartAndTheStepWritesNoneOfItsOwn() throws Exception {
    SimCloud cloud = SimCloud.create();
    try (WatchedDataSource watched = WatchedDataSource.h2(dir)) {
      DataSource h2 = watched.unwatched();
      try (EmbeddedProvisioner zop = TestEngines.h2(dir, cloud).dataSource(watched.dataSource()).build()) {
        Space space = EngineBehaviour.newSpace(zop, "intent-sim-east-1");
        Map<String, Map<String, String>> storedAtChange = new ConcurrentHashMap<>();
        // runs on the step's own thread, right after the cloud accepted its change
        cloud.onAccepted(operation -> {
          String[] caller = cloud.callingStep().split("/", 2);
          storedAtChange.put(caller[1], storedOutputs(h2, caller[0], caller[1]));
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
        // two updates a step, its start (with the intent it declared) and its success: no step wrote its intent
        // itself
        assertThat(watched.statements()).isEqualTo(2 * steps.size());
      }
    }
  }

  private static Map<String, String> storedOutputs(DataSource ds, String jobId, String stepName) {
    try (Connection c = ds.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT outputs FROM job_steps WHERE job_id = ? AND name = ?"
            + " AND LOWER(phase) = 'create'")) {
      ps.setString(1, jobId);
      ps.setString(2, stepName);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        String outputs = rs.getString(1);
        return outputs == null ? Map.of() : JSON.readValue(outputs, new TypeReference<Map<String, String>>() {});
      }
    } catch (SQLException | java.io.IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
