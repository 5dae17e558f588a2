package dev.zop.provisioner.testkit.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.zop.provisioner.CloudAccount;
import dev.zop.provisioner.Failure;
import dev.zop.provisioner.FailureCategory;
import dev.zop.provisioner.FieldError;
import dev.zop.provisioner.JobId;
import dev.zop.provisioner.spec.ResourceSpec;
import dev.zop.provisioner.spi.CloudProvider;
import dev.zop.provisioner.spi.Outputs;
import dev.zop.provisioner.spi.ProviderSession;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The contract every cloud provider keeps, as tests a provider module extends. It drives the provider's steps
 * directly (no engine), so a failure points at the provider:
 *
 * <ul>
 *   <li>every step declares the IAM operations it performs, and calls no operation it did not declare;</li>
 *   <li>create is idempotent: running every step again after success (a resumed job) adopts, not duplicates;</li>
 *   <li>teardown removes what create made, and running it again (nothing left) still succeeds;</li>
 *   <li>errors are classified: permission denied is {@code user_action}, throttling {@code transient}, an
 *       unknown error {@code system}.</li>
 * </ul>
 */
public abstract class ProviderTck {
  private static final Pattern PERMISSION = Pattern.compile("[a-z0-9-]+:[A-Za-z0-9]+");
  private static final Duration MAX_STEP_WAIT = Duration.ofSeconds(50);

  protected ProviderSession session;

  protected abstract CloudProvider provider();

  protected abstract CloudAccount account();

  protected abstract String region();

  /** A valid spec of every kind the provider supports; names must not clash with earlier calls. */
  protected abstract List<ResourceSpec> specs(String uniqueSuffix);

  /** A mark in the provider's call log (for example its length), taken before a step runs. */
  protected abstract int callMark();

  /** The operations the cloud saw since {@code mark}, in the {@code service:Action} form steps declare. */
  protected abstract List<String> operationsSince(int mark);

  /** What the provider's cloud holds now, to compare before and after (names or ids, any stable form). */
  protected abstract List<String> inventory();

  /** An error the provider's SDK raises when the account lacks a permission. */
  protected abstract Throwable permissionDenied();

  /** An error the provider's SDK raises when the cloud throttles a call. */
  protected abstract Throwable throttled();

  @BeforeEach
  void openSession() {
    session = provider().open(account(), region());
  }

  @AfterEach
  void closeSession() {
    session.close();
  }

  @Test
  void metadataNamesWhatTheProviderDoes() {
    assertThat(provider().metadata().id()).matches("[a-z][a-z0-9-]*");
    assertThat(provider().metadata().kinds()).isNotEmpty();
    for (ResourceSpec spec : specs("meta")) {
      assertThat(provider().metadata().supports(spec.kind())).as(spec.kind().wireName()).isTrue();
      assertThat(driver(spec).specType()).isEqualTo(spec.getClass());
    }
  }

  @Test
  void everyStepDeclaresItsOperationsAndCallsNoOther() throws Exception {
    for (ResourceSpec spec : specs("perm")) {
      ResourceDriver<ResourceSpec> driver = driver(spec);
      assertThat(driver.validate(spec)).as("the TCK's spec must be valid").isEmpty();
      TckContext ctx = new TckContext(JobId.random());
      Map<String, String> outputs = runAll(driver.create(spec), ctx, true);
      runAll(driver.teardown(spec, Outputs.of(outputs)), new TckContext(ctx.jobId()), true);
    }
  }

  @Test
  void createIsIdempotentAndTeardownLeavesNothing() throws Exception {
    for (ResourceSpec spec : specs("idem")) {
      ResourceDriver<ResourceSpec> driver = driver(spec);
      List<String> before = inventory();
      TckContext ctx = new TckContext(JobId.random());
      Map<String, String> first = runAll(driver.create(spec), ctx, false);
      List<String> created = inventory();
      assertThat(created).as(spec.kind().wireName() + " created something").isNotEqualTo(before);

      // an engine that crashed after the last step runs every step again: nothing new may appear
      Map<String, String> again = runAll(driver.create(spec), new TckContext(ctx.jobId()), false);
      assertThat(inventory()).as("re-running create of " + spec.kind().wireName()).isEqualTo(created);
      assertThat(again).containsAllEntriesOf(first);

      runAll(driver.teardown(spec, Outputs.of(first)), new TckContext(ctx.jobId()), false);
      assertThat(inventory()).as("after teardown of " + spec.kind().wireName()).isEqualTo(before);
      // deleting what is already gone succeeds
      runAll(driver.teardown(spec, Outputs.of(first)), new TckContext(ctx.jobId()), false);
      assertThat(inventory()).isEqualTo(before);
    }
  }

  @Test
  void errorsAreClassified() {
    Failure denied = session.classify(permissionDenied());
    assertThat(denied.category()).isEqualTo(FailureCategory.USER_ACTION);
    assertThat(denied.fixHint()).isNotBlank();
    assertThat(denied.retryable()).isFalse();
    assertThat(session.classify(throttled()).category()).isEqualTo(FailureCategory.TRANSIENT);
    assertThat(session.classify(new IllegalStateException("a bug")).category()).isEqualTo(FailureCategory.SYSTEM);
  }

  @SuppressWarnings("unchecked")
  private ResourceDriver<ResourceSpec> driver(ResourceSpec spec) {
    return (ResourceDriver<ResourceSpec>) session.driver(spec.kind());
  }

  /**
   * Runs steps in order as the engine would (re-running a step that waits), and returns the outputs they
   * recorded. With {@code checkCalls}, each step's calls are checked against its declared permissions.
   */
  private Map<String, String> runAll(List<Step> steps, TckContext ctx, boolean checkCalls) throws Exception {
    Map<String, String> outputs = new LinkedHashMap<>();
    for (Step step : steps) {
      assertThat(step.permissions()).as("permissions of " + step.name()).isNotEmpty()
          .allSatisfy(p -> assertThat(p).matches(PERMISSION));
      ctx.beginStep(outputs);
      int mark = callMark();
      StepResult first = step.run(ctx);
      // a waiting step is re-run on a short interval, as the engine would after its wait
      StepResult result = first instanceof StepResult.Wait
          ? await().atMost(MAX_STEP_WAIT).pollInSameThread().pollDelay(Duration.ofMillis(5))
              .pollInterval(Duration.ofMillis(20)).alias(step.name() + " keeps waiting")
              .until(() -> step.run(ctx), r -> !(r instanceof StepResult.Wait))
          : first;
      if (result instanceof StepResult.Failed failed) {
        throw new AssertionError("step " + step.name() + " failed: " + failed.failure());
      }
      if (checkCalls) {
        assertThat(operationsSince(mark)).as("operations called by " + step.name())
            .isSubsetOf(step.permissions());
      }
      outputs.putAll(ctx.ownOutputs());
      outputs.putAll(((StepResult.Done) result).outputs());
    }
    return outputs;
  }

  /** Field errors as "field code" lines, for readable assertion messages. */
  protected static List<String> describe(List<FieldError> errors) {
    return errors.stream().map(e -> e.field() + " " + e.code()).toList();
  }
}
