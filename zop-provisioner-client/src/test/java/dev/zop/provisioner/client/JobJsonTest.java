package dev.zop.provisioner.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobStep;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.SpaceId;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.spec.NetworkSpec;
import dev.zop.provisioner.wire.WireJson;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A job reads back as it was written, whatever the order of its fields and whatever fields a newer server adds. */
class JobJsonTest {
  private final ObjectMapper json = WireJson.lenient();

  private final Job job = new Job(JobId.of("job_1"), SpaceId.of("sp_1"), JobType.PROVISIONING, JobKind.NETWORK,
      "edge", Map.of("team", "core"), JobStatus.FAILED, JobPhase.CREATE,
      NetworkSpec.named("edge").cidr("10.0.0.0/16").subnet("a", "10.0.1.0/24").build(), Map.of("vpcId", "vpc-1"),
      Failure.transientFailure("throttled", "slow down"),
      List.of(new JobStep(UUID.randomUUID(), JobPhase.CREATE, 0, "create-vpc", StepStatus.SUCCEEDED, 1,
              List.of("ec2:CreateVpc"), Map.of("vpcId", "vpc-1"), null, Instant.parse("2026-12-01T10:00:00Z"),
              Instant.parse("2026-12-01T10:00:01.123456Z")),
          new JobStep(UUID.randomUUID(), JobPhase.CREATE, 1, "create-subnets", StepStatus.FAILED, 3, List.of(),
              Map.of(), Failure.transientFailure("throttled", "slow down"), Instant.parse("2026-12-01T10:00:02Z"),
              null)),
      "alice", Instant.parse("2026-12-01T09:59:59Z"), Instant.parse("2026-12-01T10:00:03Z"), null);

  @Test
  void aJobReadsBackAsWritten() throws Exception {
    assertThat(json.readValue(json.writeValueAsBytes(job), Job.class)).isEqualTo(job);
  }

  @Test
  void configBeforeKindAndUnknownFieldsStillRead() throws Exception {
    ObjectNode written = json.valueToTree(job);
    ObjectNode reordered = json.createObjectNode();
    reordered.set("config", written.get("config"));
    reordered.putObject("addedLater").put("nested", true).putArray("list").add(1);
    List<String> rest = new ArrayList<>();
    for (Iterator<String> names = written.fieldNames(); names.hasNext(); ) {
      rest.add(names.next());
    }
    java.util.Collections.reverse(rest);
    rest.stream().filter(name -> !name.equals("config")).forEach(name -> reordered.set(name, written.get(name)));

    Job read = json.readValue(json.writeValueAsBytes(reordered), Job.class);

    assertThat(read).isEqualTo(job);
    assertThat(read.spec()).isInstanceOf(NetworkSpec.class);
  }

  @Test
  void instantsReadAsTheStandardParserReadsThem() throws Exception {
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 20_000; i++) {
      Instant instant = Instant.ofEpochSecond(random.nextLong(0, 253_402_300_799L),
          switch (i % 4) {
            case 0 -> 0;
            case 1 -> random.nextInt(1_000) * 1_000_000;
            case 2 -> random.nextInt(1_000_000) * 1_000;
            default -> random.nextInt(1_000_000_000);
          });
      String text = instant.toString();
      assertThat(json.readValue("\"" + text + "\"", Instant.class)).as(text).isEqualTo(Instant.parse(text));
    }
    // other shapes, valid or not, read exactly as the JSR-310 module alone reads them
    ObjectMapper standard = new ObjectMapper().registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule());
    for (String other : List.of("2026-12-01T10:00:00.1Z", "2026-02-28T23:59:59.000000000Z", "2024-02-29T00:00:00Z",
        "2026-12-01T11:00:00+01:00", "2026-12-01T24:00:00Z", "2026-12-01T10:00:00.Z", "2026-02-30T10:00:00Z",
        "2026-13-01T10:00:00Z", "2026-12-01T10:00:00.123456789012Z", "2026-12-01 10:00:00Z", "not a time")) {
      String quoted = "\"" + other + "\"";
      assertThat(outcome(() -> json.readValue(quoted, Instant.class))).as(other)
          .isEqualTo(outcome(() -> standard.readValue(quoted, Instant.class)));
    }
    assertThat(outcome(() -> json.readValue("\"2026-02-30T10:00:00Z\"", Instant.class)))
        .isEqualTo("InvalidFormatException");
  }

  private static Object outcome(java.util.concurrent.Callable<Instant> read) {
    try {
      return read.call();
    } catch (Exception e) {
      return e.getClass().getSimpleName();
    }
  }

  @Test
  void aPageOfJobsAndNullFieldsRead() throws Exception {
    List<Job> page = json.readValue(json.writeValueAsBytes(List.of(job, job)), new TypeReference<List<Job>>() {});
    assertThat(page).containsExactly(job, job);

    ObjectNode sparse = json.valueToTree(job);
    sparse.putNull("lastFailure");
    sparse.putNull("finishedAt");
    sparse.putNull("tags");
    Job read = json.readValue(json.writeValueAsBytes(sparse), Job.class);
    assertThat(read.lastFailure()).isNull();
    assertThat(read.tags()).isEmpty();
    assertThat(read.steps()).isEqualTo(job.steps());
  }
}
