package dev.zop.provisioner;

import static dev.zop.provisioner.JobStatus.AWAITING_APPROVAL;
import static dev.zop.provisioner.JobStatus.AWAITING_USER;
import static dev.zop.provisioner.JobStatus.CANCELLED;
import static dev.zop.provisioner.JobStatus.DELETED;
import static dev.zop.provisioner.JobStatus.DELETING;
import static dev.zop.provisioner.JobStatus.FAILED;
import static dev.zop.provisioner.JobStatus.PENDING;
import static dev.zop.provisioner.JobStatus.RUNNING;
import static dev.zop.provisioner.JobStatus.SUCCEEDED;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class JobStatusTest {
  /** The product's state machine, written out independently of the table in JobStatus. */
  private static final Set<List<JobStatus>> ALLOWED = Set.of(
      List.of(PENDING, RUNNING), List.of(PENDING, CANCELLED), List.of(PENDING, DELETING),
      List.of(RUNNING, SUCCEEDED), List.of(RUNNING, FAILED), List.of(RUNNING, CANCELLED),
      List.of(RUNNING, AWAITING_USER),
      List.of(AWAITING_USER, RUNNING), List.of(AWAITING_USER, CANCELLED), List.of(AWAITING_USER, FAILED),
      // guardrails hold a change awaiting approval: a new job, or a revision, reconcile or retry of a job that
      // succeeded or failed; a person's decision queues it, or cancels the new job and sends the others back
      List.of(AWAITING_APPROVAL, PENDING), List.of(AWAITING_APPROVAL, CANCELLED),
      List.of(AWAITING_APPROVAL, SUCCEEDED), List.of(AWAITING_APPROVAL, FAILED),
      List.of(SUCCEEDED, AWAITING_APPROVAL), List.of(FAILED, AWAITING_APPROVAL),
      List.of(SUCCEEDED, DELETING), List.of(SUCCEEDED, PENDING),
      List.of(FAILED, PENDING), List.of(FAILED, DELETING),
      List.of(CANCELLED, DELETING),
      List.of(DELETING, DELETED), List.of(DELETING, FAILED));

  static Stream<Arguments> everyPair() {
    List<Arguments> pairs = new ArrayList<>();
    for (JobStatus from : JobStatus.values()) {
      for (JobStatus to : JobStatus.values()) {
        pairs.add(Arguments.of(from, to, ALLOWED.contains(List.of(from, to))));
      }
    }
    return pairs.stream();
  }

  @ParameterizedTest(name = "{0} -> {1} allowed={2}")
  @MethodSource("everyPair")
  void transitionTableMatchesTheStateMachine(JobStatus from, JobStatus to, boolean allowed) {
    assertThat(from.canTransitionTo(to)).isEqualTo(allowed);
  }

  @Test
  void deletedIsFinalAndNothingTransitionsToItself() {
    for (JobStatus to : JobStatus.values()) {
      assertThat(DELETED.canTransitionTo(to)).isFalse();
    }
    for (JobStatus s : JobStatus.values()) {
      assertThat(s.canTransitionTo(s)).as(s.name()).isFalse();
    }
  }

  @Test
  void terminalAndRunnableAreDisjoint() {
    for (JobStatus s : JobStatus.values()) {
      assertThat(s.isTerminal() && s.isRunnable()).as(s.name()).isFalse();
    }
    assertThat(Stream.of(JobStatus.values()).filter(JobStatus::isTerminal))
        .containsExactlyInAnyOrder(SUCCEEDED, FAILED, CANCELLED, DELETED);
    assertThat(AWAITING_USER.isRunnable()).isFalse();
    assertThat(AWAITING_APPROVAL.isRunnable()).isFalse();
  }

  @Test
  void wireNamesAreLowerSnakeCase() {
    assertThat(AWAITING_USER.wireName()).isEqualTo("awaiting_user");
    assertThat(JobStatus.fromWire("awaiting_user")).isEqualTo(AWAITING_USER);
    assertThatThrownBy(() -> JobStatus.fromWire("sleeping")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sleeping");
  }
}
