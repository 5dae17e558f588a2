package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeldEventsTest {
  private static final JobId JOB = JobId.of("job-1");

  @Test
  void entriesAreOneLineEachAndComeBackNumberedUpToTheLast() {
    Instant at = Instant.parse("2026-12-07T08:00:00.123456789Z");
    String lines = HeldEvents.lines(List.of(
        new NewEvent(JobEventType.STEP_SUCCEEDED, "create-vpc", JobStatus.RUNNING, null),
        new NewEvent(JobEventType.LOG, "create-vpc", JobStatus.RUNNING, "two\nlines, a \"quote\" and a \\"),
        new NewEvent(JobEventType.STATUS, null, JobStatus.SUCCEEDED, "done")), at);

    assertThat(lines).endsWith("\n").doesNotStartWith(" ");
    assertThat(lines.split("\n")).hasSize(3).allSatisfy(line -> assertThat(line).startsWith("{").endsWith("}"));
    Instant micros = Instant.parse("2026-12-07T08:00:00.123456Z");
    // appended to what a row held, as the fence appends them
    String held = HeldEvents.lines(List.of(new NewEvent(JobEventType.SUBMITTED, null, JobStatus.PENDING, null)),
        micros) + lines;
    assertThat(HeldEvents.read(JOB, 9, held)).containsExactly(
        new JobEvent(JOB, 6, JobEventType.SUBMITTED, null, JobStatus.PENDING, null, micros),
        new JobEvent(JOB, 7, JobEventType.STEP_SUCCEEDED, "create-vpc", JobStatus.RUNNING, null, micros),
        new JobEvent(JOB, 8, JobEventType.LOG, "create-vpc", JobStatus.RUNNING,
            "two\nlines, a \"quote\" and a \\", micros),
        new JobEvent(JOB, 9, JobEventType.STATUS, null, JobStatus.SUCCEEDED, "done", micros));
  }
}
