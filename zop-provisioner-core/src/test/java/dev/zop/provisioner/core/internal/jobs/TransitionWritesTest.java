package dev.zop.provisioner.core.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.zop.provisioner.CloudAccountId;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.JobEvent;
import dev.zop.provisioner.JobEventType;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.JobKind;
import dev.zop.provisioner.JobPhase;
import dev.zop.provisioner.JobStatus;
import dev.zop.provisioner.JobType;
import dev.zop.provisioner.StepStatus;
import dev.zop.provisioner.core.internal.jobs.OutcomeRule.Transition;
import dev.zop.provisioner.core.internal.store.Database;
import dev.zop.provisioner.spec.RegistrySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What each of the rule's transitions writes, as a table: a running job of two steps, its first step running, is
 * given the write {@link TransitionWrites} makes of the transition, through the fence, and the job's row is read
 * back — its status, its steps, its history's last entries, and whether it is due again unleased.
 */
class TransitionWritesTest {
  private static final Database DB = Database.open(h2());
  private static final JobRepository JOBS = new JobRepository();
  private static final FencedWriter WRITER = new FencedWriter(DB, JOBS, new JobSignals(), () -> false, 1);
  private static final TransitionWrites WRITES = new TransitionWrites(JOBS, DB.dialect(), List.of());
  private static final StatusTransitions TRANSITIONS = new StatusTransitions(JOBS, DB.dialect());
  private static final Failure THROTTLED = Failure.transientFailure("throttled", "rate exceeded");
  private static final Failure DENIED = Failure.userAction("permission_denied", "ecr:CreateRepository denied",
      "grant ecr:CreateRepository", null);

  /** A transition's write of the first step of {@code job} (running, with its context), given the job's steps. */
  interface Made {
    FencedWriter.Write of(JobRecord job, StepBook book, StepRecord first, StepRecord second, LeasedContext context);
  }

  /** What the job's row says after the write; {@code due}: due again later, unleased (a park, a backoff). */
  record After(JobStatus job, StepStatus first, StepStatus second, List<JobEventType> lastEvents, boolean due) {}

