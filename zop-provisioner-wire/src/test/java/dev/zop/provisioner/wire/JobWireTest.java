package dev.zop.provisioner.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.Page;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.spec.DatastoreSpec;
import dev.zop.provisioner.spec.RegistrySpec;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Jobs and their steps are written and read by hand for speed; what goes over the wire must stay what Jackson's
 * record (de)serializers make of the same values: the same names, order and nulls.
 */
class JobWireTest {
  /** Jackson left to itself, as the job was written before: the reference. */
  private final ObjectMapper jackson = new ObjectMapper().registerModule(new JavaTimeModule())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
  private final ObjectMapper strict = WireJson.strict();
  private final ObjectMapper lenient = WireJson.lenient();

  private static final Instant CREATED = Instant.parse("2026-12-03T10:15:30.123456Z");

  static List<Job> jobs() {
    JobStep done = new JobStep(UUID.fromString("8d1f4c52-8a2e-4a3b-9c1d-2f6b7e0a9b11"), JobPhase.CREATE, 0,
        "create repository", StepStatus.SUCCEEDED, 1, List.of("ecr:CreateRepository", "ecr:TagResource"),
        Map.of("repositoryUri", "123456789012.dkr.ecr.us-east-1.amazonaws.com/app", "quote", "a \"b\" \\ c\n"),
        null, CREATED, CREATED.plusMillis(250));
    JobStep failed = new JobStep(UUID.fromString("00000000-0000-4000-8000-000000000002"), JobPhase.TEARDOWN, 1,
        "delete repository", StepStatus.FAILED, 3, List.of(), Map.of(),
        new Failure(dev.zop.provisioner.FailureCategory.USER_ACTION, "access_denied", "not allowed: ü ✓",
            "grant ecr:DeleteRepository", "https://console.example/x", "req-1"),
        Instant.parse("2026-01-01T00:00:00Z"), null);
    JobStep pending = new JobStep(UUID.fromString("00000000-0000-4000-8000-000000000003"), JobPhase.CREATE, 2,
        "wait", StepStatus.PENDING, 0, List.of("sim:Describe"), Map.of(), null, null, null);
    Job full = new Job(JobId.of("job_abc123"), SpaceId.of("spc_abc123"), JobType.PROVISIONING, JobKind.REGISTRY,
        "app images", Map.of("team", "checkout", "env", "prod"), JobStatus.FAILED, JobPhase.TEARDOWN,
        RegistrySpec.named("app"), Map.of("repositoryUri", "x"), Failure.transientFailure("throttled", "slow down"),
        List.of(done, failed, pending), "alice@example.com", CREATED, CREATED.plusSeconds(61),
        Instant.parse("+12026-01-01T00:00:00Z"));
    // just submitted: what may be null is (no failure, not finished), no steps, tags or outputs yet
    Job sparse = new Job(JobId.of("job_sparse"), SpaceId.of("spc_1"), JobType.PROVISIONING, JobKind.REGISTRY, "",
        Map.of(), JobStatus.PENDING, JobPhase.CREATE, RegistrySpec.named("r"), Map.of(), null, List.of(), "", CREATED,
        CREATED, null);
    Job datastore = new Job(JobId.of("job_db"), SpaceId.of("spc_1"), JobType.PROVISIONING, JobKind.DATASTORE, "db",
        Map.of(), JobStatus.RUNNING, JobPhase.CREATE, DatastoreSpec.postgres().version("16.3")
            .instanceClass("db.t3.medium").allocatedStorageGb(50).multiAz(true).backupRetentionDays(7).build(),
        Map.of(), null, List.of(pending), "bob", CREATED, CREATED, null);
    // a revision that failed, beside the config last applied
    Job revised = new Job(JobId.of("job_rev"), SpaceId.of("spc_1"), JobType.PROVISIONING, JobKind.REGISTRY, "r",
        Map.of(), JobStatus.FAILED, JobPhase.UPDATE, RegistrySpec.named("r"), Map.of(), null, List.of(), "bob",
        CREATED, CREATED, CREATED.plusSeconds(5), new dev.zop.provisioner.JobRevision(2, JobKind.REGISTRY,
            RegistrySpec.builder().name("r").immutableTags(true).build(), dev.zop.provisioner.JobRevision.Status.FAILED,
            "bob", CREATED.plusSeconds(1), CREATED.plusSeconds(5)));
    return List.of(full, sparse, datastore, revised);
  }

  @Test
  void aJobIsWrittenAsJacksonWritesItsRecord() throws Exception {
    for (Job job : jobs()) {
      assertThat(strict.writeValueAsString(job)).as(job.id().value()).isEqualTo(jackson.writeValueAsString(job));
      assertThat(lenient.writeValueAsString(job)).isEqualTo(jackson.writeValueAsString(job));
    }
    Map<String, Object> envelope = Map.of("data", jobs());
    assertThat(strict.writeValueAsString(envelope)).isEqualTo(jackson.writeValueAsString(envelope));
    for (JobStep step : jobs().get(0).steps()) {
      assertThat(strict.writeValueAsString(step)).isEqualTo(jackson.writeValueAsString(step));
    }
  }

  @Test
  void whatIsWrittenReadsBackAsTheSameJob() throws Exception {
    for (Job job : jobs()) {
      assertThat(lenient.readValue(strict.writeValueAsBytes(job), Job.class)).isEqualTo(job);
    }
    Page<Job> page = new Page<>(jobs(), "c42");
    String json = strict.writeValueAsString(Map.of("data", page.items()));
    assertThat(lenient.readTree(json).get("data")).hasSize(4);
    assertThat(lenient.readerForListOf(Job.class).<List<Job>>readValue(lenient.readTree(json).get("data")))
        .isEqualTo(jobs());
  }

  @Test
  void aStepReadsAsJacksonReadsItsRecordSkippingWhatANewerServerAdds() throws Exception {
    String step = "{\"id\":\"00000000-0000-4000-8000-000000000009\",\"phase\":\"create\",\"position\":4,"
        + "\"name\":\"s\",\"status\":\"running\",\"attempts\":2,\"permissions\":[\"a:B\"],\"outputs\":{\"k\":\"v\"},"
        + "\"failure\":null,\"startedAt\":\"2026-12-03T10:15:30Z\",\"finishedAt\":null,"
        + "\"estimate\":{\"seconds\":[1,2]},\"note\":\"new\"}";
    String job = "{\"id\":\"job_1\",\"spaceId\":\"spc_1\",\"jobType\":\"provisioning\",\"kind\":\"registry\","
        + "\"name\":\"r\",\"status\":\"running\",\"phase\":\"create\",\"createdBy\":\"a\","
        + "\"createdAt\":\"2026-12-03T10:15:30Z\",\"updatedAt\":\"2026-12-03T10:15:30Z\","
        + "\"config\":{\"name\":\"r\"},\"steps\":[" + step + "]}";
    JobStep read = lenient.readValue(job, Job.class).steps().get(0);
    assertThat(read).isEqualTo(new JobStep(UUID.fromString("00000000-0000-4000-8000-000000000009"),
        JobPhase.CREATE, 4, "s", StepStatus.RUNNING, 2, List.of("a:B"), Map.of("k", "v"), null,
        Instant.parse("2026-12-03T10:15:30Z"), null));
    ObjectMapper jacksonLenient = jackson.copy()
        .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    assertThat(read).isEqualTo(jacksonLenient.readValue(step, JobStep.class));
  }
}
