package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.StepStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class StoredStepsTest {
  private static final Instant STARTED = Instant.parse("2026-12-07T01:52:04.599167Z");

  @Test
  void everyFieldOfAStepComesBackAsWrittenInPhaseAndIndexOrder() {
    Map<String, String> outputs = new LinkedHashMap<>();
    outputs.put("vpc.id", "vpc-0001");
    outputs.put("quote\"and\\slash", "line\nbreak");
    StepRecord failed = new StepRecord(UUID.randomUUID(), "job-1", JobPhase.TEARDOWN, 0, "delete-vpc",
        StepStatus.FAILED, 3, List.of("network:DeleteVpc"), outputs,
        Failure.userAction("quota_exceeded", "no room", "ask for more", "https://console.example/quota"),
        STARTED, STARTED.plusSeconds(5), UUID.randomUUID(), "approval");
    StepRecord done = new StepRecord(UUID.randomUUID(), "job-1", JobPhase.CREATE, 1, "create-subnet",
        StepStatus.SUCCEEDED, 1, List.of(), Map.of(), null, STARTED, STARTED.plusMillis(1), null, null);
    StepRecord first = StepRecord.pending("job-1", JobPhase.CREATE, 0, "create-vpc", List.of("network:CreateVpc"));

    String json = StoredSteps.write(List.of(failed, done, first));

    assertThat(StoredSteps.read("job-1", json)).containsExactly(first, done, failed);
  }

  @Test
  void aStepAsTheV11MigrationWroteItReadsWithNullsAndFieldsItDoesNotKnowPassedOver() {
    UUID id = UUID.randomUUID();
    // the migration wrote the permissions and failure as they were stored, and an older writer its nulls
    String json = "[{\"id\":\"" + id + "\",\"phase\":\"create\",\"index\":2,\"name\":\"create-subnet-b\","
        + "\"status\":\"failed\",\"attempts\":2,\"permissions\":[\"network:CreateSubnet\"],"
        + "\"outputs\":{\"subnet.b.name\":\"net-b\",\"subnet.b.id\":\"sim:subnet/net-b\"},"
        + "\"failure\":{\"category\":\"transient\",\"code\":\"throttled\",\"message\":\"slow down\"},"
        + "\"startedAt\":\"2026-12-07T01:52:04.599167Z\",\"finishedAt\":null,\"templateStepId\":null,"
        + "\"addedLater\":{\"nested\":[1,{\"x\":true}]},\"kind\":null}]";

    assertThat(StoredSteps.read("job-1", json)).containsExactly(new StepRecord(id, "job-1", JobPhase.CREATE, 2,
        "create-subnet-b", StepStatus.FAILED, 2, List.of("network:CreateSubnet"),
        Map.of("subnet.b.name", "net-b", "subnet.b.id", "sim:subnet/net-b"),
        Failure.transientFailure("throttled", "slow down"), STARTED, null, null, null));
    assertThat(StoredSteps.read("job-1", null)).isEmpty();
  }

  @Test
  void stepsReadFromARowAreWrittenAsTheRowHeldThemUntilOneChanges() {
    UUID id = UUID.randomUUID();
    // as the V11 migration or an older writer left them: nulls, and a field today's writer does not know
    String held = "{\"id\":\"" + id + "\",\"phase\":\"create\",\"index\":0,\"name\":\"create-vpc\","
        + "\"status\":\"succeeded\",\"attempts\":1,\"permissions\":[],\"outputs\":{\"vpc.id\":\"v-1\"},"
        + "\"finishedAt\":null,\"addedLater\":[1,2]}";
    StepRecord second = StepRecord.pending("job-1", JobPhase.CREATE, 1, "create-subnet",
        List.of("network:CreateSubnet"));
    String stored = "[" + held + " , " + StoredSteps.write(List.of(second)).replaceAll("^\\[|\\]$", "") + "]";

    List<StepRecord> read = StoredSteps.read("job-1", stored);
    StoredSteps.Listed listed = StoredSteps.Listed.of(read);
    assertThat(StoredSteps.write(listed)).isEqualTo("[" + held + "," + StoredSteps.write(List.of(second))
        .replaceAll("^\\[|\\]$", "") + "]");

    StepRecord running = new StepRecord(read.get(1).id(), "job-1", JobPhase.CREATE, 1, "create-subnet",
        StepStatus.RUNNING, 1, List.of("network:CreateSubnet"), Map.of(), null, STARTED, null, null, null);
    String written = StoredSteps.write(StoredSteps.with(listed, running));
    assertThat(written).startsWith("[" + held + ",");
    assertThat(StoredSteps.read("job-1", written)).containsExactly(read.get(0), running);
    // more steps than the reader first makes room for
    List<StepRecord> six = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      six.add(StepRecord.pending("job-1", JobPhase.CREATE, i, "step-" + i, List.of()));
    }
    String sixStored = StoredSteps.write(six).replace("},{", "} , {");
    assertThat(StoredSteps.write(StoredSteps.Listed.of(StoredSteps.read("job-1", sixStored))))
        .isEqualTo(StoredSteps.write(six));
    // another step put in place of one read (an equal one, even): that one is written afresh
    read.set(0, new StepRecord(id, "job-1", JobPhase.CREATE, 0, "create-vpc", StepStatus.SUCCEEDED, 1, List.of(),
        Map.of("vpc.id", "v-1"), null, null, null, null, null));
    assertThat(StoredSteps.write(StoredSteps.Listed.of(read))).doesNotContain("addedLater")
        .isEqualTo(StoredSteps.write(new ArrayList<>(read)));
  }

  @Test
  void stepsThatCannotBeReadSayWhoseTheyAre() {
    for (String broken : List.of("{}", "[1]", "[{\"id\":\"" + UUID.randomUUID() + "\"}]", "[{\"id\":")) {
      assertThatThrownBy(() -> StoredSteps.read("job-7", broken)).as(broken)
          .isInstanceOf(IllegalStateException.class).hasMessageContaining("job-7");
    }
  }

  @Test
  void timesAreKeptToTheMicrosecondAsTheDatabaseKeepsThem() {
    StepRecord step = new StepRecord(UUID.randomUUID(), "job-1", JobPhase.CREATE, 0, "s", StepStatus.RUNNING, 1,
        List.of(), Map.of(), null, STARTED.plusNanos(789), null, null, null);

    assertThat(StoredSteps.read("job-1", StoredSteps.write(List.of(step))).get(0).startedAt()).isEqualTo(STARTED);
  }

  @Test
  void aStepIsChangedInPlaceAndOnlyAStepOfTheJobCanBe() {
    StepRecord first = StepRecord.pending("job-1", JobPhase.CREATE, 0, "a", List.of());
    StepRecord second = StepRecord.pending("job-1", JobPhase.CREATE, 1, "b", List.of());
    StepRecord running = new StatusTransitions(null, null).stepUpdated(second, StepStatus.RUNNING, Map.of("x", "y"),
        null, false, 1, STARTED);

    assertThat(StoredSteps.with(StoredSteps.Listed.of(List.of(first, second)), running))
        .containsExactly(first, running);
    assertThatThrownBy(() -> StoredSteps.with(StoredSteps.Listed.of(List.of(first)), running))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(second.id().toString());
  }

  @Test
  void aRunsStepsWriteWhatTheyHoldAfterEachChangeAsAFreshWriteWould() {
    StepRecord first = StepRecord.pending("job-1", JobPhase.CREATE, 0, "a", List.of("p:A"));
    StepRecord second = StepRecord.pending("job-1", JobPhase.CREATE, 1, "b", List.of());
    StepRecord teardown = StepRecord.pending("job-1", JobPhase.TEARDOWN, 0, "c", List.of());
    StatusTransitions transitions = new StatusTransitions(null, null);
    StoredSteps.Listed steps = StoredSteps.Listed.of(List.of(first, second, teardown));
    assertThat(StoredSteps.write(steps)).isEqualTo(StoredSteps.write(List.copyOf(steps)));

    for (StepRecord changed : List.of(
        transitions.stepUpdated(second, StepStatus.RUNNING, Map.of("x", "y"), null, false, 1, STARTED),
        transitions.stepUpdated(second, StepStatus.SUCCEEDED, Map.of("x", "z"), null, true, 1, STARTED),
        transitions.stepUpdated(teardown, StepStatus.RUNNING, Map.of(), null, false, 1, STARTED))) {
      steps = StoredSteps.with(steps, changed);
      String written = StoredSteps.write(steps);
      assertThat(written).isEqualTo(StoredSteps.write(List.copyOf(steps)));
      assertThat(StoredSteps.read("job-1", written)).containsExactlyElementsOf(steps);
    }
    // steps kept out of their stored order are written in it all the same
    assertThat(StoredSteps.read("job-1", StoredSteps.write(StoredSteps.Listed.of(List.of(teardown, second, first)))))
        .containsExactly(first, second, teardown);
  }
}
