package dev.zop.provisioner.testkit.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.CloudAccountRequest;
import dev.zop.provisioner.ConflictException;
import dev.zop.provisioner.Job;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.Space;
import dev.zop.provisioner.core.EmbeddedProvisioner;
import dev.zop.provisioner.remediation.Recommendation;
import dev.zop.provisioner.remediation.RemediationJob;
import dev.zop.provisioner.remediation.StepRef;
import dev.zop.provisioner.remediation.SubjectType;
import dev.zop.provisioner.spec.RegistrySpec;
import dev.zop.provisioner.testkit.TestEngines;
import dev.zop.provisioner.sim.SimCloud;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every service call that changes a job's status, asked for a move the transition table does not allow: each is
 * refused with a conflict, and the job keeps its status and its history. (The worker's own moves go through the
 * same door, {@code StatusTransitions}, whose refusals the core's {@code StatusTransitionsTest} covers.)
 */
class IllegalTransitionsTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  SimCloud cloud;
  EmbeddedProvisioner zop;
  Space space;

  @BeforeEach
  void start() {
    cloud = SimCloud.create();
    zop = TestEngines.h2(dir, cloud).build();
    space = EngineBehaviour.newSpace(zop, "transitions");
  }

  @AfterEach
  void stop() {
    cloud.unstick("kubernetes-cluster");
    zop.close();
  }

  @Test
  void provisioningJobsRefuseMovesTheTableForbids() {
    Job succeeded = zop.jobs().await(zop.jobs().submit(space.id(), RegistrySpec.named("team/done")).id(), WAIT);
    assertThat(succeeded.status()).isEqualTo(JobStatus.SUCCEEDED);
    refusedAndUnchanged(succeeded.id(), () -> zop.jobs().retry(succeeded.id())); // succeeded → pending

    cloud.stuckCreating("kubernetes-cluster");
    Job running = zop.jobs().submit(space.id(), EngineBehaviour.cluster("held"));
    await().atMost(WAIT).until(() -> zop.jobs().get(running.id()).status() == JobStatus.RUNNING);
    refusedAndUnchanged(running.id(), () -> zop.jobs().delete(running.id())); // running → deleting
    refusedAndUnchanged(running.id(), () -> zop.jobs().retry(running.id())); // running → pending

    Job deleted = zop.jobs().await(zop.jobs().delete(succeeded.id()).id(), WAIT);
    assertThat(deleted.status()).isEqualTo(JobStatus.DELETED);
    refusedAndUnchanged(deleted.id(), () -> zop.jobs().retry(deleted.id())); // deleted → pending
    // deleting what is deleted is no move at all: the same answer, and nothing written
    long moves = statusEvents(deleted.id());
    assertThat(zop.jobs().delete(deleted.id()).status()).isEqualTo(JobStatus.DELETED);
    assertThat(statusEvents(deleted.id())).isEqualTo(moves);
  }

  @Test
  void remediationWorkflowsRefuseMovesTheTableForbids() {
    CloudAccount account = zop.accounts().create(CloudAccountRequest.of("sim", "transitions-remediation"));
    cloud.workload("i-transitions", "running");
    zop.remediations().putRecommendation(new Recommendation("rec-transitions", "sim", account.id(), "sim-east-1",
        "vm", "i-transitions", "stop"));
    RemediationJob started = zop.remediations().start("rec-transitions", SubjectType.RESOURCE, "i-transitions");
    RemediationJob parked = await().atMost(WAIT)
        .until(() -> zop.remediations().get(started.id()), j -> j.status() == JobStatus.AWAITING_USER);
    zop.remediations().cancel(parked.id(), "not now");
    RemediationJob cancelled = zop.remediations().await(parked.id(), WAIT);
    assertThat(cancelled.status()).isEqualTo(JobStatus.CANCELLED);

    StepRef approval = StepRef.id(parked.pendingApproval().id());
    for (ThrowingCallable late : List.<ThrowingCallable>of(
        () -> zop.remediations().cancel(cancelled.id(), "again"), // cancelled → cancelled
        () -> zop.remediations().approve(cancelled.id(), approval, "late"), // cancelled → running
        () -> zop.remediations().reject(cancelled.id(), approval, "late"))) {
      int audited = zop.remediations().audit(cancelled.id()).size();
      assertThatThrownBy(late).isInstanceOf(ConflictException.class);
      assertThat(zop.remediations().get(cancelled.id()).status()).isEqualTo(JobStatus.CANCELLED);
      assertThat(zop.remediations().audit(cancelled.id())).hasSize(audited);
    }
  }

  /** Refused with a conflict; the status and the status history are as they were (a held step may still poll). */
  private void refusedAndUnchanged(JobId id, ThrowingCallable call) {
    JobStatus before = zop.jobs().get(id).status();
    long moves = statusEvents(id);
    assertThatThrownBy(call).isInstanceOf(ConflictException.class);
    assertThat(zop.jobs().get(id).status()).isEqualTo(before);
    assertThat(statusEvents(id)).isEqualTo(moves);
  }

  private long statusEvents(JobId id) {
    return zop.jobs().events(id, 0).stream().filter(e -> e.type() == JobEventType.STATUS).count();
  }
}
