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
import dev.zop.provisioner.spi.OutputKeys;
import dev.zop.provisioner.spi.ResourceDriver;
import dev.zop.provisioner.spi.Revision;
import dev.zop.provisioner.spi.Step;
import dev.zop.provisioner.spi.StepResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
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
 *       unknown error {@code system};</li>
 *   <li>crash-safe at every cloud call: for each kind, and each mutating call N of its create and of its
 *       teardown, the engine halts right after the cloud accepted call N ({@link HaltSwitch}); the step is run
 *       again as a resumed engine would, and the cloud's own inventory must end as a run without a crash leaves
 *       it (each resource once, the same attributes), and teardown must leave nothing.</li>
 * </ul>
 */
public abstract class ProviderTck {
  /**
   * {@code service:Action} (AWS's form), {@code service.resource.verb} (Google's) or
   * {@code Microsoft.Namespace/type[/child]/verb} (Azure's).
   */
  private static final Pattern PERMISSION = Pattern.compile("[a-z0-9-]+:[A-Za-z0-9]+|[a-z0-9]+(\\.[A-Za-z0-9]+){2,}"
      + "|[A-Z][A-Za-z]+\\.[A-Za-z]+(/[A-Za-z]+){2,}");
  private static final Duration MAX_STEP_WAIT = Duration.ofSeconds(50);

  protected ProviderSession session;

  protected abstract CloudProvider provider();

  protected abstract CloudAccount account();

  protected abstract String region();

  /** The provider scope the TCK's session opens in (a space's values for the provider's scope keys). */
  protected Map<String, String> scope() {
    return Map.of();
  }

  /** A valid spec of every kind the provider supports; names must not clash with earlier calls. */
  protected abstract List<ResourceSpec> specs(String uniqueSuffix);

  /** A mark in the provider's call log (for example its length), taken before a step runs. */
  protected abstract int callMark();

  /** The operations the cloud saw since {@code mark}, in the {@code service:Action} form steps declare. */
  protected abstract List<String> operationsSince(int mark);

  /** What the provider's cloud holds now, to compare before and after (names or ids, any stable form). */
  protected abstract List<String> inventory();

  /**
   * The switch the provider's client reports accepted mutating calls to (an SDK interceptor, a fake's write
   * path); the crash matrix arms it. A provider that does not wire it fails the matrix.
   */
  protected abstract HaltSwitch halts();

  /** An error the provider's SDK raises when the account lacks a permission. */
  protected abstract Throwable permissionDenied();

  /** An error the provider's SDK raises when the cloud throttles a call. */
  protected abstract Throwable throttled();