  static Stream<Arguments> table() {
    return Stream.of(
        row("advance, the next step started with it", (job, book, first, second, context) -> WRITES.starting(
            WRITES.succeeded(book, job, first, context, Map.of("repositoryUri", "x"), Map.of("repositoryUri", "x"),
                JobStatus.RUNNING, JobStatus.RUNNING, null, Journal.NONE),
            book, second, 1, JobStatus.RUNNING, Map.of(), Instant.now()),
            new After(JobStatus.RUNNING, StepStatus.SUCCEEDED, StepStatus.RUNNING,
                List.of(JobEventType.STEP_SUCCEEDED, JobEventType.STEP_STARTED), false)),
        row("complete, after the last step", (job, book, first, second, context) -> WRITES.completing(
            WRITES.succeeded(book, job, first, context, Map.of(), null, JobStatus.RUNNING, JobStatus.RUNNING, null,
                Journal.NONE), job, JobStatus.RUNNING, Map.of(), true),
            new After(JobStatus.SUCCEEDED, StepStatus.SUCCEEDED, StepStatus.PENDING,
                List.of(JobEventType.STEP_SUCCEEDED, JobEventType.STATUS), false)),
        row("park on the cloud", (job, book, first, second, context) -> WRITES.park(book, first, context,
            new Transition.Park(Duration.ofSeconds(15), "repository is CREATING"), JobStatus.RUNNING),
            new After(JobStatus.RUNNING, StepStatus.WAITING, StepStatus.PENDING,
                List.of(JobEventType.STEP_STARTED, JobEventType.STEP_WAITING), true)),
        row("retry after a backoff", (job, book, first, second, context) -> WRITES.retry(book, first, context,
            new Transition.Retry(Duration.ofSeconds(2), THROTTLED), JobStatus.RUNNING),
            new After(JobStatus.RUNNING, StepStatus.PENDING, StepStatus.PENDING,
                List.of(JobEventType.STEP_STARTED, JobEventType.STEP_RETRYING), true)),
        row("fail the job", (job, book, first, second, context) -> WRITES.fail(book, job, context.ended(), DENIED,
            JobStatus.RUNNING, Journal.NONE),
            new After(JobStatus.FAILED, StepStatus.FAILED, StepStatus.PENDING,
                List.of(JobEventType.STEP_FAILED, JobEventType.STATUS), false)),
        row("await a person's decision", (job, book, first, second, context) -> WRITES.awaitDecision(book, job,
            first, context, new Transition.AwaitDecision(Duration.ofHours(1), "approve the change"),
            JobStatus.RUNNING),
            new After(JobStatus.AWAITING_USER, StepStatus.WAITING, StepStatus.PENDING,
                List.of(JobEventType.STEP_STARTED, JobEventType.STEP_WAITING), true)),
        row("cancel at a rejected decision", (job, book, first, second, context) -> WRITES.cancel(book, job,
            context.ended(), null, null, "not now", JobStatus.RUNNING, Journal.NONE),
            new After(JobStatus.CANCELLED, StepStatus.FAILED, StepStatus.PENDING,
                List.of(JobEventType.STEP_STARTED, JobEventType.STATUS), false)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("table")
  void eachTransitionWritesWhatItSays(String name, Made made, After expected) {
    JobRecord job = runningJobOfTwoSteps();
    List<StepRecord> steps = DB.read(c -> JOBS.steps(c, job.id()));
    StepBook book = new StepBook(steps);
    Lease lease = new Lease(job.id(), "engine-a", job.version());
    // the first step's start, as the run writes it before the step runs
    Instant started = Instant.now();
    WRITER.write(lease, WRITES.starting(new FencedWriter.Write(), book, steps.get(0), 1, JobStatus.RUNNING,
        Map.of(), started));
    StepRecord first = DB.read(c -> JOBS.steps(c, job.id())).get(0);
    LeasedContext context = new LeasedContext(null, TRANSITIONS, () -> null, job, first, 1, Map.of(), Map.of(),
        false, started);

    WRITER.write(lease, made.of(job, book, first, steps.get(1), context));

    JobRecord after = DB.read(c -> JOBS.findAnyOrg(c, job.id()));
    List<StepRecord> stepsAfter = DB.read(c -> JOBS.steps(c, job.id()));
    List<JobEvent> history = DB.read(c -> JobHistoryRows.events(c, job.id(), 0, 100));
    boolean due = DB.read(c -> Database.queryOne(c, "SELECT next_run_at > CURRENT_TIMESTAMP AND lease_owner IS NULL"
        + " FROM provisioning_jobs WHERE id = ?", rs -> rs.getBoolean(1), job.id().value()));
    assertThat(new After(after.status(), stepsAfter.get(0).status(), stepsAfter.get(1).status(),
        history.subList(history.size() - 2, history.size()).stream().map(JobEvent::type).toList(), due))
        .isEqualTo(expected);
  }

  private static Arguments row(String name, Made made, After expected) {
    return arguments(name, made, expected);
  }

  /** A registry job, running, leased to {@code engine-a}, with two pending steps. */
  private static JobRecord runningJobOfTwoSteps() {
    JobId id = JobId.random();
    Instant now = Instant.now();
    List<StepRecord> steps = List.of(
        StepRecord.pending(id.value(), JobPhase.CREATE, 0, "create-repository", List.of("ecr:CreateRepository")),
        StepRecord.pending(id.value(), JobPhase.CREATE, 1, "tag-repository", List.of("ecr:TagResource")));
    JobRecord job = new JobRecord(id, "acme", null, JobType.PROVISIONING, JobKind.REGISTRY, "r", Map.of(), "sim",
        CloudAccountId.of("ca_" + id.value()), "sim-east-1", RegistrySpec.named("r"), JobStatus.RUNNING,
        JobPhase.CREATE, Map.of(), null, "alice", now, now, null, 0, null);
    DB.tx(c -> {
      Database.update(c, "INSERT INTO cloud_accounts (id, org_id, provider, name, credentials_ref, properties,"
          + " created_at) VALUES (?, 'acme', 'sim', ?, NULL, '{}', CURRENT_TIMESTAMP)", "ca_" + id.value(), id.value());
      JOBS.insert(c, job, null, null, steps);
      return null;
    });
    return job;
  }

  private static JdbcDataSource h2() {
    JdbcDataSource h2 = new JdbcDataSource();
    h2.setURL("jdbc:h2:mem:transition-writes-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    return h2;
  }
}
