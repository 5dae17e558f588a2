package dev.zop.provisioner.server.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.wire.WireJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The service's answers are the bytes the mapper writes for the envelope as a map, kept jobs or not. */
class AnswerWriterTest {
  private static final ObjectMapper JSON = WireJson.strict();
  private static final Instant AT = Instant.parse("2026-12-03T10:15:30.123456Z");

  @Test
  void jobsAndPagesAreWrittenAsTheMapperWritesTheirEnvelope() throws Exception {
    AnswerWriter answers = new AnswerWriter(JSON);
    Job finished = job("job_finished00000000001", JobStatus.FAILED, "finished");
    Job running = job("job_running000000000001", JobStatus.RUNNING, "running");
    Page<Job> page = new Page<>(List.of(finished, running, finished), "c42");

    for (int time = 0; time < 2; time++) { // the second time, the finished job's JSON is the kept text
      assertThat(text(answers.write(finished))).isEqualTo(mapped(finished));
      assertThat(text(answers.write(running))).isEqualTo(mapped(running));
      assertThat(text(answers.write(page))).isEqualTo(mapped(page));
    }
    Page<Job> last = new Page<>(List.of(finished), null);
    assertThat(text(answers.write(last))).isEqualTo(mapped(last));
    Page<Job> empty = new Page<>(List.of(), null);
    assertThat(text(answers.write(empty))).isEqualTo("{\"data\":[],\"nextCursor\":null}");
    Page<String> other = new Page<>(List.of("a", "b"), "c1");
    assertThat(text(answers.write(other))).isEqualTo("{\"data\":[\"a\",\"b\"],\"nextCursor\":\"c1\"}");
    assertThat(text(answers.write(Map.of("k", "v")))).isEqualTo("{\"data\":{\"k\":\"v\"}}");
  }

  @Test
  void aJobThatChangedIsWrittenAfreshEvenWhenEqualInIdAndStatus() throws Exception {
    AnswerWriter answers = new AnswerWriter(JSON);
    Job before = job("job_finished00000000001", JobStatus.SUCCEEDED, "before");
    answers.write(before);

    Job after = job("job_finished00000000001", JobStatus.SUCCEEDED, "after");

    assertThat(text(answers.write(after))).contains("\"name\":\"after\"").doesNotContain("\"before\"");
    assertThat(text(answers.write(before))).contains("\"name\":\"before\"");
  }

  @Test
  void answersOfFinishedJobsCarryAValidatorThatFollowsTheirBytes() throws Exception {
    AnswerWriter answers = new AnswerWriter(JSON);
    Job one = job("job_finished00000000001", JobStatus.SUCCEEDED, "one");
    Job two = job("job_finished00000000002", JobStatus.FAILED, "two");
    String page = answers.answer(new Page<>(List.of(one, two), "c1")).etag();

    assertThat(page).matches("W/\"[A-Za-z0-9_-]{22}\"");
    // the same bytes from other objects, and from kept text or not, have the same validator
    assertThat(new AnswerWriter(JSON).answer(new Page<>(List.of(job("job_finished00000000001",
        JobStatus.SUCCEEDED, "one"), job("job_finished00000000002", JobStatus.FAILED, "two")), "c1")).etag())
        .isEqualTo(page);
    // any change of the bytes changes it: a job's field, the order, the cursor, the envelope
    List<String> others = List.of(
        answers.answer(new Page<>(List.of(one, job("job_finished00000000002", JobStatus.FAILED, "2")), "c1")).etag(),
        answers.answer(new Page<>(List.of(two, one), "c1")).etag(),
        answers.answer(new Page<>(List.of(one, two), "c2")).etag(),
        answers.answer(new Page<>(List.of(one, two), null)).etag(),
        answers.answer(new Page<>(List.of(one), null)).etag(),
        answers.answer(one).etag());
    assertThat(others).doesNotContainNull().doesNotHaveDuplicates().doesNotContain(page);
    assertThat(answers.answer(new Page<>(List.of(), null)).etag()).isNotNull();

    // what may still change, or is not a job, has none
    Job running = job("job_running000000000001", JobStatus.RUNNING, "running");
    assertThat(answers.answer(running).etag()).isNull();
    assertThat(answers.answer(new Page<>(List.of(one, running), null)).etag()).isNull();
    assertThat(answers.answer(Map.of("k", "v")).etag()).isNull();
  }

  @Test
  void ifNoneMatchIsComparedWeakly() {
    String etag = "W/\"abc\"";
    assertThat(AnswerWriter.matches("W/\"abc\"", etag)).isTrue();
    assertThat(AnswerWriter.matches("\"abc\"", etag)).isTrue();
    assertThat(AnswerWriter.matches("\"x\", W/\"abc\"", etag)).isTrue();
    assertThat(AnswerWriter.matches("*", etag)).isTrue();
    assertThat(AnswerWriter.matches("W/\"abd\"", etag)).isFalse();
    assertThat(AnswerWriter.matches("abc", etag)).isFalse();
    assertThat(AnswerWriter.matches(null, etag)).isFalse();
    assertThat(AnswerWriter.matches("*", null)).isFalse();
  }

  private static Job job(String id, JobStatus status, String name) {
    JobStep step = new JobStep(UUID.fromString("7f0c7c1e-3f7a-4f55-9d43-2b1d2c9a0b11"), JobPhase.CREATE, 0,
        "create-repository", status == JobStatus.RUNNING ? StepStatus.RUNNING : StepStatus.FAILED, 2,
        List.of("registry:CreateRepository"), Map.of("repository.name", "team/app"),
        Failure.userAction("denied", "not authorized \"quoted\" \u00e9", "grant it", null), AT, AT);
    return new Job(JobId.of(id), SpaceId.of("spc_0000000000000000001"), JobType.PROVISIONING, JobKind.REGISTRY, name,
        Map.of("team", "payments"), status, JobPhase.CREATE, RegistrySpec.named("team/app"),
        Map.of("repositoryUri", "example.invalid/team/app"), null, List.of(step), "someone@example.com", AT, AT,
        status.isTerminal() ? AT : null);
  }

  /** What the mapper writes for the envelope of {@code data} as a map. */
  private static String mapped(Object data) throws Exception {
    return text(JSON.writeValueAsBytes(AnswerWriter.envelope(data)));
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