  @BeforeEach
  void openSession() {
    session = provider().open(account(), region(), scope());
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

  /**
   * Steps hand each other outputs only under the keys their driver declares ({@link ResourceDriver#outputKeys}):
   * every entry create records is declared, and every key create or teardown reads, so a teardown cannot look for what
   * create made under a name no create step writes.
   */
  @Test
  void stepsRecordAndReadOnlyDeclaredOutputs() throws Exception {
    for (ResourceSpec spec : specs("outputs")) {
      ResourceDriver<ResourceSpec> driver = driver(spec);
      String kind = spec.kind().wireName();
      OutputKeys declared = driver.outputKeys();
      List<String> before = inventory();
      assertThat(declared.isDeclared()).as(kind + ": the driver declares no outputs (ResourceDriver.outputKeys)")
          .isTrue();
      Set<String> createReads = new TreeSet<>();
      TckContext ctx = new TckContext(JobId.random(), createReads::add);
      Map<String, String> recorded = runAll(driver.create(spec), ctx, false);
      assertThat(recorded.keySet()).as(kind + ": state recorded by create steps but not declared in " + declared)
          .allMatch(declared::declares);
      assertThat(createReads).as(kind + ": state read by create steps but not declared in " + declared)
          .allMatch(declared::declares);

      // as the engine does: teardown is built from what create recorded, and its steps see the job's outputs
      Set<String> teardownReads = new TreeSet<>();
      List<Step> teardown = driver.teardown(spec, Outputs.observed(recorded, teardownReads::add));
      TckContext down = new TckContext(ctx.jobId(), teardownReads::add);
      Map<String, String> seen = new LinkedHashMap<>(recorded);
      for (Step step : teardown) {
        down.beginStep(seen, step);
        StepResult.Done done = runToEnd(step, down);
        seen.putAll(down.ownOutputs());
        seen.putAll(done.outputs());
      }
      assertThat(teardownReads).as(kind + ": state read by teardown that the driver does not declare (nothing of"
              + " create records it) in " + declared)
          .allMatch(declared::declares);
      assertThat(inventory()).as("after teardown of " + kind).isEqualTo(before);
    }
  }

  /**
   * Create made every kind, read back right away, as its config says: a drift check finds nothing (no diff from a
   * value the cloud spells its own way); running create again makes nothing; teardown leaves nothing, twice.
   */
  @Test
  void createIsIdempotentReadsBackInSyncAndTeardownLeavesNothing() throws Exception {
    for (ResourceSpec spec : specs("idem")) {
      ResourceDriver<ResourceSpec> driver = driver(spec);
      List<String> before = inventory();
      TckContext ctx = new TckContext(JobId.random());
      Map<String, String> first = runAll(driver.create(spec), ctx, false);
      List<String> created = inventory();
      assertThat(created).as(spec.kind().wireName() + " created something").isNotEqualTo(before);
      if (driver.observe(spec, Outputs.of(first)) != null) {
        assertThat(observed(driver, spec, first)).as(spec.kind().wireName() + " read back right after its create")
            .isEmpty();
      }

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
  void aHaltAfterAnyMutatingCallResumesToTheSameCloud() throws Exception {
    List<String> report = new ArrayList<>();
    int run = 0;
    int kinds = specs("crash").size();
    for (int index = 0; index < kinds; index++) {
      String kind = specs("crash").get(index).kind().wireName();
      List<String> before = inventory();

      // a run without a halt: how many mutating calls each step makes, and the cloud it leaves
      String suffix = "crash" + run++;
      ResourceSpec spec = specs(suffix).get(index);
      ResourceDriver<ResourceSpec> driver = driver(spec);
      TckContext ctx = new TckContext(JobId.random());
      List<Long> createCalls = new ArrayList<>();
      Map<String, String> outputs = run(driver.create(spec), ctx, -1, 0, createCalls);
      List<String> expected = normalised(difference(inventory(), before), ctx.jobId(), suffix);
      List<Long> teardownCalls = new ArrayList<>();
      run(driver.teardown(spec, Outputs.of(outputs)), new TckContext(ctx.jobId()), -1, 0, teardownCalls);
      assertThat(inventory()).as("after teardown of " + kind).isEqualTo(before);
      assertThat(createCalls.stream().mapToLong(Long::longValue).sum())
          .as(kind + ": no mutating call reached the halt switch; wire halts() into the provider's client")
          .isPositive();

      int cases = 0;
      for (int step = 0; step < createCalls.size(); step++) {
        for (int n = 1; n <= createCalls.get(step); n++, cases++) {
          suffix = "crash" + run++;
          spec = specs(suffix).get(index);
          driver = driver(spec);
          ctx = new TckContext(JobId.random());
          String where = kind + " create step " + (step + 1) + ", halted after mutating call " + n;
          outputs = run(driver.create(spec), ctx, step, n, new ArrayList<>());
          assertThat(normalised(difference(inventory(), before), ctx.jobId(), suffix)).as(where)
              .isEqualTo(expected);
          run(driver.teardown(spec, Outputs.of(outputs)), new TckContext(ctx.jobId()), -1, 0, new ArrayList<>());
          assertThat(inventory()).as("teardown after " + where).isEqualTo(before);
        }
      }
      for (int step = 0; step < teardownCalls.size(); step++) {
        for (int n = 1; n <= teardownCalls.get(step); n++, cases++) {
          suffix = "crash" + run++;
          spec = specs(suffix).get(index);
          driver = driver(spec);
          ctx = new TckContext(JobId.random());
          outputs = run(driver.create(spec), ctx, -1, 0, new ArrayList<>());
          run(driver.teardown(spec, Outputs.of(outputs)), new TckContext(ctx.jobId()), step, n, new ArrayList<>());
          assertThat(inventory()).as(kind + " teardown step " + (step + 1) + ", halted after mutating call " + n)
              .isEqualTo(before);
        }
      }
      report.add(kind + ": " + cases + " halts (create " + createCalls + ", teardown " + teardownCalls + ")");
    }
    // the matrix's size, for the build log
    System.out.println("crash matrix for " + provider().metadata().id() + ": " + report);
  }

  /**
   * Pairs of a spec and a revision of it that the provider applies ({@link ResourceDriver#revise}), one per kind
   * the provider revises, named with {@code uniqueSuffix} as {@link #specs} are: the revision crash matrix runs
   * over their steps. The default has none.
   */
  protected List<Map.Entry<ResourceSpec, ResourceSpec>> revisions(String uniqueSuffix) {
    return List.of();
  }

  /**
   * A revision converges as create does: after a halt right after any mutating call of any of its steps, the
   * resumed steps leave the cloud as a run without a halt leaves it, nothing made twice; running the whole revision
   * again changes nothing; and teardown of the revised spec, from everything create and the revision recorded,
   * leaves nothing.
   */
  @Test
  void aHaltAfterAnyMutatingCallOfARevisionConvergesToTheRevisedCloud() throws Exception {
    List<String> report = new ArrayList<>();
    int run = 0;
    int pairs = revisions("rev").size();
    for (int index = 0; index < pairs; index++) {
      List<String> before = inventory();
      String suffix = "rev" + run++;
      Map.Entry<ResourceSpec, ResourceSpec> pair = revisions(suffix).get(index);
      String kind = pair.getKey().kind().wireName();
      ResourceDriver<ResourceSpec> driver = driver(pair.getKey());
      TckContext ctx = new TckContext(JobId.random());
      Map<String, String> created = run(driver.create(pair.getKey()), ctx, -1, 0, new ArrayList<>());
      Revision revision = driver.revise(pair.getKey(), pair.getValue(), Outputs.of(created));
      assertThat(describe(revision.refused())).as(kind + ": the TCK's revision must be one the provider applies")
          .isEmpty();
      List<Long> calls = new ArrayList<>();
      Map<String, String> revised = run(revision.steps(), new TckContext(ctx.jobId()), -1, 0, calls, created);
      List<String> expected = normalised(difference(inventory(), before), ctx.jobId(), suffix);
      assertThat(calls.stream().mapToLong(Long::longValue).sum())
          .as(kind + ": the revision made no mutating call the halt switch saw").isPositive();
      // applied again from the start (an engine that crashed after its last step): nothing more changes
      run(driver.revise(pair.getKey(), pair.getValue(), Outputs.of(created)).steps(), new TckContext(ctx.jobId()),
          -1, 0, new ArrayList<>(), created);
      assertThat(normalised(difference(inventory(), before), ctx.jobId(), suffix)).as("re-running the revision of "
          + kind).isEqualTo(expected);
      run(driver.teardown(pair.getValue(), Outputs.of(revised)), new TckContext(ctx.jobId()), -1, 0,
          new ArrayList<>());
      assertThat(inventory()).as("after teardown of revised " + kind).isEqualTo(before);

      int cases = 0;
      for (int step = 0; step < calls.size(); step++) {
        for (int n = 1; n <= calls.get(step); n++, cases++) {
          suffix = "rev" + run++;
          pair = revisions(suffix).get(index);
          driver = driver(pair.getKey());
          ctx = new TckContext(JobId.random());
          created = run(driver.create(pair.getKey()), ctx, -1, 0, new ArrayList<>());
          String where = kind + " revision step " + (step + 1) + ", halted after mutating call " + n;
          revised = run(driver.revise(pair.getKey(), pair.getValue(), Outputs.of(created)).steps(),
              new TckContext(ctx.jobId()), step, n, new ArrayList<>(), created);
          assertThat(normalised(difference(inventory(), before), ctx.jobId(), suffix)).as(where)
              .isEqualTo(expected);
          run(driver.teardown(pair.getValue(), Outputs.of(revised)), new TckContext(ctx.jobId()), -1, 0,
              new ArrayList<>());
          assertThat(inventory()).as("teardown after " + where).isEqualTo(before);
        }
      }
      report.add(kind + ": " + cases + " halts (revision " + calls + ")");
    }
    System.out.println("revision crash matrix for " + provider().metadata().id() + ": " + report);
  }

  /**
   * A change someone makes by hand to what a job made, outside any job (as in the cloud's console): the job's spec,
   * and the change, made from the state the job's create steps recorded. The TCK checks that the provider's drift
   * check finds it and its reconcile puts it back.
   */
  public record HandChange(ResourceSpec spec, java.util.function.Consumer<Outputs> change) {}

  /**
   * Something made outside any job, to be imported: its kind, and how to make it, answering the cloud's id an
   * import names it by.
   */
  public record MadeByHand(dev.zop.provisioner.JobKind kind, java.util.function.Supplier<String> make) {}

  /** Changes by hand the provider puts back, one per kind it checks, named with {@code uniqueSuffix}. */
  protected List<HandChange> changesByHand(String uniqueSuffix) {
    return List.of();
  }

  /** Resources made by hand the provider imports, one per kind it imports, named with {@code uniqueSuffix}. */
  protected List<MadeByHand> madeByHand(String uniqueSuffix) {
    return List.of();
  }

  /** A drift check of what {@code recorded} says the job made: its read-only calls checked against its declaration. */
  private List<dev.zop.provisioner.Drift> observed(ResourceDriver<ResourceSpec> driver, ResourceSpec spec,
      Map<String, String> recorded) throws Exception {
    dev.zop.provisioner.spi.CloudRead<List<dev.zop.provisioner.Drift>> read = driver.observe(spec,
        Outputs.of(recorded));
    assertThat(read).as(spec.kind().wireName() + ": the provider checks it for drift").isNotNull();
    int mark = callMark();
    List<dev.zop.provisioner.Drift> drifts = read.read();
    assertThat(operationsSince(mark)).as("operations called by the drift check of " + spec.kind().wireName())
        .isSubsetOf(read.permissions());
    return drifts;
  }

  /**
   * A change by hand is found by the drift check (which calls only what it declares, and finds nothing before the
   * change), and the reconcile puts it back as a run without a halt does after a halt right after any of its
   * mutating calls: the cloud as create left it, the check clean again, and teardown leaves nothing.
   */
  @Test
  void aChangeByHandIsFoundAndItsReconcileConvergesAfterAHaltAtAnyMutatingCall() throws Exception {
    List<String> report = new ArrayList<>();
    int run = 0;
    int changes = changesByHand("drift").size();
    for (int index = 0; index < changes; index++) {
      List<String> before = inventory();
      String suffix = "drift" + run++;
      HandChange change = changesByHand(suffix).get(index);
      String kind = change.spec().kind().wireName();
      ResourceDriver<ResourceSpec> driver = driver(change.spec());
      TckContext ctx = new TckContext(JobId.random());
      Map<String, String> created = run(driver.create(change.spec()), ctx, -1, 0, new ArrayList<>());
      assertThat(observed(driver, change.spec(), created)).as(kind + " as created").isEmpty();
      List<String> expected = normalised(difference(inventory(), before), ctx.jobId(), suffix);
      change.change().accept(Outputs.of(created));
      List<dev.zop.provisioner.Drift> drifts = observed(driver, change.spec(), created);
      assertThat(drifts).as(kind + ": the change by hand is found").isNotEmpty();
      Revision reconcile = driver.reconcile(change.spec(), Outputs.of(created));
      assertThat(drifts).as(kind + ": each drift is one its reconcile puts back")
          .allSatisfy(d -> assertThat(reconcile.effectOf(d.field())).as(d.field()).isNotNull());
      List<Long> calls = new ArrayList<>();
      run(reconcile.steps(), new TckContext(ctx.jobId()), -1, 0, calls, created);
      assertThat(calls.stream().mapToLong(Long::longValue).sum())
          .as(kind + ": the reconcile made no mutating call the halt switch saw").isPositive();
      assertThat(observed(driver, change.spec(), created)).as(kind + " reconciled").isEmpty();
      assertThat(normalised(difference(inventory(), before), ctx.jobId(), suffix)).as(kind + " reconciled")
          .isEqualTo(expected);
      run(driver.teardown(change.spec(), Outputs.of(created)), new TckContext(ctx.jobId()), -1, 0,
          new ArrayList<>());
      assertThat(inventory()).as("after teardown of reconciled " + kind).isEqualTo(before);

      int cases = 0;
      for (int step = 0; step < calls.size(); step++) {
        for (int n = 1; n <= calls.get(step); n++, cases++) {
          suffix = "drift" + run++;
          change = changesByHand(suffix).get(index);
          driver = driver(change.spec());
          ctx = new TckContext(JobId.random());
          created = run(driver.create(change.spec()), ctx, -1, 0, new ArrayList<>());
          change.change().accept(Outputs.of(created));
          String where = kind + " reconcile step " + (step + 1) + ", halted after mutating call " + n;
          run(driver.reconcile(change.spec(), Outputs.of(created)).steps(), new TckContext(ctx.jobId()), step, n,
              new ArrayList<>(), created);
          assertThat(observed(driver, change.spec(), created)).as(where).isEmpty();
          assertThat(normalised(difference(inventory(), before), ctx.jobId(), suffix)).as(where)
              .isEqualTo(expected);
          run(driver.teardown(change.spec(), Outputs.of(created)), new TckContext(ctx.jobId()), -1, 0,
              new ArrayList<>());
          assertThat(inventory()).as("teardown after " + where).isEqualTo(before);
        }
      }
      report.add(kind + ": " + cases + " halts (reconcile " + calls + ")");
    }
    System.out.println("reconcile crash matrix for " + provider().metadata().id() + ": " + report);
  }

  /**
   * Something made by hand is found by its id with the config it has and no owner, and its adoption converges after
   * a halt right after any of its mutating calls: what exists is tagged once as the job's, nothing is made, the drift
   * check finds it as its config says, another job's adoption of it is refused, and teardown removes it.
   */
  @Test
  void somethingMadeByHandIsImportedAndItsAdoptionConvergesAfterAHaltAtAnyMutatingCall() throws Exception {
    List<String> report = new ArrayList<>();
    int run = 0;
    int made = madeByHand("import").size();
    for (int index = 0; index < made; index++) {
      List<String> baseline = inventory();
      String suffix = "import" + run++;
      MadeByHand hand = madeByHand(suffix).get(index);
      String kind = hand.kind().wireName();
      String id = hand.make().get();
      List<String> madeLines = normalised(difference(inventory(), baseline), JobId.of("job_none"), suffix);
      @SuppressWarnings("unchecked")
      ResourceDriver<ResourceSpec> driver = (ResourceDriver<ResourceSpec>) session.driver(hand.kind());
      dev.zop.provisioner.spi.Adoption<ResourceSpec> found = driver.findExisting(id).read();
      assertThat(found).as(kind + " " + id + " is found").isNotNull();
      assertThat(found.ownerJobId()).as(kind + " made by hand has no owner").isNull();
      assertThat(driver.validate(found.config())).as(kind + ": the config found is valid").isEmpty();
      TckContext ctx = new TckContext(JobId.random());
      List<Long> calls = new ArrayList<>();
      Map<String, String> adopted = run(driver.adopt(found.config(), id), ctx, -1, 0, calls);
      assertThat(adopted).as(kind + ": adoption records the outputs find read").containsAllEntriesOf(found.outputs());
      assertThat(observed(driver, found.config(), adopted)).as(kind + " as adopted").isEmpty();
      List<String> expected = normalised(difference(inventory(), baseline), ctx.jobId(), suffix);
      assertThat(expected).as(kind + ": adoption makes nothing").hasSameSizeAs(madeLines);
      run(driver.adopt(found.config(), id), new TckContext(ctx.jobId()), -1, 0, new ArrayList<>());
      assertThat(normalised(difference(inventory(), baseline), ctx.jobId(), suffix)).as(kind + " adopted again")
          .isEqualTo(expected);
      TckContext other = new TckContext(JobId.random());
      other.beginStep(new LinkedHashMap<>(), driver.adopt(found.config(), id).get(0));
      assertThat(driver.adopt(found.config(), id).get(0).run(other)).as(kind + ": another job's adoption")
          .isInstanceOfSatisfying(StepResult.Failed.class, f -> assertThat(f.failure().code())
              .isEqualTo("owned_by_another_job"));
      run(driver.teardown(found.config(), Outputs.of(adopted)), new TckContext(ctx.jobId()), -1, 0,
          new ArrayList<>());
      assertThat(inventory()).as("after teardown of imported " + kind).isEqualTo(baseline);

      int cases = 0;
      for (int step = 0; step < calls.size(); step++) {
        for (int n = 1; n <= calls.get(step); n++, cases++) {
          suffix = "import" + run++;
          hand = madeByHand(suffix).get(index);
          id = hand.make().get();
          found = driver.findExisting(id).read();
          ctx = new TckContext(JobId.random());
          String where = kind + " adoption step " + (step + 1) + ", halted after mutating call " + n;
          adopted = run(driver.adopt(found.config(), id), ctx, step, n, new ArrayList<>());
          assertThat(normalised(difference(inventory(), baseline), ctx.jobId(), suffix)).as(where)
              .isEqualTo(expected);
          run(driver.teardown(found.config(), Outputs.of(adopted)), new TckContext(ctx.jobId()), -1, 0,
              new ArrayList<>());
          assertThat(inventory()).as("teardown after " + where).isEqualTo(baseline);
        }
      }
      report.add(kind + ": " + cases + " halts (adoption " + calls + ")");
    }
    System.out.println("import crash matrix for " + provider().metadata().id() + ": " + report);
  }

  /**
   * Every size the provider offers has a list price in the TCK's region and in every region its table lists, and a
   * spec of each kind sized to each offered size prices every line, naming the table: a plan's total is then never
   * a lower bound because a price the provider could have listed is missing.
   */
  @Test
  void everyOfferedSizeHasAListPriceInEveryRegion() {
    assertThat(new OfferedPrices(provider(), session).missing(region(), provider().metadata().regions(),
        specs("prices"))).isEmpty();
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
      ctx.beginStep(outputs, step);
      int mark = callMark();
      StepResult.Done result = runToEnd(step, ctx);
      if (checkCalls) {
        assertThat(operationsSince(mark)).as("operations called by " + step.name())
            .isSubsetOf(step.permissions());
      }
      outputs.putAll(ctx.ownOutputs());
      outputs.putAll(result.outputs());
    }
    return outputs;
  }

  /**
   * Runs steps as {@link #runAll} does, recording each step's accepted mutating calls in {@code calls}. When
   * {@code haltStep} is a step's index, the engine halts right after the cloud accepts that step's
   * {@code haltAfter}-th mutating call; the step then runs again as a resumed engine runs it: with the outputs
   * recorded before it and the intent it recorded (which the engine writes before it calls the cloud).
   */
  private Map<String, String> run(List<Step> steps, TckContext ctx, int haltStep, int haltAfter, List<Long> calls)
      throws Exception {
    return run(steps, ctx, haltStep, haltAfter, calls, Map.of());
  }

  /** As {@link #run(List, TckContext, int, int, List)}, after steps that recorded {@code recorded}. */
  private Map<String, String> run(List<Step> steps, TckContext ctx, int haltStep, int haltAfter, List<Long> calls,
      Map<String, String> recorded) throws Exception {
    Map<String, String> outputs = new LinkedHashMap<>(recorded);
    for (int i = 0; i < steps.size(); i++) {
      Step step = steps.get(i);
      ctx.beginStep(outputs, step);
      long mark = halts().count();
      if (i == haltStep) {
        halts().arm(haltAfter);
        try {
          runToEnd(step, ctx);
          throw new AssertionError(step.name() + " finished without reaching mutating call " + haltAfter
              + ": its calls differ from run to run");
        } catch (EngineHalted expected) {
          // the engine is gone; the cloud kept what it accepted
        } finally {
          halts().disarm();
        }
        ctx.resumeStep();
      }
      StepResult.Done done = runToEnd(step, ctx);
      calls.add(halts().count() - mark);
      outputs.putAll(ctx.ownOutputs());
      outputs.putAll(done.outputs());
    }
    return outputs;
  }

  private StepResult.Done runToEnd(Step step, TckContext ctx) throws Exception {
    StepResult first = step.run(ctx);
    StepResult result = first instanceof StepResult.Wait
        ? await().atMost(MAX_STEP_WAIT).pollInSameThread().pollDelay(Duration.ofMillis(5))
            .pollInterval(Duration.ofMillis(20)).alias(step.name() + " keeps waiting")
            .until(() -> step.run(ctx), r -> !(r instanceof StepResult.Wait))
        : first;
    if (result instanceof StepResult.Failed failed) {
      throw new AssertionError("step " + step.name() + " failed: " + failed.failure());
    }
    return (StepResult.Done) result;
  }

  /** What {@code after} holds that {@code before} does not, counting duplicates. */
  private static List<String> difference(List<String> after, List<String> before) {
    List<String> added = new ArrayList<>(after);
    before.forEach(added::remove);
    return added.stream().sorted().toList();
  }

  /**
   * Inventory lines with this run's job id and name suffix replaced, so two runs compare equal. Resource names
   * often carry the id's random part, or a prefix of it where the cloud limits a name's length.
   */
  private static List<String> normalised(List<String> lines, JobId job, String suffix) {
    String random = job.value().substring(job.value().indexOf('_') + 1);
    return lines.stream().map(line -> {
      String l = line.replace(job.value(), "<job>");
      for (int length = random.length(); length >= 8; length--) {
        l = l.replace(random.substring(0, length), "<job>");
      }
      return l.replace(suffix, "<name>");
    }).sorted().toList();
  }

  /** Field errors as "field code" lines, for readable assertion messages. */
  protected static List<String> describe(List<FieldError> errors) {
    return errors.stream().map(e -> e.field() + " " + e.code()).toList();
  }
}
